package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the simpler core/v1 kinds. Pods, nodes, services and endpoints, and
// events have files of their own.
var (
	configMapPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Data", "string", doc(coreV1+"ConfigMap", "data")),
			ageColumn(),
		},
		// printConfigMap
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			n := len(o.obj("data")) + len(o.obj("binaryData"))
			return []any{o.name(), int64(n), age(o, now)}, nil
		},
	}

	namespacePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Status", "string", text("The status of the namespace")),
			ageColumn(),
		},
		// printNamespace; a missing phase reads as Active, the v1 default.
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			phase := o.str("status", "phase")
			if phase == "" {
				phase = "Active"
			}
			return []any{o.name(), phase, age(o, now)}, nil
		},
	}

	secretPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Type", "string", doc(coreV1+"Secret", "type")),
			column("Data", "string", doc(coreV1+"Secret", "data")),
			ageColumn(),
		},
		// printSecret; a missing type reads as Opaque, the v1 default.
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			typ := o.str("type")
			if typ == "" {
				typ = "Opaque"
			}
			return []any{o.name(), typ, int64(len(o.obj("data"))), age(o, now)}, nil
		},
	}

	serviceAccountPrinter = &Printer{
		specs: []col{nameColumn(), ageColumn()},
		// printServiceAccount
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), age(o, now)}, nil
		},
	}

	pvcPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Status", "string", doc(coreV1+"PersistentVolumeClaimStatus", "phase")),
			column("Volume", "string", doc(coreV1+"PersistentVolumeClaimSpec", "volumeName")),
			column("Capacity", "string", doc(coreV1+"PersistentVolumeClaimStatus", "capacity")),
			column("Access Modes", "string", doc(coreV1+"PersistentVolumeClaimStatus", "accessModes")),
			column("StorageClass", "string", text("StorageClass of the pvc")),
			column("VolumeAttributesClass", "string", text("VolumeAttributesClass of the pvc")),
			ageColumn(),
			wide("VolumeMode", "string", doc(coreV1+"PersistentVolumeClaimSpec", "volumeMode")),
		},
		cells: pvcCells,
	}
)

// pvcCells mirrors printPersistentVolumeClaim. Capacity and access modes come from the
// status only once a volume is bound; missing phase and volumeMode read as their v1
// defaults, Pending and Filesystem.
func pvcCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec, status := o.obj("spec"), o.obj("status")
	phase := status.str("phase")
	if phase == "" {
		phase = "Pending"
	}
	if o.deleting() {
		phase = "Terminating"
	}
	capacity, modes := "", ""
	if spec.str("volumeName") != "" {
		modes = accessModes(status.strings("accessModes"))
		// A zero resource.Quantity prints as "0".
		capacity = "0"
		if q, ok := status.quantity("capacity", "storage"); ok {
			capacity = q
		}
	}
	// The beta annotation wins over spec.storageClassName (GetPersistentVolumeClaimClass).
	class, ok := o.annotation("volume.beta.kubernetes.io/storage-class")
	if !ok {
		class = spec.str("storageClassName")
	}
	vac := "<unset>"
	if spec.has("volumeAttributesClassName") {
		vac = spec.str("volumeAttributesClassName")
	}
	mode := spec.str("volumeMode")
	if mode == "" {
		mode = "Filesystem"
	}
	return []any{o.name(), phase, spec.str("volumeName"), capacity, modes, class, vac, age(o, now), mode}, nil
}

// accessModes mirrors GetAccessModesAsString: each mode once, abbreviated, in a fixed order.
func accessModes(modes []string) string {
	has := map[string]bool{}
	for _, m := range modes {
		has[m] = true
	}
	var out []string
	for _, m := range []struct{ mode, short string }{
		{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"},
	} {
		if has[m.mode] {
			out = append(out, m.short)
		}
	}
	return strings.Join(out, ",")
}
