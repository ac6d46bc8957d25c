package workqueue

import (
	"fmt"
	"log/slog"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// traceComponent is the component attribute of every workqueue hop.
const traceComponent = "workqueue"

// Extra trace attributes: what an add or done did, a requeue's delay, the count a forget
// cleared, whether a shutdown drains, and the queue's Name when it has one.
const (
	attrResult   = "result"
	attrDelay    = "delay"
	attrRequeues = "requeues"
	attrDrain    = "drain"
	attrQueue    = "queue"
)

// hop logs one workqueue hop. Callers guard it with trace.Enabled, so a disabled trace never
// formats the item nor builds the extra attributes: the variadic slice would escape.
func hop(l *slog.Logger, name, op, key string, extra ...slog.Attr) {
	if name != "" {
		extra = append(extra, slog.String(attrQueue, name))
	}
	trace.Hop(l, traceComponent, op, key, "", extra...)
}

// traceKey is how an item appears in a trace: printed with fmt, like klog prints it.
func traceKey[T any](item T) string {
	return fmt.Sprint(item)
}
