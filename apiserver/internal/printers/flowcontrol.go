package printers

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of flowcontrol.apiserver.k8s.io: printFlowSchema and
// printPriorityLevelConfiguration.
var (
	flowSchemaPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("PriorityLevel", "string", doc("io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference", "name")),
			column("MatchingPrecedence", "string", doc("io.k8s.api.flowcontrol.v1.FlowSchemaSpec", "matchingPrecedence")),
			column("DistinguisherMethod", "string", doc("io.k8s.api.flowcontrol.v1.FlowSchemaSpec", "distinguisherMethod")),
			ageColumn(),
			column("MissingPL", "string", text("references a broken or non-existent PriorityLevelConfiguration")),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			spec := o.obj("spec")
			distinguisher := "<none>"
			if dm := spec.obj("distinguisherMethod"); dm != nil {
				distinguisher = dm.str("type")
			}
			missing := "?"
			for _, c := range o.objects("status", "conditions") {
				if c.str("type") == "Dangling" {
					missing = c.str("status")
					break
				}
			}
			return []any{o.name(), spec.str("priorityLevelConfiguration", "name"), spec.int("matchingPrecedence"), distinguisher, age(o, now), missing}, nil
		},
	}

	priorityLevelPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Type", "string", doc("io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec", "type")),
			column("NominalConcurrencyShares", "string", doc("io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration", "nominalConcurrencyShares")),
			column("Queues", "string", doc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queues")),
			column("HandSize", "string", doc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "handSize")),
			column("QueueLengthLimit", "string", doc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queueLengthLimit")),
			ageColumn(),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			spec := o.obj("spec")
			var shares, queues, hand, limit any = "<none>", "<none>", "<none>", "<none>"
			if lim := spec.obj("limited"); lim != nil {
				shares = lim.int("nominalConcurrencyShares")
				if q := lim.obj("limitResponse", "queuing"); q != nil {
					queues, hand, limit = q.int("queues"), q.int("handSize"), q.int("queueLengthLimit")
				}
			}
			return []any{o.name(), spec.str("type"), shares, queues, hand, limit, age(o, now)}, nil
		},
	}
)
