package printers

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of flowcontrol.apiserver.k8s.io: printFlowSchema and
// printPriorityLevelConfiguration.
var (
	flowSchemaPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("PriorityLevel", "string", "The priority level the matching requests go to."),
			column("MatchingPrecedence", "string", "The order the schema is tried in: lower first."),
			column("DistinguisherMethod", "string", "How the matching requests are split into flows."),
			ageColumn(),
			column("MissingPL", "string", "Whether the referenced priority level is missing (the Dangling condition)."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Type", "string", "Limited, or Exempt from limits."),
			column("NominalConcurrencyShares", "string", "The level's share of the server's concurrency."),
			column("Queues", "string", "How many queues the level has."),
			column("HandSize", "string", "How many queues a flow is shuffle-sharded over."),
			column("QueueLengthLimit", "string", "How many requests a queue holds."),
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
