package defaulting

import "testing"

// tmplIn and tmplOut are a minimal pod template before and after defaulting: no Pod-only
// default (enableServiceLinks, requests from limits) reaches a template.
const (
	tmplIn = `"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27",
		"resources":{"limits":{"cpu":"1"}}}]}}`
	tmplOut = `"template":{"metadata":{"labels":{"app":"a"}},"spec":{` + podSpecDefaults + `,"containers":[{"name":"c",
		"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log",
		"terminationMessagePolicy":"File","resources":{"limits":{"cpu":"1"}}}]}}`
	selector = `"selector":{"matchLabels":{"app":"a"}}`
)

var appsCases = []defaultCase{
	{
		name: "deployment", group: "apps", version: "v1", kind: "Deployment",
		in: `{"metadata":{"name":"d"},"spec":{` + selector + `,` + tmplIn + `}}`,
		want: `{"metadata":{"name":"d"},"spec":{` + selector + `,` + tmplOut + `,"replicas":1,
			"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
			"revisionHistoryLimit":10,"progressDeadlineSeconds":600}}`,
	},
	{
		name: "deployment keeps zero replicas and Recreate", group: "apps", version: "v1", kind: "Deployment",
		in:   `{"spec":{"replicas":0,"strategy":{"type":"Recreate"},"revisionHistoryLimit":0}}`,
		want: `{"spec":{"replicas":0,"strategy":{"type":"Recreate"},"revisionHistoryLimit":0,"progressDeadlineSeconds":600}}`,
	},
	{
		name: "deployment partial rolling update", group: "apps", version: "v1", kind: "Deployment",
		in: `{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1}}}}`,
		want: `{"spec":{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"}},
			"revisionHistoryLimit":10,"progressDeadlineSeconds":600}}`,
	},
	{
		name: "replicaset", group: "apps", version: "v1", kind: "ReplicaSet",
		in:   `{"spec":{` + selector + `,` + tmplIn + `}}`,
		want: `{"spec":{` + selector + `,` + tmplOut + `,"replicas":1}}`,
	},
	{
		name: "statefulset", group: "apps", version: "v1", kind: "StatefulSet",
		in: `{"spec":{"serviceName":"s",` + selector + `,` + tmplIn + `,
			"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"]}}]}}`,
		want: `{"spec":{"serviceName":"s",` + selector + `,` + tmplOut + `,"replicas":1,"podManagementPolicy":"OrderedReady",
			"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}},"revisionHistoryLimit":10,
			"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"},
			"volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"volumeMode":"Filesystem"},
				"status":{"phase":"Pending"}}]}}`,
	},
	{
		name: "statefulset explicit RollingUpdate gets no partition", group: "apps", version: "v1", kind: "StatefulSet",
		in: `{"spec":{"updateStrategy":{"type":"RollingUpdate"},"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete"}}}`,
		want: `{"spec":{"replicas":1,"podManagementPolicy":"OrderedReady","updateStrategy":{"type":"RollingUpdate"},
			"revisionHistoryLimit":10,"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"}}}`,
	},
	{
		name: "statefulset OnDelete", group: "apps", version: "v1", kind: "StatefulSet",
		in: `{"spec":{"updateStrategy":{"type":"OnDelete"},"podManagementPolicy":"Parallel"}}`,
		want: `{"spec":{"replicas":1,"podManagementPolicy":"Parallel","updateStrategy":{"type":"OnDelete"},
			"revisionHistoryLimit":10,"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"}}}`,
	},
	{
		name: "daemonset", group: "apps", version: "v1", kind: "DaemonSet",
		in: `{"spec":{` + selector + `,` + tmplIn + `}}`,
		want: `{"spec":{` + selector + `,` + tmplOut + `,
			"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},"revisionHistoryLimit":10}}`,
	},
}

var batchCases = []defaultCase{
	{
		name: "job", group: "batch", version: "v1", kind: "Job",
		in: `{"metadata":{"name":"j"},"spec":{` + tmplIn + `}}`,
		want: `{"metadata":{"name":"j","labels":{"app":"a"}},"spec":{` + tmplOut + `,"completions":1,"parallelism":1,
			"backoffLimit":6,"completionMode":"NonIndexed","suspend":false,"podReplacementPolicy":"TerminatingOrFailed",
			"manualSelector":false}}`,
	},
	{
		name: "job keeps its labels, restartPolicy and completions", group: "batch", version: "v1", kind: "Job",
		in: `{"metadata":{"labels":{"team":"x"}},"spec":{"completions":5,"template":{"metadata":{"labels":{"app":"a"}},
			"spec":{"restartPolicy":"Never"}}}}`,
		want: `{"metadata":{"labels":{"team":"x"}},"spec":{"completions":5,"parallelism":1,"backoffLimit":6,
			"completionMode":"NonIndexed","suspend":false,"podReplacementPolicy":"TerminatingOrFailed","manualSelector":false,
			"template":{"metadata":{"labels":{"app":"a"}},"spec":{"restartPolicy":"Never","dnsPolicy":"ClusterFirst",
			"schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}`,
	},
	{
		name: "indexed job with per-index backoff and failure policy", group: "batch", version: "v1", kind: "Job",
		in: `{"spec":{"parallelism":2,"completionMode":"Indexed","backoffLimitPerIndex":1,
			"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]}}}`,
		want: `{"spec":{"parallelism":2,"completionMode":"Indexed","backoffLimitPerIndex":1,"backoffLimit":2147483647,
			"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]}]},
			"suspend":false,"podReplacementPolicy":"Failed","manualSelector":false}}`,
	},
	{
		name: "cronjob", group: "batch", version: "v1", kind: "CronJob",
		in: `{"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{` + tmplIn + `}}}}`,
		want: `{"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{` + tmplOut + `}},"concurrencyPolicy":"Allow",
			"suspend":false,"successfulJobsHistoryLimit":3,"failedJobsHistoryLimit":1}}`,
	},
}

// TestCh01_Defaulting_Apps covers Deployment, ReplicaSet, StatefulSet and DaemonSet.
func TestCh01_Defaulting_Apps(t *testing.T) { runCases(t, appsCases) }

// TestCh01_Defaulting_Batch covers Job and CronJob.
func TestCh01_Defaulting_Batch(t *testing.T) { runCases(t, batchCases) }
