package printers

import "testing"

// template is a pod template member with two containers.
const template = `"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.27"},{"name":"proxy","image":"envoy:1.30"}]}}`

// TestCh01_Printers_Deployment checks printDeployment: READY as ready/desired, the integer
// counts, and the wide columns with the bare selector text.
func TestCh01_Printers_Deployment(t *testing.T) {
	assertColumns(t, deploymentPrinter,
		"Name|string|name|0", "Ready|string||0", "Up-to-date|string||0", "Available|string||0", "Age|string||0",
		"Containers|string||1", "Images|string||1", "Selector|string||1")
	runCellCases(t, deploymentPrinter, []cellCase{
		{
			name: "rolling out",
			json: withMeta("web", `,"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},`+template+`},
				"status":{"replicas":3,"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}`),
			want: []any{"web", "2/3", int64(3), int64(2), "5m", "app,proxy", "nginx:1.27,envoy:1.30", "app=web"},
		},
		{
			name: "no status",
			json: withMeta("new", `,"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},`+template+`}`),
			want: []any{"new", "0/3", int64(0), int64(0), "5m", "app,proxy", "nginx:1.27,envoy:1.30", "app=web"},
		},
		{
			name: "replicas missing reads as the default 1; no selector prints nothing",
			json: withMeta("one", `,"spec":{}`),
			want: []any{"one", "0/1", int64(0), int64(0), "5m", "", "", ""},
		},
		{
			name: "scaled to zero, selector with expressions sorted by key",
			json: withMeta("zero", `,"spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"},"matchExpressions":[
				{"key":"tier","operator":"In","values":["fe","be"]},{"key":"canary","operator":"DoesNotExist"},{"key":"zone","operator":"NotIn","values":["a"]},{"key":"env","operator":"Exists"}]}}`),
			want: []any{"zero", "0/0", int64(0), int64(0), "5m", "", "", "app=web,!canary,env,tier in (be,fe),zone notin (a)"},
		},
		{
			name: "a bad operator",
			json: withMeta("bad", `,"spec":{"replicas":1,"selector":{"matchExpressions":[{"key":"a","operator":"in","values":["b"]}]}}`),
			want: []any{"bad", "0/1", int64(0), int64(0), "5m", "", "", "<invalid>"},
		},
	})
}

// TestCh01_Printers_ReplicaSetStatefulSetDaemonSet checks the other apps/v1 printers.
func TestCh01_Printers_ReplicaSetStatefulSetDaemonSet(t *testing.T) {
	assertColumns(t, replicaSetPrinter,
		"Name|string|name|0", "Desired|integer||0", "Current|integer||0", "Ready|integer||0", "Age|string||0",
		"Containers|string||1", "Images|string||1", "Selector|string||1")
	runCellCases(t, replicaSetPrinter, []cellCase{
		{
			name: "running",
			json: withMeta("web-5d8f", `,"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web","pod-template-hash":"5d8f"}},`+template+`},
				"status":{"replicas":3,"readyReplicas":1}`),
			want: []any{"web-5d8f", int64(3), int64(3), int64(1), "5m", "app,proxy", "nginx:1.27,envoy:1.30", "app=web,pod-template-hash=5d8f"},
		},
		{
			name: "no status, empty selector",
			json: withMeta("rs", `,"spec":{"selector":{}}`),
			want: []any{"rs", int64(1), int64(0), int64(0), "5m", "", "", "<none>"},
		},
		{
			name: "a selector with a bad operator",
			json: withMeta("bad", `,"spec":{"replicas":2,"selector":{"matchExpressions":[{"key":"a","operator":"Gt","values":["1"]}]}}`),
			want: []any{"bad", int64(2), int64(0), int64(0), "5m", "", "", "<error>"},
		},
	})

	assertColumns(t, statefulSetPrinter,
		"Name|string|name|0", "Ready|string||0", "Age|string||0", "Containers|string||1", "Images|string||1")
	runCellCases(t, statefulSetPrinter, []cellCase{
		{
			name: "ready",
			json: withMeta("db", `,"spec":{"replicas":3,"serviceName":"db",`+template+`},"status":{"replicas":3,"readyReplicas":3}`),
			want: []any{"db", "3/3", "5m", "app,proxy", "nginx:1.27,envoy:1.30"},
		},
		{name: "no status, default replicas", json: withMeta("s", `,"spec":{}`), want: []any{"s", "0/1", "5m", "", ""}},
	})

	assertColumns(t, daemonSetPrinter,
		"Name|string|name|0", "Desired|integer||0", "Current|integer||0", "Ready|integer||0", "Up-to-date|integer||0",
		"Available|integer||0", "Node Selector|string||0", "Age|string||0", "Containers|string||1", "Images|string||1", "Selector|string||1")
	runCellCases(t, daemonSetPrinter, []cellCase{
		{
			name: "on every linux node",
			json: withMeta("agent", `,"spec":{"selector":{"matchLabels":{"app":"agent"}},"template":{"spec":{"nodeSelector":{"kubernetes.io/os":"linux"},
				"containers":[{"name":"agent","image":"agent:2"}]}}},
				"status":{"desiredNumberScheduled":4,"currentNumberScheduled":4,"numberReady":3,"updatedNumberScheduled":2,"numberAvailable":3}`),
			want: []any{"agent", int64(4), int64(4), int64(3), int64(2), int64(3), "kubernetes.io/os=linux", "5m", "agent", "agent:2", "app=agent"},
		},
		{
			name: "no status, no node selector",
			json: withMeta("ds", `,"spec":{"template":{"spec":{"containers":[{"name":"c"}]}}}`),
			want: []any{"ds", int64(0), int64(0), int64(0), int64(0), int64(0), "<none>", "5m", "c", "", "<none>"},
		},
	})
}
