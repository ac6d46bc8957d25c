package printers

import (
	"testing"
	"time"
)

// TestCh01_Printers_ConfigMapNamespaceSecretServiceAccount checks the small core printers.
func TestCh01_Printers_ConfigMapNamespaceSecretServiceAccount(t *testing.T) {
	assertColumns(t, configMapPrinter, "Name|string|name|0", "Data|string||0", "Age|string||0")
	runCellCases(t, configMapPrinter, []cellCase{
		{name: "data and binaryData count together", json: withMeta("cfg", `,"data":{"a":"1","b":"2"},"binaryData":{"c":"AQ=="}`), want: []any{"cfg", int64(3), "5m"}},
		{name: "empty", json: withMeta("empty", ""), want: []any{"empty", int64(0), "5m"}},
	})

	assertColumns(t, namespacePrinter, "Name|string|name|0", "Status|string||0", "Age|string||0")
	runCellCases(t, namespacePrinter, []cellCase{
		{name: "active", json: withMeta("demo", `,"status":{"phase":"Active"}`), want: []any{"demo", "Active", "5m"}},
		{name: "terminating", json: withMeta("old", `,"status":{"phase":"Terminating"}`), want: []any{"old", "Terminating", "5m"}},
		{name: "no status reads as the default Active", json: withMeta("new", ""), want: []any{"new", "Active", "5m"}},
		{name: "no creationTimestamp", json: `{"metadata":{"name":"x"}}`, want: []any{"x", "Active", "<unknown>"}},
	})

	assertColumns(t, secretPrinter, "Name|string|name|0", "Type|string||0", "Data|string||0", "Age|string||0")
	runCellCases(t, secretPrinter, []cellCase{
		{name: "tls", json: withMeta("cert", `,"type":"kubernetes.io/tls","data":{"tls.crt":"eA==","tls.key":"eQ=="}`), want: []any{"cert", "kubernetes.io/tls", int64(2), "5m"}},
		{name: "stringData is not counted, a missing type is Opaque", json: withMeta("s", `,"stringData":{"a":"b"}`), want: []any{"s", "Opaque", int64(0), "5m"}},
	})

	assertColumns(t, serviceAccountPrinter, "Name|string|name|0", "Age|string||0")
	runCellCases(t, serviceAccountPrinter, []cellCase{
		{name: "default", json: withMeta("default", `,"secrets":[{"name":"x"}]`), want: []any{"default", "5m"}},
	})
}

// TestCh01_Printers_PersistentVolumeClaim checks printPersistentVolumeClaim: the bound
// volume's capacity and access modes, the storage class (beta annotation first), and the
// defaults of a claim that is not bound yet.
func TestCh01_Printers_PersistentVolumeClaim(t *testing.T) {
	assertColumns(t, pvcPrinter,
		"Name|string|name|0", "Status|string||0", "Volume|string||0", "Capacity|string||0", "Access Modes|string||0",
		"StorageClass|string||0", "VolumeAttributesClass|string||0", "Age|string||0", "VolumeMode|string||1")
	runCellCases(t, pvcPrinter, []cellCase{
		{
			name: "bound",
			json: withMeta("data", `,"spec":{"volumeName":"pv-1","storageClassName":"standard","volumeMode":"Block",
				"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"5Gi"}}},
				"status":{"phase":"Bound","capacity":{"storage":"10Gi"},"accessModes":["ReadOnlyMany","ReadWriteOnce","ReadWriteOnce"]}`),
			want: []any{"data", "Bound", "pv-1", "10Gi", "RWO,ROX", "standard", "<unset>", "5m", "Block"},
		},
		{
			name: "pending without status, class from the beta annotation",
			json: `{"metadata":{"name":"p","creationTimestamp":"` + created + `","annotations":{"volume.beta.kubernetes.io/storage-class":"fast"}},
				"spec":{"storageClassName":"slow","volumeAttributesClassName":"gold","resources":{"requests":{"storage":"1Gi"}}}}`,
			want: []any{"p", "Pending", "", "", "", "fast", "gold", "5m", "Filesystem"},
		},
		{
			name: "bound volume without a reported capacity",
			json: withMeta("q", `,"spec":{"volumeName":"pv-2"},"status":{"phase":"Bound"}`),
			want: []any{"q", "Bound", "pv-2", "0", "", "", "<unset>", "5m", "Filesystem"},
		},
		{
			name: "terminating",
			json: `{"metadata":{"name":"gone","creationTimestamp":"` + created + `","deletionTimestamp":"` + ago(time.Second) + `"},"status":{"phase":"Bound"}}`,
			want: []any{"gone", "Terminating", "", "", "", "", "<unset>", "5m", "Filesystem"},
		},
	})
}

// TestCh01_Printers_Node checks printNode: the Ready condition, cordoning, roles from
// labels, and the wide columns from nodeInfo and addresses.
func TestCh01_Printers_Node(t *testing.T) {
	assertColumns(t, nodePrinter,
		"Name|string|name|0", "Status|string||0", "Roles|string||0", "Age|string||0", "Version|string||0",
		"Internal-IP|string||1", "External-IP|string||1", "OS-Image|string||1", "Kernel-Version|string||1", "Container-Runtime|string||1")
	runCellCases(t, nodePrinter, []cellCase{
		{
			name: "ready control plane",
			json: `{"metadata":{"name":"cp-1","creationTimestamp":"` + created + `","labels":{
				"node-role.kubernetes.io/control-plane":"","kubernetes.io/role":"master","node-role.kubernetes.io/":"x","kubernetes.io/os":"linux"}},
				"status":{"conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True"}],
				"addresses":[{"type":"Hostname","address":"cp-1"},{"type":"InternalIP","address":"192.168.0.2"},{"type":"InternalIP","address":"192.168.0.3"}],
				"nodeInfo":{"kubeletVersion":"v1.36.3","osImage":"Ubuntu 24.04 LTS","kernelVersion":"6.8.0","architecture":"amd64","containerRuntimeVersion":"containerd://2.1.0"}}}`,
			want: []any{"cp-1", "Ready", "control-plane,master", "5m", "v1.36.3", "192.168.0.2", "<none>", "Ubuntu 24.04 LTS", "6.8.0 (amd64)", "containerd://2.1.0"},
		},
		{
			name: "not ready and cordoned",
			json: withMeta("w-1", `,"spec":{"unschedulable":true},"status":{"conditions":[{"type":"Ready","status":"False"}],
				"addresses":[{"type":"ExternalIP","address":"203.0.113.9"}],"nodeInfo":{"kubeletVersion":"v1.35.0"}}`),
			want: []any{"w-1", "NotReady,SchedulingDisabled", "<none>", "5m", "v1.35.0", "<none>", "203.0.113.9", "<unknown>", "<unknown>", "<unknown>"},
		},
		{
			name: "Ready condition Unknown reads NotReady",
			json: withMeta("w-2", `,"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}`),
			want: []any{"w-2", "NotReady", "<none>", "5m", "", "<none>", "<none>", "<unknown>", "<unknown>", "<unknown>"},
		},
		{
			name: "no status",
			json: withMeta("w-3", ""),
			want: []any{"w-3", "Unknown", "<none>", "5m", "", "<none>", "<none>", "<unknown>", "<unknown>", "<unknown>"},
		},
	})
}
