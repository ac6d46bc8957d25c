package watch

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/rest/internal/wire"
)

// Trace vocabulary of the watch hops (component "listwatch", shared with package rest).
const (
	opWatchEvent    = "watch-event"
	opWatchClose    = "watch-close"
	attrCloseReason = "reason"
)

// StreamWatcher mirrors watch.StreamWatcher in apimachinery pkg/watch/streamwatcher.go: one
// goroutine reads events from a Decoder and sends them on an unbuffered channel.
//
// A broken stream (a truncated frame, a frame over the size limit, garbage bytes, an object
// without a kind, an unknown event type) ends with exactly one ERROR event holding a 500
// Status, then the channel closes. Upstream ends silently on a truncated frame
// (io.ErrUnexpectedEOF); here it is reported, so a learner sees why the watch ended. A clean
// end of the body, a dropped connection between events, Stop and a cancelled context all
// just close the channel.
type StreamWatcher struct {
	mu     sync.Mutex
	source Decoder
	result chan watch.Event
	done   chan struct{}
	// ctx is the request's context; cancel (may be nil) tears the connection down on Stop.
	ctx    context.Context
	cancel context.CancelFunc

	logger *slog.Logger
	key    string // what trace lines call this watch (the request path)
	lastRV string // RV of the last event sent, for the close trace
}

// NewStreamWatcher mirrors watch.NewStreamWatcherWithLogger: it starts reading d at once.
// A nil logger is silent.
func NewStreamWatcher(d Decoder, logger *slog.Logger) *StreamWatcher {
	return NewStreamWatcherForRequest(context.Background(), nil, d, logger, "")
}

// NewStreamWatcherForRequest is NewStreamWatcher for the body of one watch request, as
// rest.Request.Watch opens it: the watch ends when ctx ends, Stop also calls cancel (which
// may be nil) to tear the connection down, and trace lines name the watch by path. Nothing
// in client-go mirrors it: there the request's context reaches the decoder through the
// response body alone.
func NewStreamWatcherForRequest(ctx context.Context, cancel context.CancelFunc, d Decoder, logger *slog.Logger, path string) *StreamWatcher {
	sw := &StreamWatcher{
		source: d,
		result: make(chan watch.Event),
		done:   make(chan struct{}),
		ctx:    ctx,
		cancel: cancel,
		logger: logger,
		key:    path,
	}
	go sw.receive()
	return sw
}

// ResultChan mirrors StreamWatcher.ResultChan.
func (sw *StreamWatcher) ResultChan() <-chan watch.Event { return sw.result }

// Stop mirrors StreamWatcher.Stop: it closes the source (the response body) and cancels the
// request, so the reader goroutine ends and the connection is released. The channel is
// closed shortly after. Safe to call more than once and from any goroutine.
func (sw *StreamWatcher) Stop() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	select {
	case <-sw.done:
	default:
		close(sw.done)
		sw.source.Close()
		if sw.cancel != nil {
			sw.cancel()
		}
	}
}

func (sw *StreamWatcher) stopped() bool {
	select {
	case <-sw.done:
		return true
	default:
		return sw.ctx.Err() != nil
	}
}

// receive mirrors StreamWatcher.receive.
func (sw *StreamWatcher) receive() {
	reason := "eof"
	// Deferred calls run last-first: Stop releases the body, the close is traced, and only
	// then is the channel closed, so a consumer that saw the close also sees the trace line.
	defer close(sw.result)
	defer func() {
		if trace.Enabled(sw.logger) {
			trace.Hop(sw.logger, wire.TraceComponent, opWatchClose, sw.key, sw.lastRV, slog.String(attrCloseReason, reason))
		}
	}()
	defer sw.Stop()
	for {
		t, obj, err := sw.source.Decode()
		if err != nil {
			var bad *streamDecodeError
			switch {
			case sw.stopped():
				reason = "stopped"
			case errors.As(err, &bad):
				reason = "error"
				sw.send(watch.Event{Type: watch.Error, Object: clientDecodingStatus(err)})
			case errors.Is(err, io.EOF):
			case wire.IsProbableEOF(err):
				reason = "disconnected"
			default:
				reason = "error"
				sw.send(watch.Event{Type: watch.Error, Object: clientDecodingStatus(err)})
			}
			return
		}
		sw.maybeTraceEvent(t, obj)
		if !sw.send(watch.Event{Type: t, Object: obj}) {
			reason = "stopped"
			return
		}
	}
}

// send delivers ev unless the watch is stopped first. The up-front check matters: a select
// with both cases ready picks at random, so without it a stopped watcher whose consumer is
// still draining could hand over any number of further events.
func (sw *StreamWatcher) send(ev watch.Event) bool {
	if sw.stopped() {
		return false
	}
	select {
	case <-sw.done:
		return false
	case sw.result <- ev:
		return true
	}
}

// maybeTraceEvent logs the watch-event hop; with tracing off it costs one Enabled call.
func (sw *StreamWatcher) maybeTraceEvent(t watch.EventType, obj api.Object) {
	if trace.Enabled(sw.logger) {
		sw.traceEvent(t, obj)
	}
}

func (sw *StreamWatcher) traceEvent(t watch.EventType, obj api.Object) {
	key, rv := "", ""
	if m, err := api.Accessor(obj); err == nil {
		key, rv = m.GetName(), m.GetResourceVersion()
		if ns := m.GetNamespace(); ns != "" {
			key = ns + "/" + key
		}
	} else if st, ok := obj.(*api.Status); ok {
		key = string(st.Reason)
	}
	if rv != "" {
		sw.lastRV = rv
	}
	trace.Hop(sw.logger, wire.TraceComponent, opWatchEvent, key, rv, slog.String(trace.KeyType, string(t)))
}

// clientDecodingStatus mirrors what errors.NewClientErrorReporter(500, "GET",
// "ClientWatchDecoding").AsObject builds for a broken stream.
func clientDecodingStatus(err error) *api.Status {
	msg := "unable to decode an event from the watch stream: " + err.Error()
	st := api.NewGenericServerResponse(http.StatusInternalServerError, http.MethodGet, api.GroupResource{}, "", msg, 0, true)
	st.Details.Causes = append(st.Details.Causes, api.StatusCause{Type: "ClientWatchDecoding", Message: msg})
	return st
}
