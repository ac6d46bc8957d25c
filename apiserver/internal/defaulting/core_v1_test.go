package defaulting

import "testing"

var coreCases = []defaultCase{
	{
		name: "secret type", version: "v1", kind: "Secret",
		in:   `{"metadata":{"name":"s"},"data":{"a":"YQ=="}}`,
		want: `{"metadata":{"name":"s"},"data":{"a":"YQ=="},"type":"Opaque"}`,
	},
	{
		name: "secret stringData wins and goes", version: "v1", kind: "Secret",
		in:   `{"type":"kubernetes.io/basic-auth","data":{"username":"b2xk","keep":"aw=="},"stringData":{"username":"admin","password":"s3cr3t"}}`,
		want: `{"type":"kubernetes.io/basic-auth","data":{"username":"YWRtaW4=","keep":"aw==","password":"czNjcjN0"}}`,
	},
	{
		name: "secret empty stringData goes", version: "v1", kind: "Secret",
		in:   `{"stringData":{}}`,
		want: `{"type":"Opaque"}`,
	},
	{
		name: "namespace label and phase", version: "v1", kind: "Namespace",
		in:   `{"metadata":{"name":"team-a","labels":{"env":"dev"}}}`,
		want: `{"metadata":{"name":"team-a","labels":{"env":"dev","kubernetes.io/metadata.name":"team-a"}},"status":{"phase":"Active"}}`,
	},
	{
		name: "namespace label is forced to the name", version: "v1", kind: "Namespace",
		in:   `{"metadata":{"name":"b","labels":{"kubernetes.io/metadata.name":"a"}},"status":{"phase":"Terminating"}}`,
		want: `{"metadata":{"name":"b","labels":{"kubernetes.io/metadata.name":"b"}},"status":{"phase":"Terminating"}}`,
	},
	{
		name: "namespace without a name", version: "v1", kind: "Namespace",
		in:   `{"metadata":{"generateName":"ns-"}}`,
		want: `{"metadata":{"generateName":"ns-"},"status":{"phase":"Active"}}`,
	},
	{
		name: "node allocatable from capacity", version: "v1", kind: "Node",
		in:   `{"metadata":{"name":"n1"},"status":{"capacity":{"cpu":"4","pods":"110"}}}`,
		want: `{"metadata":{"name":"n1"},"status":{"capacity":{"cpu":"4","pods":"110"},"allocatable":{"cpu":"4","pods":"110"}}}`,
	},
	{
		name: "node without status", version: "v1", kind: "Node",
		in:   `{"metadata":{"name":"n1"}}`,
		want: `{"metadata":{"name":"n1"}}`,
	},
	{
		name: "endpoints ports", version: "v1", kind: "Endpoints",
		in:   `{"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":80},{"port":53,"protocol":"UDP"}]}]}`,
		want: `{"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":80,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}]}`,
	},
	{
		name: "pvc", version: "v1", kind: "PersistentVolumeClaim",
		in:   `{"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`,
		want: `{"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"},"status":{"phase":"Pending"}}`,
	},
	{
		name: "pv", version: "v1", kind: "PersistentVolume",
		in: `{"spec":{"capacity":{"storage":"1Gi"},"hostPath":{"path":"/d"}}}`,
		want: `{"spec":{"capacity":{"storage":"1Gi"},"hostPath":{"path":"/d","type":""},"persistentVolumeReclaimPolicy":"Retain",
			"volumeMode":"Filesystem"},"status":{"phase":"Pending"}}`,
	},
	{
		name: "pv sources", version: "v1", kind: "PersistentVolume",
		in: `{"spec":{"persistentVolumeReclaimPolicy":"Delete","volumeMode":"Block","rbd":{"image":"i"},"iscsi":{"iqn":"q"},
			"azureDisk":{"diskName":"d","readOnly":true},"scaleIO":{"fsType":"ext4"}},"status":{"phase":"Bound"}}`,
		want: `{"spec":{"persistentVolumeReclaimPolicy":"Delete","volumeMode":"Block",
			"rbd":{"image":"i","pool":"rbd","user":"admin","keyring":"/etc/ceph/keyring"},"iscsi":{"iqn":"q","iscsiInterface":"default"},
			"azureDisk":{"diskName":"d","readOnly":true,"cachingMode":"ReadWrite","fsType":"ext4","kind":"Shared"},
			"scaleIO":{"fsType":"ext4","storageMode":"ThinProvisioned"}},"status":{"phase":"Bound"}}`,
	},
	{
		name: "replication controller", version: "v1", kind: "ReplicationController",
		in: `{"metadata":{"name":"rc"},"spec":{"template":{"metadata":{"labels":{"app":"a"}},
			"spec":{"containers":[{"name":"c","image":"x:1"}]}}}}`,
		want: `{"metadata":{"name":"rc","labels":{"app":"a"}},"spec":{"replicas":1,"selector":{"app":"a"},
			"template":{"metadata":{"labels":{"app":"a"}},"spec":{` + podSpecDefaults + `,
			"containers":[{"name":"c","image":"x:1","imagePullPolicy":"IfNotPresent",` + containerDefaults + `}]}}}}`,
	},
	{
		name: "pod template", version: "v1", kind: "PodTemplate",
		in:   `{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}`,
		want: `{"template":{"spec":{` + podSpecDefaults + `,"containers":[{"name":"c","image":"x","imagePullPolicy":"Always",` + containerDefaults + `}]}}}`,
	},
}

// otherCases are kinds with defaults outside core and workloads, and kinds with none.
var otherCases = []defaultCase{
	{
		name: "endpoint slice ports", group: "discovery.k8s.io", version: "v1", kind: "EndpointSlice",
		in:   `{"addressType":"IPv4","ports":[{"port":80},{"name":"dns","port":53,"protocol":"UDP"}]}`,
		want: `{"addressType":"IPv4","ports":[{"port":80,"name":"","protocol":"TCP"},{"name":"dns","port":53,"protocol":"UDP"}]}`,
	},
	{name: "configmap has none visible", version: "v1", kind: "ConfigMap", in: `{"metadata":{"name":"c"}}`, want: `{"metadata":{"name":"c"}}`},
	{name: "serviceaccount has none", version: "v1", kind: "ServiceAccount", in: `{"metadata":{"name":"s"}}`, want: `{"metadata":{"name":"s"}}`},
	{name: "core event has none", version: "v1", kind: "Event", in: `{"reason":"R"}`, want: `{"reason":"R"}`},
	{name: "events.k8s.io event has none", group: "events.k8s.io", version: "v1", kind: "Event", in: `{"reason":"R"}`, want: `{"reason":"R"}`},
	{name: "lease has none", group: "coordination.k8s.io", version: "v1", kind: "Lease", in: `{"spec":{}}`, want: `{"spec":{}}`},
	{name: "unknown kind untouched", group: "example.com", version: "v1", kind: "Foo", in: `{"spec":{"containers":[{}]}}`, want: `{"spec":{"containers":[{}]}}`},
	{name: "unknown version untouched", group: "apps", version: "v1beta1", kind: "Deployment", in: `{"spec":{}}`, want: `{"spec":{}}`},
}

// TestCh01_Defaulting_Core covers Secret, Namespace, Node, Endpoints, PVC, PV,
// ReplicationController and PodTemplate.
func TestCh01_Defaulting_Core(t *testing.T) { runCases(t, coreCases) }

// TestCh01_Defaulting_Other covers EndpointSlice and the kinds without visible defaults.
func TestCh01_Defaulting_Other(t *testing.T) { runCases(t, otherCases) }
