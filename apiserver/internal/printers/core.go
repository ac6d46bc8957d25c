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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Data", "string", "How many keys the data and binaryData maps hold together."),
			ageColumn(),
		},
		// printConfigMap
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			n := len(o.obj("data")) + len(o.obj("binaryData"))
			return []any{o.name(), int64(n), age(o, now)}, nil
		},
	}

	namespacePrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Status", "string", "The phase of the namespace: Active, or Terminating while it is being deleted."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Type", "string", "What the secret holds, which decides the keys it must have, e.g. Opaque or kubernetes.io/tls."),
			column("Data", "string", "How many keys the data map holds."),
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
		columns: []api.TableColumnDefinition{nameColumn(), ageColumn()},
		// printServiceAccount
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), age(o, now)}, nil
		},
	}

	pvcPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Status", "string", "The phase of the claim: Pending, Bound or Lost; Terminating once deletion has begun."),
			column("Volume", "string", "The persistent volume bound to the claim."),
			column("Capacity", "string", "The storage the bound volume provides."),
			column("Access Modes", "string", "The access modes of the bound volume: RWO, ROX, RWX, RWOP."),
			column("StorageClass", "string", "The storage class the claim asks for."),
			column("VolumeAttributesClass", "string", "The volume attributes class the claim asks for."),
			ageColumn(),
			wide("VolumeMode", "string", "Whether the volume is a filesystem or a raw block device."),
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
