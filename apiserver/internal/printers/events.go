package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// eventColumns are the columns of both Event kinds: kube-apiserver prints events.k8s.io/v1
// Events through the core Event's printer, after converting them.
var eventColumns = []col{
	column("Last Seen", "string", doc(coreV1+"Event", "lastTimestamp")),
	column("Type", "string", doc(coreV1+"Event", "type")),
	column("Reason", "string", doc(coreV1+"Event", "reason")),
	column("Object", "string", doc(coreV1+"Event", "involvedObject")),
	wide("Subobject", "string", doc(coreV1+"ObjectReference", "fieldPath")),
	wide("Source", "string", doc(coreV1+"Event", "source")),
	column("Message", "string", doc(coreV1+"Event", "message")),
	wide("First Seen", "string", doc(coreV1+"Event", "firstTimestamp")),
	wide("Count", "string", doc(coreV1+"Event", "count")),
	{def: api.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Priority: 1}, desc: doc(objectMeta, "name")},
}

// eventFields names the members that differ between core/v1 and events.k8s.io/v1 Events;
// the v1 to internal conversion of events.k8s.io maps each onto the core one.
type eventFields struct {
	regarding, message, source, firstTimestamp, lastTimestamp, count string
}

var (
	eventPrinter = &Printer{specs: eventColumns, cells: eventCells(eventFields{
		regarding: "involvedObject", message: "message", source: "source",
		firstTimestamp: "firstTimestamp", lastTimestamp: "lastTimestamp", count: "count",
	})}
	eventsV1Printer = &Printer{specs: eventColumns, cells: eventCells(eventFields{
		regarding: "regarding", message: "note", source: "deprecatedSource",
		firstTimestamp: "deprecatedFirstTimestamp", lastTimestamp: "deprecatedLastTimestamp", count: "deprecatedCount",
	})}
)

// eventCells mirrors printEvent. First seen falls back to eventTime and last seen to first
// seen; a series supplies last seen and the count; a singleton event counts 1.
func eventCells(f eventFields) func(o object, now time.Time) ([]any, []api.TableRowCondition) {
	return func(o object, now time.Time) ([]any, []api.TableRowCondition) {
		first := o.since(now, f.firstTimestamp)
		if !o.hasTime(f.firstTimestamp) {
			first = o.since(now, "eventTime")
		}
		last := first
		if o.hasTime(f.lastTimestamp) {
			last = o.since(now, f.lastTimestamp)
		}
		count := o.int(f.count)
		if o.has("series") {
			last = o.since(now, "series", "lastObservedTime")
			count = o.int("series", "count")
		} else if count == 0 {
			count = 1
		}
		ref := o.obj(f.regarding)
		target := strings.ToLower(ref.str("kind"))
		if name := ref.str("name"); name != "" {
			target += "/" + name
		}
		source := eventSource(
			firstNonEmpty(o.str(f.source, "component"), o.str("reportingController")),
			firstNonEmpty(o.str(f.source, "host"), o.str("reportingInstance")))
		return []any{
			last, o.str("type"), o.str("reason"), target, ref.str("fieldPath"), source,
			strings.TrimSpace(o.str(f.message)), first, count, o.name(),
		}, nil
	}
}

// eventSource mirrors formatEventSourceComponentInstance: "component, instance", or the
// component alone.
func eventSource(component, instance string) string {
	if instance == "" {
		return component
	}
	return component + ", " + instance
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
