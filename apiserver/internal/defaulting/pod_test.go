package defaulting

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// podSpecDefaults is what every defaulted pod spec carries, as JSON members.
const podSpecDefaults = `"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler",
	"securityContext":{},"terminationGracePeriodSeconds":30`

// containerDefaults is what a container gets besides imagePullPolicy.
const containerDefaults = `"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","resources":{}`

var podCases = []defaultCase{
	{
		name: "minimal", version: "v1", kind: "Pod",
		in: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`,
		want: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{
			"containers":[{"name":"app","image":"nginx","imagePullPolicy":"Always",` + containerDefaults + `}],
			"enableServiceLinks":true,` + podSpecDefaults + `}}`,
	},
	{
		name: "no spec at all", version: "v1", kind: "Pod",
		in:   `{"metadata":{"name":"web"}}`,
		want: `{"metadata":{"name":"web"},"spec":{"enableServiceLinks":true,` + podSpecDefaults + `}}`,
	},
	{
		name: "explicit values stay", version: "v1", kind: "Pod",
		in: `{"spec":{"restartPolicy":"Never","dnsPolicy":"Default","schedulerName":"mine","securityContext":{"runAsUser":1000},
			"terminationGracePeriodSeconds":0,"enableServiceLinks":false,
			"containers":[{"name":"a","image":"nginx","imagePullPolicy":"Never","terminationMessagePath":"/x",
				"terminationMessagePolicy":"FallbackToLogsOnError","resources":{"requests":{"cpu":"1"}}}]}}`,
		want: `{"spec":{"restartPolicy":"Never","dnsPolicy":"Default","schedulerName":"mine","securityContext":{"runAsUser":1000},
			"terminationGracePeriodSeconds":0,"enableServiceLinks":false,
			"containers":[{"name":"a","image":"nginx","imagePullPolicy":"Never","terminationMessagePath":"/x",
				"terminationMessagePolicy":"FallbackToLogsOnError","resources":{"requests":{"cpu":"1"}}}]}}`,
	},
	{
		name: "empty strings and nulls are unset", version: "v1", kind: "Pod",
		in: `{"spec":{"restartPolicy":"","dnsPolicy":null,"securityContext":null,"terminationGracePeriodSeconds":null,
			"containers":[{"name":"a","image":"nginx:1.27","imagePullPolicy":""}]}}`,
		want: `{"spec":{"enableServiceLinks":true,` + podSpecDefaults + `,
			"containers":[{"name":"a","image":"nginx:1.27","imagePullPolicy":"IfNotPresent",` + containerDefaults + `}]}}`,
	},
	{
		name: "pull policy by tag, all container lists", version: "v1", kind: "Pod",
		in: `{"spec":{
			"initContainers":[{"name":"i","image":"busybox:latest"}],
			"containers":[{"name":"a","image":"registry.k8s.io/pause:3.10"},{"name":"b","image":"localhost:5000/app"},
				{"name":"c","image":"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
				{"name":"d","image":""},{"name":"e","image":"Bad/Name"}],
			"ephemeralContainers":[{"name":"dbg","image":"busybox"}]}}`,
		want: `{"spec":{"enableServiceLinks":true,` + podSpecDefaults + `,
			"initContainers":[{"name":"i","image":"busybox:latest","imagePullPolicy":"Always",` + containerDefaults + `}],
			"containers":[
				{"name":"a","image":"registry.k8s.io/pause:3.10","imagePullPolicy":"IfNotPresent",` + containerDefaults + `},
				{"name":"b","image":"localhost:5000/app","imagePullPolicy":"Always",` + containerDefaults + `},
				{"name":"c","image":"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","imagePullPolicy":"IfNotPresent",` + containerDefaults + `},
				{"name":"d","image":"","imagePullPolicy":"IfNotPresent",` + containerDefaults + `},
				{"name":"e","image":"Bad/Name","imagePullPolicy":"IfNotPresent",` + containerDefaults + `}],
			"ephemeralContainers":[{"name":"dbg","image":"busybox","imagePullPolicy":"Always",` + containerDefaults + `}]}}`,
	},
	{
		name: "ports env probes lifecycle", version: "v1", kind: "Pod",
		in: `{"spec":{"containers":[{"name":"a","image":"x:1",
			"ports":[{"containerPort":80},{"containerPort":53,"protocol":"UDP"}],
			"env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},{"name":"V","value":"v"},
				{"name":"F","valueFrom":{"fileKeyRef":{"path":"p","key":"k","volumeName":"v"}}}],
			"livenessProbe":{"httpGet":{"port":8080}},
			"readinessProbe":{"grpc":{"port":9090},"periodSeconds":5},
			"startupProbe":{"exec":{"command":["true"]},"failureThreshold":0},
			"lifecycle":{"preStop":{"httpGet":{"port":80,"path":"/stop"}},"postStart":{"exec":{"command":["x"]}}}}]}}`,
		want: `{"spec":{"enableServiceLinks":true,` + podSpecDefaults + `,"containers":[{"name":"a","image":"x:1",
			"imagePullPolicy":"IfNotPresent",` + containerDefaults + `,
			"ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}],
			"env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name","apiVersion":"v1"}}},{"name":"V","value":"v"},
				{"name":"F","valueFrom":{"fileKeyRef":{"path":"p","key":"k","volumeName":"v","optional":false}}}],
			"livenessProbe":{"httpGet":{"port":8080,"path":"/","scheme":"HTTP"},
				"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},
			"readinessProbe":{"grpc":{"port":9090,"service":""},"periodSeconds":5,
				"timeoutSeconds":1,"successThreshold":1,"failureThreshold":3},
			"startupProbe":{"exec":{"command":["true"]},"failureThreshold":3,
				"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1},
			"lifecycle":{"preStop":{"httpGet":{"port":80,"path":"/stop","scheme":"HTTP"}},"postStart":{"exec":{"command":["x"]}}}}]}}`,
	},
	{
		name: "requests from limits, pod only", version: "v1", kind: "Pod",
		in: `{"spec":{"containers":[{"name":"a","image":"x:1","resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":"100m"}}}],
			"initContainers":[{"name":"i","image":"x:1","resources":{"limits":{"memory":"64Mi"}}}]}}`,
		want: `{"spec":{"enableServiceLinks":true,` + podSpecDefaults + `,
			"containers":[{"name":"a","image":"x:1","imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log",
				"terminationMessagePolicy":"File","resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":"100m","memory":"1Gi"}}}],
			"initContainers":[{"name":"i","image":"x:1","imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log",
				"terminationMessagePolicy":"File","resources":{"limits":{"memory":"64Mi"},"requests":{"memory":"64Mi"}}}]}}`,
	},
	{
		name: "host network ports and pod-level requests", version: "v1", kind: "Pod",
		in: `{"spec":{"hostNetwork":true,"resources":{"limits":{"cpu":"2","memory":"1Gi"}},
			"containers":[{"name":"a","image":"x:1","ports":[{"containerPort":80},{"containerPort":81,"hostPort":8081}],
				"resources":{"requests":{"cpu":"1"}}}]}}`,
		want: `{"spec":{"hostNetwork":true,"resources":{"limits":{"cpu":"2","memory":"1Gi"},"requests":{"memory":"1Gi"}},
			"enableServiceLinks":true,` + podSpecDefaults + `,
			"containers":[{"name":"a","image":"x:1","imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log",
				"terminationMessagePolicy":"File","resources":{"requests":{"cpu":"1"}},
				"ports":[{"containerPort":80,"hostPort":80,"protocol":"TCP"},{"containerPort":81,"hostPort":8081,"protocol":"TCP"}]}]}}`,
	},
	{
		name: "volume sources", version: "v1", kind: "Pod",
		in: `{"spec":{"volumes":[
			{"name":"plain"},
			{"name":"cm","configMap":{"name":"c"}},
			{"name":"sec","secret":{"secretName":"s","defaultMode":256}},
			{"name":"host","hostPath":{"path":"/data"}},
			{"name":"dapi","downwardAPI":{"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name"}}]}},
			{"name":"proj","projected":{"sources":[{"serviceAccountToken":{"path":"token"}},
				{"downwardAPI":{"items":[{"path":"l","fieldRef":{"fieldPath":"metadata.labels"}}]}}]}},
			{"name":"eph","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"]}}}},
			{"name":"img","image":{"reference":"quay.io/x/y:v1"}},
			{"name":"iscsi","iscsi":{"targetPortal":"t","iqn":"i","lun":0}},
			{"name":"rbd","rbd":{"monitors":["m"],"image":"i"}},
			{"name":"az","azureDisk":{"diskName":"d","diskURI":"u"}},
			{"name":"sio","scaleIO":{"gateway":"g","system":"s","secretRef":{"name":"x"}}}]}}`,
		want: `{"spec":{"enableServiceLinks":true,` + podSpecDefaults + `,"volumes":[
			{"name":"plain","emptyDir":{}},
			{"name":"cm","configMap":{"name":"c","defaultMode":420}},
			{"name":"sec","secret":{"secretName":"s","defaultMode":256}},
			{"name":"host","hostPath":{"path":"/data","type":""}},
			{"name":"dapi","downwardAPI":{"defaultMode":420,"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name","apiVersion":"v1"}}]}},
			{"name":"proj","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"path":"token","expirationSeconds":3600}},
				{"downwardAPI":{"items":[{"path":"l","fieldRef":{"fieldPath":"metadata.labels","apiVersion":"v1"}}]}}]}},
			{"name":"eph","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"],"volumeMode":"Filesystem"}}}},
			{"name":"img","image":{"reference":"quay.io/x/y:v1","pullPolicy":"IfNotPresent"}},
			{"name":"iscsi","iscsi":{"targetPortal":"t","iqn":"i","lun":0,"iscsiInterface":"default"}},
			{"name":"rbd","rbd":{"monitors":["m"],"image":"i","pool":"rbd","user":"admin","keyring":"/etc/ceph/keyring"}},
			{"name":"az","azureDisk":{"diskName":"d","diskURI":"u","cachingMode":"ReadWrite","fsType":"ext4","readOnly":false,"kind":"Shared"}},
			{"name":"sio","scaleIO":{"gateway":"g","system":"s","secretRef":{"name":"x"},"storageMode":"ThinProvisioned","fsType":"xfs"}}]}}`,
	},
	{
		name: "wrong types are left alone", version: "v1", kind: "Pod",
		in: `{"spec":{"restartPolicy":5,"securityContext":"x","containers":[1,{"name":"a","image":7,"ports":"p","env":[{"valueFrom":3}]}],"volumes":{}}}`,
		want: `{"spec":{"restartPolicy":5,"securityContext":"x","volumes":{},"enableServiceLinks":true,"dnsPolicy":"ClusterFirst",
			"schedulerName":"default-scheduler","terminationGracePeriodSeconds":30,
			"containers":[1,{"name":"a","image":7,"ports":"p","env":[{"valueFrom":3}],"imagePullPolicy":"IfNotPresent",` + containerDefaults + `}]}}`,
	},
}

// TestCh01_Defaulting_Pod covers SetObjectDefaults_Pod: pod spec, containers, volumes.
func TestCh01_Defaulting_Pod(t *testing.T) { runCases(t, podCases) }

// TestCh01_Defaulting_ImageTag checks the tag rule behind imagePullPolicy.
func TestCh01_Defaulting_ImageTag(t *testing.T) {
	for image, want := range map[string]string{
		"nginx": "latest", "nginx:latest": "latest", "nginx:1.27": "1.27", "library/nginx:1.27-alpine": "1.27-alpine",
		"localhost:5000/app": "latest", "localhost:5000/app:v2": "v2", "Registry.Example.com/app": "latest",
		"nginx@sha256:abc": "", "nginx:1@sha256:abc": "1", "": "", "UPPER": "", "nginx:": "", "nginx:-x": "", "a b": "",
	} {
		assert.Equal(t, want, imageTag(image), "imageTag(%q)", image)
	}
}
