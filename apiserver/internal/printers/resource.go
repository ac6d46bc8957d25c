package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The resource.k8s.io/v1 printers.
var (
	// deviceClassPrinter mirrors printDeviceClass, and resourceClaimTemplatePrinter
	// printResourceClaimTemplate: the name and the age only.
	deviceClassPrinter           = nameAgePrinter()
	resourceClaimTemplatePrinter = nameAgePrinter()

	resourceClaimPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("State", "string", text("A summary of the current state (allocated, pending, reserved, etc.).")),
			ageColumn(),
		},
		// printResourceClaim
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), resourceClaimState(o), age(o, now)}, nil
		},
	}

	resourceSlicePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Node", "string", doc("io.k8s.api.resource.v1.ResourceSliceSpec", "nodeName")),
			column("Driver", "string", doc("io.k8s.api.resource.v1.ResourceSliceSpec", "driver")),
			column("Pool", "string", doc("io.k8s.api.resource.v1.ResourcePool", "name")),
			ageColumn(),
		},
		// printResourceSlice
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("spec", "nodeName"), o.str("spec", "driver"), o.str("spec", "pool", "name"), age(o, now)}, nil
		},
	}
)

// nameAgePrinter is the layout of the printers with nothing to show but the name and age.
func nameAgePrinter() *Printer {
	return &Printer{
		specs: []col{nameColumn(), ageColumn()},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), age(o, now)}, nil
		},
	}
}

// resourceClaimState mirrors resourceClaimState: deleted, then pending (when not
// allocated and not deleted) or allocated, and reserved when something uses it.
func resourceClaimState(o object) string {
	var states []string
	if o.deleting() {
		states = append(states, "deleted")
	}
	switch {
	case !o.has("status", "allocation"):
		if !o.deleting() {
			states = append(states, "pending")
		}
	default:
		states = append(states, "allocated")
		if len(o.list("status", "reservedFor")) > 0 {
			states = append(states, "reserved")
		}
	}
	return strings.Join(states, ",")
}
