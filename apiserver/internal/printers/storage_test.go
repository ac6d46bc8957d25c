package printers

import "testing"

// TestCh01_Printers_StorageClass checks printStorageClass: both default annotations mark
// the class, and unset fields read as their defaults (a boolean cell in a string column).
func TestCh01_Printers_StorageClass(t *testing.T) {
	assertColumns(t, storageClassPrinter, "Name|string|name|0", "Provisioner|string||0", "ReclaimPolicy|string||0",
		"VolumeBindingMode|string||0", "AllowVolumeExpansion|string||0", "Age|string||0")
	runCellCases(t, storageClassPrinter, []cellCase{
		{
			name: "default, set",
			json: `{"metadata":{"name":"fast","creationTimestamp":"` + created + `","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}},
				"provisioner":"ebs.csi.aws.com","reclaimPolicy":"Retain","volumeBindingMode":"WaitForFirstConsumer","allowVolumeExpansion":true}`,
			want: []any{"fast (default)", "ebs.csi.aws.com", "Retain", "WaitForFirstConsumer", true, "5m"},
		},
		{
			name: "beta default annotation, unset fields",
			json: `{"metadata":{"name":"old","creationTimestamp":"` + created + `","annotations":{"storageclass.beta.kubernetes.io/is-default-class":"true"}},"provisioner":"p"}`,
			want: []any{"old (default)", "p", "Delete", "Immediate", false, "5m"},
		},
		{
			name: "annotation not true",
			json: `{"metadata":{"name":"x","creationTimestamp":"` + created + `","annotations":{"storageclass.kubernetes.io/is-default-class":"yes"}},"provisioner":"p"}`,
			want: []any{"x", "p", "Delete", "Immediate", false, "5m"},
		},
	})
}

// TestCh01_Printers_VolumeAttributesClass checks printVolumeAttributesClass.
func TestCh01_Printers_VolumeAttributesClass(t *testing.T) {
	assertColumns(t, volumeAttributesClassPrinter, "Name|string|name|0", "DriverName|string||0", "Age|string||0")
	runCellCases(t, volumeAttributesClassPrinter, []cellCase{
		{name: "gold", json: withMeta("gold", `,"driverName":"ebs.csi.aws.com"`), want: []any{"gold", "ebs.csi.aws.com", "5m"}},
	})
}

// TestCh01_Printers_VolumeAttachment checks printVolumeAttachment: the attacher column has
// the name format, and a missing PV or status reads empty and false.
func TestCh01_Printers_VolumeAttachment(t *testing.T) {
	assertColumns(t, volumeAttachmentPrinter, "Name|string|name|0", "Attacher|string|name|0", "PV|string||0",
		"Node|string||0", "Attached|boolean||0", "Age|string||0")
	runCellCases(t, volumeAttachmentPrinter, []cellCase{
		{
			name: "attached",
			json: withMeta("csi-1", `,"spec":{"attacher":"ebs.csi.aws.com","nodeName":"w1","source":{"persistentVolumeName":"pv-1"}},"status":{"attached":true}`),
			want: []any{"csi-1", "ebs.csi.aws.com", "pv-1", "w1", true, "5m"},
		},
		{
			name: "inline volume, no status",
			json: withMeta("csi-2", `,"spec":{"attacher":"a","nodeName":"w2","source":{"inlineVolumeSpec":{}}}`),
			want: []any{"csi-2", "a", "", "w2", false, "5m"},
		},
	})
}

// TestCh01_Printers_CSINode checks printCSINode: the number of drivers.
func TestCh01_Printers_CSINode(t *testing.T) {
	assertColumns(t, csiNodePrinter, "Name|string|name|0", "Drivers|integer||0", "Age|string||0")
	runCellCases(t, csiNodePrinter, []cellCase{
		{name: "two", json: withMeta("w1", `,"spec":{"drivers":[{"name":"a"},{"name":"b"}]}`), want: []any{"w1", int64(2), "5m"}},
		{name: "none", json: withMeta("w2", `,"spec":{"drivers":null}`), want: []any{"w2", int64(0), "5m"}},
	})
}

// TestCh01_Printers_CSIDriver checks printCSIDriver: the defaults of unset booleans, token
// audiences or <unset>, modes or <none>.
func TestCh01_Printers_CSIDriver(t *testing.T) {
	assertColumns(t, csiDriverPrinter, "Name|string|name|0", "AttachRequired|boolean||0", "PodInfoOnMount|boolean||0",
		"StorageCapacity|boolean||0", "TokenRequests|string||0", "RequiresRepublish|boolean||0", "Modes|string||0", "Age|string||0")
	runCellCases(t, csiDriverPrinter, []cellCase{
		{
			name: "secrets store",
			json: withMeta("secrets-store.csi.k8s.io", `,"spec":{"attachRequired":false,"podInfoOnMount":true,"requiresRepublish":true,
				"tokenRequests":[{"audience":"vault"},{"audience":"aws"}],"volumeLifecycleModes":["Ephemeral","Persistent"]}`),
			want: []any{"secrets-store.csi.k8s.io", false, true, false, "vault,aws", true, "Ephemeral,Persistent", "5m"},
		},
		{
			name: "nothing set",
			json: withMeta("bare", `,"spec":{"tokenRequests":[]}`),
			want: []any{"bare", true, false, false, "<unset>", false, "<none>", "5m"},
		},
	})
}

// TestCh01_Printers_CSIStorageCapacity checks that CSIStorageCapacity prints with the
// default convertor, as its storage does upstream.
func TestCh01_Printers_CSIStorageCapacity(t *testing.T) {
	p := For("storage.k8s.io", "CSIStorageCapacity", true)
	assertColumns(t, p, "Name|string|name|0", "Created At|date||0")
	runCellCases(t, p, []cellCase{
		{name: "capacity", json: withMeta("csisc-1", `,"storageClassName":"fast","capacity":"100Gi"`), want: []any{"csisc-1", created}},
	})
}
