package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the policy and scheduling.k8s.io kinds.
var (
	podDisruptionBudgetPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Min Available", "string", "How many of the selected pods must stay available, as a count or a percentage."),
			column("Max Unavailable", "string", "How many of the selected pods may be unavailable, as a count or a percentage."),
			column("Allowed Disruptions", "integer", "How many pods may be disrupted now, as the disruption controller computed it."),
			ageColumn(),
		},
		// printPodDisruptionBudget: an unset bound reads "N/A".
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), intOrString(o, "N/A", "spec", "minAvailable"), intOrString(o, "N/A", "spec", "maxUnavailable"),
				o.int("status", "disruptionsAllowed"), age(o, now)}, nil
		},
	}

	priorityClassPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Value", "integer", "The priority of the pods that name the class."),
			column("Global-Default", "boolean", "Whether pods that name no class get this one."),
			ageColumn(),
			column("PreemptionPolicy", "string", "Whether the class's pods may preempt lower-priority ones: PreemptLowerPriority or Never."),
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
