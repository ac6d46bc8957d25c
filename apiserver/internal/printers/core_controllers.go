package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of replication controllers, pod templates and controller revisions.
var (
	replicationControllerPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Desired", "integer", "How many pods the controller wants."),
			column("Current", "integer", "How many pods the controller has."),
			column("Ready", "integer", "How many of its pods are ready."),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", "The labels a pod needs to be counted as one of the controller's."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Containers", "string", containersDescription),
			column("Images", "string", imagesDescription),
			column("Pod Labels", "string", "The labels of the pods made from the template."),
		},
		// printPodTemplate: no Age column.
		cells: func(o object, _ time.Time) ([]any, []api.TableRowCondition) {
			names, images := containerCells(o.obj("template"))
			return []any{o.name(), names, images, formatLabels(o.stringMap("template", "metadata", "labels"))}, nil
		},
	}

	controllerRevisionPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Controller", "string", "The object that owns the revision, as kind.group/name."),
			column("Revision", "string", "The revision number of the state the object holds."),
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
