package apiserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
)

// sink is where a watch consumer writes: the HTTP stream or an in-process channel. send
// returns false when the client is gone. flush pushes what send wrote to the client: serve
// calls it only when it is about to wait, as the apiserver's watch server flushes only when
// no further event is queued, so a burst leaves in a few writes instead of one per event;
// it too returns false when the client is gone or did not take the data in time. cut
// writes half an event and breaks the stream. endsIn tells the sink the watch ends in d of
// real time, so that a write still stuck then need not outlive the watch.
type sink interface {
	send(typ watch.EventType, rec *record, obj api.Object) bool
	flush() bool
	cut(typ watch.EventType, rec *record)
	endsIn(d time.Duration)
}

// serveWatchHTTP streams a watch as newline-delimited JSON in a chunked response, flushed
// per event (W3, W4, W19, W20).
//
// A client that stops reading must not pin the stream: every write has a deadline (see
// httpSink.arm), and when the stream cannot be written to the end in time the connection
// is dropped. Until then the watch keeps its place under MaxOpenWatches (serve releases it
// when it returns), so the cap bounds what stalled connections can hold.
func (s *endpoints) serveWatchHTTP(w http.ResponseWriter, r *http.Request, info requestInfo, opts api.ListOptions) {
	if _, ok := w.(http.Flusher); !ok {
		writeError(w, api.NewInternalError(errors.New("unable to start watch - can't get http.Flusher")))
		return
	}
	wt, err := s.openWatch(r.Context(), info.res, info.namespace, opts)
	if err != nil {
		writeError(w, err)
		return
	}
	// The stream stays application/json whatever the events carry (W21); a protobuf one
	// is length-delimited WatchEvent messages.
	if info.out.Protobuf {
		w.Header().Set("Content-Type", negotiation.ProtobufType+";stream=watch")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	sink := &httpSink{w: w, rc: http.NewResponseController(w), writeTimeout: s.opts.WatchWriteTimeout, protobuf: info.out.Protobuf}
	sink.flush() // the header goes out now; a failure stops serve at its first write
	switch info.out.Shape {
	case negotiation.Table:
		sink.table = s.tableConverter(info)
		sink.clock = s.clock.Now
	case negotiation.PartialObjectMetadata:
		sink.partial = info.out.Version
	}
	s.serve(r.Context(), wt, sink)
	if !sink.flush() {
		// The end of the stream (the last events, an overflow's ERROR) could not be written
		// in time, or the client is gone: drop the connection now instead of leaving
		// net/http to write the rest.
		panic(http.ErrAbortHandler)
	}
}

// httpSink writes watch frames {"type":T,"object":O}\n (W4). Objects reuse the record's
// cached JSON, so fanning one event out to many watchers encodes it once. A Table watch
// sends each object as a one-row Table, with the column definitions in the first event only
// (W21); a metadata watch sends PartialObjectMetadata. ERROR Statuses go out as they are.
// Only the watch's serve goroutine uses it.
type httpSink struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// out holds the frames sent since the last write to the connection: a burst leaves in
	// writes of up to sinkBatch bytes (one chunk, one syscall each) instead of one per
	// frame, and flush writes whatever is left.
	out []byte

	// Each write must finish by a connection write deadline: at most writeTimeout after it
	// starts, and once the watch's end is known no later than endBy. deadline is the one in
	// place; failed records a write that did not make it, after which the stream is dead.
	writeTimeout time.Duration
	endBy        time.Time
	deadline     time.Time
	failed       bool

	table       *printers.TableConverter
	clock       func() time.Time
	headersSent bool
	partial     string // meta.k8s.io version of PartialObjectMetadata events, "" for none
	protobuf    bool   // length-delimited protobuf WatchEvents instead of JSON lines
}

