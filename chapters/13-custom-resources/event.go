package ch13

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The event types and reasons of sample-controller (controller.go). Their messages are the
// controller's own, in sync.go.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
	// SuccessSynced is the reason of the event written after every successful sync.
	SuccessSynced = "Synced"
	// ErrResourceExists is the reason of the warning written when the Deployment a Foo names
	// exists and another owner (or none) controls it.
	ErrResourceExists = "ErrResourceExists"
)

// Recorder is a tiny stand-in for client-go's record.EventRecorder (tools/record/event.go):
// Event writes one core/v1 Event about an object, synchronously, through the dynamic client.
// The real recorder queues events, writes them in the background and folds repeats into one
// Event with a count; ours writes every event as its own object, so a test can read them
// back in order. A failed write is reported to onError and never fails the caller, as with
// the real recorder; once ctx has ended it is dropped without a report.
type Recorder struct {
	client    dynamic.Interface
	component string
	onError   func(error)
	logger    *slog.Logger

	mu  sync.Mutex
	seq int
}

// NewRecorder is ours: a Recorder whose events say they come from component ("source" and
// "reportingComponent" of the Event).
func NewRecorder(client dynamic.Interface, component string, onError func(error), logger *slog.Logger) *Recorder {
	if onError == nil {
		onError = func(error) {}
	}
	return &Recorder{client: client, component: component, onError: onError, logger: logger}
}

// Event mirrors EventRecorder.Event: record that reason happened to obj.
func (r *Recorder) Event(ctx context.Context, obj *api.Unstructured, eventType, reason, message string) {
	r.mu.Lock()
	r.seq++
	seq := r.seq
	r.mu.Unlock()
	// The real recorder names events "<object>.<UnixNano in hex>"; a counter keeps ours
	// unique inside a synctest bubble, where the clock stands still between syncs.
	name := fmt.Sprintf("%s.%016x", obj.GetName(), seq)
	now := api.Time{Time: time.Now().UTC().Truncate(time.Second)}
	ev := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Event",
		"metadata":   map[string]any{"name": name, "namespace": obj.GetNamespace()},
		"involvedObject": map[string]any{
			"apiVersion":      obj.GetAPIVersion(),
			"kind":            obj.GetKind(),
			"namespace":       obj.GetNamespace(),
			"name":            obj.GetName(),
			"uid":             obj.GetUID(),
			"resourceVersion": obj.GetResourceVersion(),
		},
		"type":               eventType,
		"reason":             reason,
		"message":            message,
		"source":             map[string]any{"component": r.component},
		"reportingComponent": r.component,
		"firstTimestamp":     now.UTC().Format(time.RFC3339),
		"lastTimestamp":      now.UTC().Format(time.RFC3339),
		"count":              int64(1),
	}}
	if trace.Enabled(r.logger) {
		trace.Hop(r.logger, traceComponent, "event", obj.GetNamespace()+"/"+obj.GetName(), obj.GetResourceVersion(),
			slog.String("eventType", eventType), slog.String("reason", reason))
	}
	// A controller shutting down (ctx ended) loses the event quietly, as the real broadcaster
	// drops what is queued when it stops.
	if _, err := r.client.Resource(EventGVR).Namespace(obj.GetNamespace()).Create(ctx, ev, api.CreateOptions{}); err != nil && ctx.Err() == nil {
		r.onError(fmt.Errorf("recording event %s %s on %s/%s: %w", eventType, reason, obj.GetNamespace(), obj.GetName(), err))
	}
}
