package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The storage.k8s.io/v1 printers. CSIStorageCapacity has none upstream: its storage uses
// the default convertor (createdAtPrinter).
var (
	storageClassPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Provisioner", "string", doc(storageV1+"StorageClass", "provisioner")),
			column("ReclaimPolicy", "string", doc(storageV1+"StorageClass", "reclaimPolicy")),
			column("VolumeBindingMode", "string", doc(storageV1+"StorageClass", "volumeBindingMode")),
			// A string column with a boolean cell, as upstream.
			column("AllowVolumeExpansion", "string", doc(storageV1+"StorageClass", "allowVolumeExpansion")),
			ageColumn(),
		},
		cells: storageClassCells,
	}

	volumeAttributesClassPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("DriverName", "string", doc(storageV1+"VolumeAttributesClass", "driverName")),
			ageColumn(),
		},
		// printVolumeAttributesClass
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("driverName"), age(o, now)}, nil
		},
	}

	volumeAttachmentPrinter = &Printer{
		specs: []col{
			nameColumn(),
			{def: api.TableColumnDefinition{Name: "Attacher", Type: "string", Format: "name"}, desc: doc(storageV1+"VolumeAttachmentSpec", "attacher")},
			column("PV", "string", doc(storageV1+"VolumeAttachmentSource", "persistentVolumeName")),
			column("Node", "string", doc(storageV1+"VolumeAttachmentSpec", "nodeName")),
			column("Attached", "boolean", doc(storageV1+"VolumeAttachmentStatus", "attached")),
			ageColumn(),
		},
		// printVolumeAttachment
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			attached, _ := o.boolean("status", "attached")
			return []any{o.name(), o.str("spec", "attacher"), o.str("spec", "source", "persistentVolumeName"),
				o.str("spec", "nodeName"), attached, age(o, now)}, nil
		},
	}

	csiNodePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Drivers", "integer", text("Drivers indicates the number of CSI drivers registered on the node")),
			ageColumn(),
		},
		// printCSINode
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), int64(len(o.list("spec", "drivers"))), age(o, now)}, nil
		},
	}

	csiDriverPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("AttachRequired", "boolean", doc(storageV1+"CSIDriverSpec", "attachRequired")),
			column("PodInfoOnMount", "boolean", doc(storageV1+"CSIDriverSpec", "podInfoOnMount")),
			column("StorageCapacity", "boolean", doc(storageV1+"CSIDriverSpec", "storageCapacity")),
			column("TokenRequests", "string", doc(storageV1+"CSIDriverSpec", "tokenRequests")),
			column("RequiresRepublish", "boolean", doc(storageV1+"CSIDriverSpec", "requiresRepublish")),
			column("Modes", "string", doc(storageV1+"CSIDriverSpec", "volumeLifecycleModes")),
			ageColumn(),
		},
		cells: csiDriverCells,
	}
)

// storageClassCells mirrors printStorageClass: the default class is marked, and an unset
// policy, mode or expansion reads as its default.
func storageClassCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	name := o.name()
	if isDefaultStorageClass(o) {
		name += " (default)"
	}
	reclaim, ok := o.get("reclaimPolicy").(string)
	if !ok {
		reclaim = "Delete"
	}
	binding, ok := o.get("volumeBindingMode").(string)
	if !ok {
		binding = "Immediate"
	}
	expand, _ := o.boolean("allowVolumeExpansion")
	return []any{name, o.str("provisioner"), reclaim, binding, expand, age(o, now)}, nil
}

// isDefaultStorageClass mirrors IsDefaultAnnotation: the GA annotation or the beta one.
func isDefaultStorageClass(o object) bool {
	for _, key := range []string{"storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"} {
		if v, _ := o.annotation(key); v == "true" {
			return true
		}
	}
	return false
}

// csiDriverCells mirrors printCSIDriver: unset booleans read as their defaults, token
// requests print their audiences, modes <none> when empty. An empty tokenRequests is
// <unset> too: the real server prints objects read back from protobuf, where an empty list
// and none are the same.
func csiDriverCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec := o.obj("spec")
	boolOr := func(def bool, key string) bool {
		if b, ok := spec.boolean(key); ok {
			return b
		}
		return def
	}
	tokens := "<unset>"
	if len(spec.list("tokenRequests")) > 0 {
		var audiences []string
		for _, t := range spec.objects("tokenRequests") {
			audiences = append(audiences, t.str("audience"))
		}
		tokens = strings.Join(audiences, ",")
	}
	modes := strings.Join(spec.strings("volumeLifecycleModes"), ",")
	if modes == "" {
		modes = "<none>"
	}
	return []any{
		o.name(), boolOr(true, "attachRequired"), boolOr(false, "podInfoOnMount"), boolOr(false, "storageCapacity"),
		tokens, boolOr(false, "requiresRepublish"), modes, age(o, now),
	}, nil
}
