package app

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The event types of corev1.EventTypeNormal and corev1.EventTypeWarning.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

var coreEvents = api.GroupVersionResource{Version: "v1", Resource: "events"}

// Recorder mirrors record.EventRecorder of client-go tools/record, without aggregation or
// rate limiting: each call writes one core/v1 Event (contract 4). On the server core/v1 and
// events.k8s.io/v1 Events are one store, so kubectl describe and an events.k8s.io reader both
// see it.
type Recorder struct {
	client *dynamic.DynamicClient
	logger *slog.Logger
	now    func() time.Time // time.Now unless a test sets it
	seq    atomic.Int64     // keeps names unique when the clock stands still (virtual time)
}

// Eventf mirrors EventRecorder.Eventf: component is the reporting controller
// ("deployment-controller"), regarding the object the event is about.
func (r *Recorder) Eventf(ctx context.Context, component string, regarding *api.Unstructured, eventType, reason, messageFmt string, args ...any) {
	if r == nil || regarding == nil {
		return
	}
	now := time.Now
	if r.now != nil {
		now = r.now
	}
	t := now().UTC()
	ns := regarding.GetNamespace()
	if ns == "" {
		ns = "default" // a cluster-scoped object's events live in default, as upstream's
	}
	ts := t.Format(time.RFC3339)
	ev := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Event",
		"metadata": map[string]any{
			// upstream names an event after its object and the time in hex nanoseconds
			// plus a sequence number, so two events of one instant do not collide
			"name":      regarding.GetName() + "." + strconv.FormatInt(t.UnixNano()+r.seq.Add(1), 16),
			"namespace": ns,
		},
		"involvedObject": map[string]any{
			"apiVersion":      regarding.GetAPIVersion(),
			"kind":            regarding.GetKind(),
			"name":            regarding.GetName(),
			"namespace":       regarding.GetNamespace(),
			"uid":             regarding.GetUID(),
			"resourceVersion": regarding.GetResourceVersion(),
		},
		"reason":             reason,
		"message":            fmt.Sprintf(messageFmt, args...),
		"type":               eventType,
		"source":             map[string]any{"component": component},
		"firstTimestamp":     ts,
		"lastTimestamp":      ts,
		"count":              int64(1),
		"reportingComponent": component,
		"reportingInstance":  "",
	}}
	_, err := r.client.Resource(coreEvents).Namespace(ns).Create(ctx, ev, api.CreateOptions{})
	trace.Hop(r.logger, component, "event", regarding.GetNamespace()+"/"+regarding.GetName(), regarding.GetResourceVersion(),
		slog.String("reason", reason), slog.Any("err", err))
}
