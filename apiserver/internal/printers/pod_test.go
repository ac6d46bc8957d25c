package printers

import (
	"testing"
	"time"
)

// TestCh01_Printers_Pod checks printPod's columns and cells: readiness from the container
// statuses, STATUS from phase, init containers and container states, restarts with the time
// of the last one, Terminating, and the Completed row condition.
func TestCh01_Printers_Pod(t *testing.T) {
	assertColumns(t, podPrinter,
		"Name|string|name|0", "Ready|string||0", "Status|string||0", "Restarts|string||0", "Age|string||0",
		"IP|string||1", "Node|string||1", "Nominated Node|string||1", "Readiness Gates|string||1")

	running := `{"type":"Ready","status":"True"}`
	runCellCases(t, podPrinter, []cellCase{
		{
			name: "two containers running and ready",
			json: withMeta("web", `,"spec":{"nodeName":"node-1","containers":[{"name":"app"},{"name":"log"}]},
				"status":{"phase":"Running","podIP":"10.0.0.5","podIPs":[{"ip":"10.0.0.5"},{"ip":"fd00::5"}],
				"conditions":[`+running+`],
				"containerStatuses":[{"name":"app","ready":true,"state":{"running":{}}},{"name":"log","ready":true,"state":{"running":{}}}]}`),
			want: []any{"web", "2/2", "Running", "0", "5m", "10.0.0.5", "node-1", "<none>", "<none>"},
		},
		{
			name: "no status at all reads as a new pod",
			json: withMeta("new", `,"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}`),
			want: []any{"new", "0/3", "Pending", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "podIPs alone give the IP",
			json: withMeta("v6", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Pending","podIPs":[{"ip":"fd00::7"}]}`),
			want: []any{"v6", "0/1", "Pending", "0", "5m", "fd00::7", "<none>", "<none>", "<none>"},
		},
		{
			name: "crash loop with restarts and the time of the last one",
			json: withMeta("crash", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running",
				"containerStatuses":[{"name":"a","ready":false,"restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}},
				"lastState":{"terminated":{"exitCode":1,"finishedAt":"`+ago(2*time.Minute)+`"}}}]}`),
			want: []any{"crash", "0/1", "CrashLoopBackOff", "4 (2m ago)", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "restarts without a finish time print the count alone",
			json: withMeta("r", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running",
				"containerStatuses":[{"name":"a","ready":true,"restartCount":2,"state":{"running":{}}}]}`),
			want: []any{"r", "1/1", "Running", "2", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "succeeded",
			json: withMeta("done", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Succeeded",
				"containerStatuses":[{"name":"a","ready":false,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}`),
			want:  []any{"done", "0/1", "Completed", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
			conds: podSucceededConditions,
		},
		{
			name: "failed with an exit code and no reason",
			json: withMeta("bad", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed",
				"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":3}}}]}`),
			want:  []any{"bad", "0/1", "ExitCode:3", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
			conds: podFailedConditions,
		},
		{
			name: "killed by a signal",
			json: withMeta("sig", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running",
				"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":137,"signal":9}}}]}`),
			want: []any{"sig", "0/1", "Signal:9", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "one container completed while another still runs and the pod is ready",
			json: withMeta("mixed", `,"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running","conditions":[`+running+`],
				"containerStatuses":[{"name":"a","ready":true,"state":{"running":{}}},{"name":"b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}`),
			want: []any{"mixed", "1/2", "Running", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "one container completed while another runs but the pod is not ready",
			json: withMeta("mixed", `,"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running",
				"containerStatuses":[{"name":"a","ready":true,"state":{"running":{}}},{"name":"b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}`),
			want: []any{"mixed", "1/2", "NotReady", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "second of two init containers running",
			json: withMeta("init", `,"spec":{"initContainers":[{"name":"i1"},{"name":"i2"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending",
				"initContainerStatuses":[{"name":"i1","state":{"terminated":{"exitCode":0}}},{"name":"i2","state":{"running":{}}}],
				"containerStatuses":[{"name":"a","state":{"waiting":{"reason":"PodInitializing"}}}]}`),
			want: []any{"init", "0/1", "Init:1/2", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "init container failed",
			json: withMeta("initfail", `,"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending",
				"initContainerStatuses":[{"name":"i1","restartCount":1,"state":{"terminated":{"exitCode":2}}}]}`),
			want: []any{"initfail", "0/1", "Init:ExitCode:2", "1", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "init container waiting in a crash loop",
			json: withMeta("initwait", `,"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending",
				"initContainerStatuses":[{"name":"i1","state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}`),
			want: []any{"initwait", "0/1", "Init:CrashLoopBackOff", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "a started sidecar counts among the containers",
			json: withMeta("mesh", `,"spec":{"initContainers":[{"name":"proxy","restartPolicy":"Always"}],"containers":[{"name":"app"}]},
				"status":{"phase":"Running","conditions":[{"type":"Initialized","status":"True"},`+running+`],
				"initContainerStatuses":[{"name":"proxy","started":true,"ready":true,"restartCount":1,"state":{"running":{}}}],
				"containerStatuses":[{"name":"app","ready":true,"restartCount":2,"state":{"running":{}}}]}`),
			want: []any{"mesh", "2/2", "Running", "3", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "deleted while running",
			json: `{"metadata":{"name":"bye","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},
				"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running"}}`,
			want: []any{"bye", "0/1", "Terminating", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "deleted on a lost node",
			json: `{"metadata":{"name":"lost","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},
				"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","reason":"NodeLost"}}`,
			want: []any{"lost", "0/1", "Unknown", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
		},
		{
			name: "a finished pod being deleted keeps its phase",
			json: `{"metadata":{"name":"old","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},
				"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Succeeded"}}`,
			want:  []any{"old", "0/1", "Succeeded", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
			conds: podSucceededConditions,
		},
		{
			name: "scheduling gated, readiness gates and a nominated node",
			json: withMeta("gated", `,"spec":{"containers":[{"name":"a"}],"readinessGates":[{"conditionType":"example.com/lb"},{"conditionType":"example.com/db"}]},
				"status":{"phase":"Pending","nominatedNodeName":"node-2","conditions":[
				{"type":"PodScheduled","status":"False","reason":"SchedulingGated"},{"type":"example.com/lb","status":"True"},{"type":"example.com/db","status":"False"}]}`),
			want: []any{"gated", "0/1", "SchedulingGated", "0", "5m", "<none>", "<none>", "node-2", "1/2"},
		},
		{
			name:  "status reason wins over the phase",
			json:  withMeta("evicted", `,"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","reason":"Evicted"}`),
			want:  []any{"evicted", "0/1", "Evicted", "0", "5m", "<none>", "<none>", "<none>", "<none>"},
			conds: podFailedConditions,
		},
	})
}
