package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The apps/v1 printers. A missing spec.replicas reads as 1, the apps/v1 default.
var (
	deploymentPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Ready", "string", "How many of the deployment's pods are ready, out of how many it wants."),
			column("Up-to-date", "string", "How many pods already run the latest pod template."),
			column("Available", "string", "How many pods have been ready for at least minReadySeconds."),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", "The label query over the pods the deployment manages."),
		},
		cells: deploymentCells,
	}

	replicaSetPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Desired", "integer", "How many pods the replica set wants."),
			column("Current", "integer", "How many pods the replica set has."),
			column("Ready", "integer", "How many of its pods are ready."),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", "The label query over the pods the replica set manages."),
		},
		// printReplicaSet
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			names, images := containerCells(o.obj("spec", "template"))
			return []any{
				o.name(), o.intOr(1, "spec", "replicas"), o.int("status", "replicas"), o.int("status", "readyReplicas"),
				age(o, now), names, images, formatLabelSelector(o.obj("spec", "selector")),
			}, nil
		},
	}

	statefulSetPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Ready", "string", "How many of the stateful set's pods are ready, out of how many it wants."),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
		},
		// printStatefulSet
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			names, images := containerCells(o.obj("spec", "template"))
			return []any{o.name(), ratio(o.int("status", "readyReplicas"), o.intOr(1, "spec", "replicas")), age(o, now), names, images}, nil
		},
	}

	daemonSetPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Desired", "integer", "How many nodes should run the daemon pod."),
			column("Current", "integer", "How many nodes run at least one daemon pod."),
			column("Ready", "integer", "How many nodes run a ready daemon pod."),
			column("Up-to-date", "integer", "How many nodes run the latest pod template."),
			column("Available", "integer", "How many nodes run a daemon pod that has been ready for minReadySeconds."),
			column("Node Selector", "string", "The node labels a node needs to run the daemon pod."),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", "The label query over the pods the daemon set manages."),
		},
		// printDaemonSet
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			status, template := o.obj("status"), o.obj("spec", "template")
			names, images := containerCells(template)
			return []any{
				o.name(), status.int("desiredNumberScheduled"), status.int("currentNumberScheduled"),
				status.int("numberReady"), status.int("updatedNumberScheduled"), status.int("numberAvailable"),
				formatLabels(template.stringMap("spec", "nodeSelector")), age(o, now),
				names, images, formatLabelSelector(o.obj("spec", "selector")),
			}, nil
		},
	}
)

// deploymentCells mirrors printDeployment. Unlike the other workloads its selector cell is
// the bare selector text: empty for none, "<invalid>" for a bad one.
func deploymentCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	status := o.obj("status")
	names, images := containerCells(o.obj("spec", "template"))
	selector := "<invalid>"
	if s, err := selectorOf(o.obj("spec", "selector")); err == nil {
		selector = s.String()
	}
	return []any{
		o.name(), ratio(status.int("readyReplicas"), o.intOr(1, "spec", "replicas")),
		status.int("updatedReplicas"), status.int("availableReplicas"), age(o, now),
		names, images, selector,
	}, nil
}

// ratio is "have/want".
func ratio(have, want int64) string {
	return strconv.FormatInt(have, 10) + "/" + strconv.FormatInt(want, 10)
}
