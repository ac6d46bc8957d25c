package listwatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Trace vocabulary of this package (component "listwatch").
const (
	traceComponent  = "listwatch"
	opList          = "list"
	opWatchOpen     = "watch-open"
	opWatchEvent    = "watch-event"
	opWatchClose    = "watch-close"
	attrItems       = "items"
	attrCloseReason = "reason"
)

// Decoder mirrors watch.Decoder in apimachinery pkg/watch/streamwatcher.go: the source of a
// StreamWatcher. Decode blocks for the next event; Close unblocks it.
type Decoder interface {
	Decode() (watch.EventType, api.Object, error)
	Close()
}

// DecoderOptions configures NewWatchDecoder. Nothing in client-go mirrors it as a whole: it
// gathers what client-go takes from the client's NegotiatedSerializer (the Scheme) and from
// the streaming decoder (its 16 MiB maxBytes).
type DecoderOptions struct {
	// Scheme decodes event objects; nil means api.DefaultScheme. Unknown kinds become
	// *api.Unstructured.
	Scheme *api.Scheme
	// MaxFrameBytes bounds one event; 0 means DefaultMaxFrameBytes.
	MaxFrameBytes int
}

// NewWatchDecoder mirrors restclientwatch.NewDecoder in client-go rest/watch/decoder.go,
// stacked on the JSON framer of apimachinery util/framer: it reads the newline-delimited
// {"type":…,"object":…} frames of a watch body and decodes each object through the Scheme.
func NewWatchDecoder(body io.ReadCloser, opts DecoderOptions) Decoder {
	s := opts.Scheme
	if s == nil {
		s = api.DefaultScheme
	}
	return &jsonWatchDecoder{body: body, frames: newJSONFrameReader(body, opts.MaxFrameBytes), scheme: s}
}

// streamDecodeError marks an error in the stream's content (as opposed to a failed read):
// it always reaches the consumer as an ERROR event.
type streamDecodeError struct{ err error }

func (e *streamDecodeError) Error() string { return e.err.Error() }
func (e *streamDecodeError) Unwrap() error { return e.err }

// wireEventType decodes the "type" member without allocating for the five known types.
type wireEventType struct{ t watch.EventType }

var knownEventTypes = []watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error}

func (w *wireEventType) UnmarshalJSON(data []byte) error {
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		inner := data[1 : len(data)-1]
		for _, t := range knownEventTypes {
			if string(inner) == string(t) { // no allocation: the compiler compares in place
				w.t = t
				return nil
			}
		}
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("event type must be a string, got %s", quoteStart(data))
	}
	w.t = watch.EventType(s)
	return nil
}

// wireEvent is api.WatchEvent with a type that decodes without allocating. One is reused
// for every frame: json.RawMessage reuses its capacity.
type wireEvent struct {
	Type   wireEventType   `json:"type"`
	Object json.RawMessage `json:"object"`
}

type jsonWatchDecoder struct {
	body   io.ReadCloser
	frames *jsonFrameReader
	scheme *api.Scheme
	event  wireEvent
}

// Decode mirrors Decoder.Decode in client-go rest/watch/decoder.go: the event type must be
// one of the five known ones and the object must carry a kind (N6). An ERROR event's object
// is always an *api.Status (LW-5).
func (d *jsonWatchDecoder) Decode() (watch.EventType, api.Object, error) {
	frame, err := d.frames.next()
	if err != nil {
		return "", nil, err
	}
	d.event.Type = wireEventType{}
	d.event.Object = d.event.Object[:0]
	if err := json.Unmarshal(frame, &d.event); err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event %s: %w", quoteStart(frame), err)}
	}
	t := d.event.Type.t
	switch t {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error:
	case "":
		return "", nil, &streamDecodeError{fmt.Errorf("watch event has no type: %s", quoteStart(frame))}
	default:
		return "", nil, &streamDecodeError{fmt.Errorf("got invalid watch event type: %v", t)}
	}
	raw := d.event.Object
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil, &streamDecodeError{fmt.Errorf("%s watch event has no object", t)}
	}
	if t == watch.Error {
		st, err := decodeStatus(raw)
		if err != nil {
			return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
		}
		return t, st, nil
	}
	obj, err := d.scheme.Decode(raw)
	if err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	return t, obj, nil
}

// Close closes the body, which unblocks a Decode waiting for bytes.
func (d *jsonWatchDecoder) Close() { _ = d.body.Close() }

// decodeStatus decodes the object of an ERROR event or an error body. Like client-go it
// needs kind Status; a missing apiVersion defaults to v1, as rest.Result.Error does.
func decodeStatus(raw []byte) (*api.Status, error) {
	var tm api.TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, fmt.Errorf("not a Status: %w", err)
	}
	switch tm.Kind {
	case "Status":
	case "":
		return nil, fmt.Errorf("%w in %s", api.ErrMissingKind, quoteStart(raw))
	default:
		return nil, fmt.Errorf("ERROR event carries a %s, not a Status", tm.Kind)
	}
	st := &api.Status{}
	if err := json.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("not a Status: %w", err)
	}
	if st.APIVersion == "" {
		st.APIVersion = "v1"
	}
	return st, nil
}

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
	return newStreamWatcher(context.Background(), nil, d, logger, "")
}

func newStreamWatcher(ctx context.Context, cancel context.CancelFunc, d Decoder, logger *slog.Logger, key string) *StreamWatcher {
	sw := &StreamWatcher{
		source: d,
		result: make(chan watch.Event),
		done:   make(chan struct{}),
		ctx:    ctx,
		cancel: cancel,
		logger: logger,
		key:    key,
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
			trace.Hop(sw.logger, traceComponent, opWatchClose, sw.key, sw.lastRV, slog.String(attrCloseReason, reason))
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
			case isProbableEOF(err):
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
	trace.Hop(sw.logger, traceComponent, opWatchEvent, key, rv, slog.String(trace.KeyType, string(t)))
}

// clientDecodingStatus mirrors what errors.NewClientErrorReporter(500, "GET",
// "ClientWatchDecoding").AsObject builds for a broken stream.
func clientDecodingStatus(err error) *api.Status {
	msg := "unable to decode an event from the watch stream: " + err.Error()
	st := api.NewGenericServerResponse(http.StatusInternalServerError, http.MethodGet, api.GroupResource{}, "", msg, 0, true)
	st.Details.Causes = append(st.Details.Causes, api.StatusCause{Type: "ClientWatchDecoding", Message: msg})
	return st
}

// isProbableEOF mirrors net.IsProbableEOF in apimachinery util/net: errors that mean the
// connection went away between events, which end a watch quietly.
func isProbableEOF(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	msg := err.Error()
	for _, s := range []string{
		"connection reset by peer",
		"use of closed network connection",
		"broken pipe",
		"http: read on closed response body",
		"server sent GOAWAY and closed the connection",
		"stream error: stream ID",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
