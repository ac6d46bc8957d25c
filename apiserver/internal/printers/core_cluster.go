package printers

import (
	"sort"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the cluster-level core/v1 kinds: persistent volumes, resource quotas and
// component statuses. (LimitRanges have no printer upstream: they get the default
// convertor's Name and Created At.)
var (
	persistentVolumePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Capacity", "string", doc(coreV1+"PersistentVolumeSpec", "capacity")),
			column("Access Modes", "string", doc(coreV1+"PersistentVolumeSpec", "accessModes")),
			column("Reclaim Policy", "string", doc(coreV1+"PersistentVolumeSpec", "persistentVolumeReclaimPolicy")),
			column("Status", "string", doc(coreV1+"PersistentVolumeStatus", "phase")),
			column("Claim", "string", doc(coreV1+"PersistentVolumeSpec", "claimRef")),
			column("StorageClass", "string", text("StorageClass of the pv")),
			column("VolumeAttributesClass", "string", text("VolumeAttributesClass of the pv")),
			column("Reason", "string", doc(coreV1+"PersistentVolumeStatus", "reason")),
			ageColumn(),
			wide("VolumeMode", "string", doc(coreV1+"PersistentVolumeSpec", "volumeMode")),
		},
		cells: persistentVolumeCells,
	}

	resourceQuotaPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Request", "string", text("Request represents a minimum amount of cpu/memory that a container may consume.")),
			column("Limit", "string", text("Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.")),
			ageColumn(),
		},
		cells: resourceQuotaCells,
	}

	componentStatusPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Status", "string", text("Status of the component conditions")),
			column("Message", "string", text("Message of the component conditions")),
			column("Error", "string", text("Error of the component conditions")),
		},
		// printComponentStatus: the Healthy condition decides.
		cells: func(o object, _ time.Time) ([]any, []api.TableRowCondition) {
			status, msg, errText := "Unknown", "", ""
			for _, c := range o.objects("conditions") {
				if c.str("type") == "Healthy" {
					status = "Unhealthy"
					if c.str("status") == "True" {
						status = "Healthy"
					}
					msg, errText = c.str("message"), c.str("error")
					break
				}
			}
			return []any{o.name(), status, msg, errText}, nil
		},
	}
)

// persistentVolumeCells mirrors printPersistentVolume: a missing capacity prints as "0", a
// missing volume mode or attributes class as "<unset>".
func persistentVolumeCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec, status := o.obj("spec"), o.obj("status")
	claim := ""
	if ref := spec.obj("claimRef"); ref != nil {
		claim = ref.str("namespace") + "/" + ref.str("name")
	}
	capacity := "0"
	if q, ok := spec.quantity("capacity", "storage"); ok {
		capacity = q
	}
	phase := status.str("phase")
	if o.deleting() {
		phase = "Terminating"
	}
	class, ok := o.annotation("volume.beta.kubernetes.io/storage-class")
	if !ok {
		class = spec.str("storageClassName")
	}
	mode, vac := "<unset>", "<unset>"
	if spec.has("volumeMode") {
		mode = spec.str("volumeMode")
	}
	if spec.has("volumeAttributesClassName") {
		vac = spec.str("volumeAttributesClassName")
	}
	return []any{o.name(), capacity, accessModes(spec.strings("accessModes")), spec.str("persistentVolumeReclaimPolicy"),
		phase, claim, class, vac, status.str("reason"), age(o, now), mode}, nil
}

// resourceQuotaCells mirrors printResourceQuota: "resource: used/hard" for each resource of
// status.hard in name order, the limits.* ones in the Limit column.
func resourceQuotaCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	hard, used := o.obj("status", "hard"), o.obj("status", "used")
	names := make([]string, 0, len(hard))
	for n := range hard {
		names = append(names, n)
	}
	sort.Strings(names)
	var request, limit []string
	for _, n := range names {
		u, ok := used.quantity(n)
		if !ok {
			u = "0"
		}
		h, ok := hard.quantity(n)
		if !ok {
			h = "0"
		}
		cell := n + ": " + u + "/" + h
		if prefix, _, found := strings.Cut(n, "."); found && prefix == "limits" {
			limit = append(limit, cell)
		} else {
			request = append(request, cell)
		}
	}
	return []any{o.name(), strings.Join(request, ", "), strings.Join(limit, ", "), age(o, now)}, nil
}
