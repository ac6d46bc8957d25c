package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The apps/v1 printers. A missing spec.replicas reads as 1, the apps/v1 default.
var (
	deploymentPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Ready", "string", text("Number of the pod with ready state")),
			column("Up-to-date", "string", doc(appsV1+"DeploymentStatus", "updatedReplicas")),
			column("Available", "string", doc(appsV1+"DeploymentStatus", "availableReplicas")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(appsV1+"DeploymentSpec", "selector")),
		},
		cells: deploymentCells,
	}

	replicaSetPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Desired", "integer", doc(appsV1+"ReplicaSetSpec", "replicas")),
			column("Current", "integer", doc(appsV1+"ReplicaSetStatus", "replicas")),
			column("Ready", "integer", doc(appsV1+"ReplicaSetStatus", "readyReplicas")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(appsV1+"ReplicaSetSpec", "selector")),
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
		specs: []col{
			nameColumn(),
			column("Ready", "string", text("Number of the pod with ready state")),
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
		specs: []col{
			nameColumn(),
			column("Desired", "integer", doc(appsV1+"DaemonSetStatus", "desiredNumberScheduled")),
			column("Current", "integer", doc(appsV1+"DaemonSetStatus", "currentNumberScheduled")),
			column("Ready", "integer", doc(appsV1+"DaemonSetStatus", "numberReady")),
			column("Up-to-date", "integer", doc(appsV1+"DaemonSetStatus", "updatedNumberScheduled")),
			column("Available", "integer", doc(appsV1+"DaemonSetStatus", "numberAvailable")),
			column("Node Selector", "string", doc(coreV1+"PodSpec", "nodeSelector")),
			ageColumn(),
			wide("Containers", "string", containersDescription),
			wide("Images", "string", imagesDescription),
			wide("Selector", "string", doc(appsV1+"DaemonSetSpec", "selector")),
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