// arm puts in place the write deadline for the next write: now plus writeTimeout, or endBy
// if sooner. Moving a deadline costs a runtime call, so one that still leaves three
// quarters of the timeout (or already equals endBy) is kept.
func (h *httpSink) arm() {
	if h.writeTimeout <= 0 {
		return
	}
	now := time.Now()
	target, least := now.Add(h.writeTimeout), now.Add(h.writeTimeout*3/4)
	if !h.endBy.IsZero() && h.endBy.Before(target) {
		target = h.endBy
		if target.Before(least) {
			least = target
		}
	}
	if !h.deadline.Before(least) && !h.deadline.After(target) {
		return
	}
	if err := h.rc.SetWriteDeadline(target); err != nil {
		h.writeTimeout = 0 // a writer without deadlines (a ResponseRecorder): write without
		return
	}
	h.deadline = target
}

// endsIn learns that the watch ends in d. A write still blocked a little after that (the
// grace lets one in progress finish) is cut, so a stalled watch ends with its
// timeoutSeconds rather than a whole write timeout later.
func (h *httpSink) endsIn(d time.Duration) {
	h.endBy = time.Now().Add(d + min(h.writeTimeout, time.Second))
}

// sinkBatch is how many bytes of frames the sink gathers before it writes them out; a
// flush writes out any fewer.
const sinkBatch = 32 << 10

// frame appends one frame to h.out and returns where it starts.
func (h *httpSink) frame(typ watch.EventType, rec *record, obj api.Object) int {
	start := len(h.out)
	if h.protobuf {
		h.out = h.appendProtobufFrame(h.out, typ, rec, obj)
		return start
	}
	var data []byte
	if rec != nil {
		data, obj = jsonOf(rec), rec.Obj
	} else {
		var err error
		if data, err = json.Marshal(obj); err != nil {
			data = []byte(`{}`)
		}
	}
	if _, isStatus := obj.(*api.Status); !isStatus {
		switch {
		case h.table != nil:
			data = h.tableEvent(obj, data)
		case h.partial != "":
			data = printers.PartialObjectJSON(h.partial, data)
		}
	}
	b := append(h.out, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","object":`...)
	b = append(b, data...)
	h.out = append(b, "}\n"...)
	return start
}

// tableEvent is the one-row Table of a watch event; its resourceVersion is the object's.
func (h *httpSink) tableEvent(obj api.Object, data []byte) []byte {
	rv := ""
	if m, err := api.Accessor(obj); err == nil {
		rv = m.GetResourceVersion()
	}
	h.table.Now = h.clock()
	out := h.table.Table(api.ListMeta{ResourceVersion: rv}, []printers.Row{{Object: obj, JSON: data}}, !h.headersSent)
	h.headersSent = true
	return out
}

func (h *httpSink) send(typ watch.EventType, rec *record, obj api.Object) bool {
	if h.failed {
		return false
	}
	h.frame(typ, rec, obj)
	if len(h.out) >= sinkBatch {
		h.writeOut()
	}
	return !h.failed
}

// writeOut writes the gathered frames to the connection.
func (h *httpSink) writeOut() {
	if len(h.out) == 0 || h.failed {
		return
	}
	h.arm()
	if _, err := h.w.Write(h.out); err != nil {
		h.failed = true
	}
	if cap(h.out) > 4*sinkBatch {
		h.out = nil // one huge frame (a Table of a large object) need not stay pinned
	} else {
		h.out = h.out[:0]
	}
}

// flush reports whether everything sent so far reached the connection in time. A writer
// that cannot flush at all (no http.Flusher underneath) is taken as flushed, as before.
func (h *httpSink) flush() bool {
	h.writeOut()
	if h.failed {
		return false
	}
	h.arm()
	if err := h.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		h.failed = true
	}
	return !h.failed
}

func (h *httpSink) cut(typ watch.EventType, rec *record) {
	start := h.frame(typ, rec, nil)
	h.out = h.out[:start+(len(h.out)-start)/2]
	h.writeOut()
	_ = h.rc.Flush()
	panic(http.ErrAbortHandler)
}
