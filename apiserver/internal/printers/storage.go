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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Provisioner", "string", "The volume plugin or CSI driver that provisions volumes of this class."),
			column("ReclaimPolicy", "string", "What happens to a provisioned volume when its claim goes: Delete or Retain."),
			column("VolumeBindingMode", "string", "When volumes are provisioned and bound: Immediate or WaitForFirstConsumer."),
			// A string column with a boolean cell, as upstream.
			column("AllowVolumeExpansion", "string", "Whether a claim of this class may grow."),
			ageColumn(),
		},
		cells: storageClassCells,
	}

	volumeAttributesClassPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("DriverName", "string", "The CSI driver the attributes are for."),
			ageColumn(),
		},
		// printVolumeAttributesClass
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("driverName"), age(o, now)}, nil
		},
	}

	volumeAttachmentPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Attacher", Type: "string", Format: "name", Description: "The CSI driver or volume plugin that attaches the volume."},
			column("PV", "string", "The persistent volume to attach."),
			column("Node", "string", "The node to attach it to."),
			column("Attached", "boolean", "Whether the volume is attached."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Drivers", "integer", "How many CSI drivers are registered on the node."),
			ageColumn(),
		},
		// printCSINode
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), int64(len(o.list("spec", "drivers"))), age(o, now)}, nil
		},
	}

	csiDriverPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("AttachRequired", "boolean", "Whether volumes of the driver need an attach step."),
			column("PodInfoOnMount", "boolean", "Whether the driver is told about the pod on mount."),
			column("StorageCapacity", "boolean", "Whether the scheduler takes the driver's storage capacity into account."),
			column("TokenRequests", "string", "The audiences of the service account tokens the driver receives."),
			column("RequiresRepublish", "boolean", "Whether the driver wants its volumes mounted again periodically."),
			column("Modes", "string", "The volume lifecycle modes the driver supports."),
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
