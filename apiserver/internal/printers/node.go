package printers

import (
	"slices"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

var nodePrinter = &Printer{
	specs: []col{
		nameColumn(),
		column("Status", "string", text("The status of the node")),
		column("Roles", "string", text("The roles of the node")),
		ageColumn(),
		column("Version", "string", doc(coreV1+"NodeSystemInfo", "kubeletVersion")),
		wide("Internal-IP", "string", doc(coreV1+"NodeStatus", "addresses")),
		wide("External-IP", "string", doc(coreV1+"NodeStatus", "addresses")),
		wide("OS-Image", "string", doc(coreV1+"NodeSystemInfo", "osImage")),
		wide("Kernel-Version", "string", doc(coreV1+"NodeSystemInfo", "kernelVersion")),
		wide("Container-Runtime", "string", doc(coreV1+"NodeSystemInfo", "containerRuntimeVersion")),
	},
	cells: nodeCells,
}

// nodeCells mirrors printNode.
func nodeCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	status, info := o.obj("status"), o.obj("status", "nodeInfo")
	// Only the Ready condition counts; the last one of that type wins, as printNode's map
	// of conditions keeps the last.
	state := "Unknown"
	for _, c := range status.objects("conditions") {
		if c.str("type") == "Ready" {
			state = "NotReady"
			if c.str("status") == "True" {
				state = "Ready"
			}
		}
	}
	if unschedulable, _ := o.boolean("spec", "unschedulable"); unschedulable {
		state += ",SchedulingDisabled"
	}
	osImage, kernel, runtime := info.str("osImage"), info.str("kernelVersion"), info.str("containerRuntimeVersion")
	if osImage == "" {
		osImage = "<unknown>"
	}
	if kernel == "" {
		kernel = "<unknown>"
	}
	if runtime == "" {
		runtime = "<unknown>"
	}
	if arch := info.str("architecture"); arch != "" {
		kernel += " (" + arch + ")"
	}
	return []any{
		o.name(), state, orNone(strings.Join(nodeRoles(o.labels()), ",")), age(o, now), info.str("kubeletVersion"),
		nodeAddress(status, "InternalIP"), nodeAddress(status, "ExternalIP"), osImage, kernel, runtime,
	}, nil
}

// nodeRoles mirrors findNodeRoles: each node-role.kubernetes.io/<role> label key and the
// value of a kubernetes.io/role label, sorted and without repeats.
func nodeRoles(labels map[string]string) []string {
	var roles []string
	for k, v := range labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
				roles = append(roles, role)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	slices.Sort(roles)
	return slices.Compact(roles)
}

// nodeAddress mirrors getNodeInternalIP and getNodeExternalIP: the first address of the
// type, or "<none>".
func nodeAddress(status object, typ string) string {
	for _, a := range status.objects("addresses") {
		if a.str("type") == typ {
			return a.str("address")
		}
	}
	return "<none>"
}
