package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of replication controllers, pod templates and controller revisions.
var (
	replicationControllerPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Desired", "integer", doc(coreV1+"ReplicationControllerSpec", "replicas")),
			column("Current", "integer", doc(coreV1+"ReplicationControllerStatus", "replicas")),
			column("Ready", "integer", doc(coreV1+"ReplicationControllerStatus", "readyReplicas")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(coreV1+"ReplicationControllerSpec", "selector")),
		},
		// printReplicationController: a missing replicas reads as 0, the selector is a map.
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			names, images := containerCells(o.obj("spec", "template"))
			return []any{
				o.name(), o.int("spec", "replicas"), o.int("status", "replicas"), o.int("status", "readyReplicas"),
				age(o, now), names, images, formatLabels(o.stringMap("spec", "selector")),
			}, nil
		},
	}

	podTemplatePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Containers", "string", containersDescription),
			column("Images", "string", imagesDescription),
			column("Pod Labels", "string", text("The labels for the pod template.")),
		},
		// printPodTemplate: no Age column.
		cells: func(o object, _ time.Time) ([]any, []api.TableRowCondition) {
			names, images := containerCells(o.obj("template"))
			return []any{o.name(), names, images, formatLabels(o.stringMap("template", "metadata", "labels"))}, nil
		},
	}

	controllerRevisionPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Controller", "string", text("Controller of the object")),
			column("Revision", "string", doc(appsV1+"ControllerRevision", "revision")),
			ageColumn(),
		},
		// printControllerRevision: the controller owner reference, else "<none>".
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			controller := "<none>"
			for _, ref := range o.objects("metadata", "ownerReferences") {
				if isController, _ := ref.boolean("controller"); isController {
					controller = formatResourceName(ref.str("apiVersion"), ref.str("kind"), ref.str("name"))
					break
				}
			}
			return []any{o.name(), controller, o.int("revision"), age(o, now)}, nil
		},
	}
)

// formatResourceName mirrors formatResourceName with its kind: the lower-cased "Kind.group"
// of the group-version, then "/name".
func formatResourceName(apiVersion, kind, name string) string {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	gk := kind
	if group != "" {
		gk += "." + group
	}
	if gk == "" {
		return name
	}
	return strings.ToLower(gk) + "/" + name
}
