package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the policy and scheduling.k8s.io kinds.
var (
	podDisruptionBudgetPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Min Available", "string", text("The minimum number of pods that must be available.")),
			column("Max Unavailable", "string", text("The maximum number of pods that may be unavailable.")),
			column("Allowed Disruptions", "integer", text("Calculated number of pods that may be disrupted at this time.")),
			ageColumn(),
		},
		// printPodDisruptionBudget: an unset bound reads "N/A".
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), intOrString(o, "N/A", "spec", "minAvailable"), intOrString(o, "N/A", "spec", "maxUnavailable"),
				o.int("status", "disruptionsAllowed"), age(o, now)}, nil
		},
	}

	priorityClassPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Value", "integer", doc("io.k8s.api.scheduling.v1.PriorityClass", "value")),
			column("Global-Default", "boolean", doc("io.k8s.api.scheduling.v1.PriorityClass", "globalDefault")),
			ageColumn(),
			column("PreemptionPolicy", "string", doc("io.k8s.api.scheduling.v1.PriorityClass", "preemptionPolicy")),
		},
		// printPriorityClass
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			def, _ := o.boolean("globalDefault")
			return []any{o.name(), o.int("value"), def, age(o, now), o.str("preemptionPolicy")}, nil
		},
	}
)

// intOrString prints an IntOrString member as IntOrString.String does, or none when unset.
func intOrString(o object, none string, path ...string) string {
	switch v := o.get(path...).(type) {
	case string:
		return v
	case nil:
		return none
	}
	if n, ok := o.integer(path...); ok {
		return strconv.FormatInt(n, 10)
	}
	return none
}
