package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Why a watcher stopped.
const (
	stopNone     int32 = iota
	stopClient         // the client went away or called Stop
	stopServer         // Close or CloseAllWatches: end the stream cleanly
	stopOverflow       // the buffer filled up: drain, then ERROR (W19)
)

// watcher is one open watch: the cacheWatcher of k8s.io/apiserver pkg/storage/cacher. The
// writer side (dispatch, under s.mu) only ever does non-blocking sends into ch, so a slow
// client cannot slow down writers; when ch is full the watcher is stopped with
// stopOverflow and its consumer ends the stream with an ERROR event.
type watcher struct {
	id  uint64
	res *resource
	ns  string
	sel selectors

	ch      chan *event
	done    chan struct{}
	once    sync.Once
	why     atomic.Int32
	startRV uint64

	// initial events, sent by the consumer before anything from ch: synthetic ADDED records
	// (initial) or history events replayed after the start RV (replay).
	initial     []*record
	replay      []*event
	endBookmark bool // watch-list: send the initial-events-end BOOKMARK after initial
	bookmarks   bool
	timeout     time.Duration // negative: already expired, the watch ends before any event
	initErr     *api.Status   // compacted start RV (W12) or too large RV (W9): one ERROR, then close

	// counted: the watch holds a place under MaxOpenWatches until its consumer returns
	// (guarded by s.mu).
	counted bool
}

func (w *watcher) stop(why int32) {
	w.once.Do(func() {
		w.why.Store(why)
		close(w.done)
	})
}

// WatcherInfo describes one open watch, for the fault API and demos.
type WatcherInfo struct {
	ID            uint64 `json:"id"`
	Resource      string `json:"resource"`
	Namespace     string `json:"namespace,omitempty"`
	LabelSelector string `json:"labelSelector,omitempty"`
	FieldSelector string `json:"fieldSelector,omitempty"`
	StartRV       uint64 `json:"startResourceVersion"`
}

// Watchers lists the open watches, oldest first.
func (s *Server) Watchers() []WatcherInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]WatcherInfo, 0, len(s.watchers))
	for w := range s.watchers {
		out = append(out, WatcherInfo{
			ID: w.id, Resource: w.res.info.GroupResource().String(), Namespace: w.ns,
			LabelSelector: w.sel.labelText, FieldSelector: w.sel.fieldText, StartRV: w.startRV,
		})
	}
	sortWatcherInfos(out)
	return out
}

// watchRequest is a validated watch: what to watch and from where.
type watchRequest struct {
	res     *resource
	ns      string
	opts    api.ListOptions
	sel     selectors
	rv      uint64 // parsed opts.ResourceVersion
	timeout time.Duration
}

// register opens a watch (cacher.Watch). Everything that decides what the watcher will see
// happens under s.mu, so no write can fall between the initial state (or replayed history)
// and the live events: the list→watch hand-off is gapless (W11).
//
// A watch beyond MaxOpenWatches is refused with 429 TooManyRequests before it is registered
// or sees any event. A watch counts until its consumer (serve) returns, not merely until it
// is unregistered: one closed for overflow (W19) or by CloseAllWatches may still be stuck
// writing to a client that does not read, holding its goroutine, queue and buffers, and it
// frees its place only once that write has failed or finished.
func (s *Server) register(wr watchRequest) (*watcher, error) {
	o := wr.opts
	sendInitial := o.SendInitialEvents != nil && *o.SendInitialEvents
	// W6: since 1.34 a watch from "" or "0" without sendInitialEvents/rvm is served as a
	// watch-list. With the gate off (RejectWatchList) it keeps the legacy meaning, which
	// sends the same ADDED events without the end bookmark.
	legacyInitial := (o.ResourceVersion == "" || o.ResourceVersion == "0") && o.SendInitialEvents == nil && o.ResourceVersionMatch == ""
	if legacyInitial && !s.opts.RejectWatchList {
		sendInitial = true
	}

	w := &watcher{
		res: wr.res, ns: wr.ns, sel: wr.sel,
		done:      make(chan struct{}),
		bookmarks: o.AllowWatchBookmarks,
		timeout:   wr.timeout,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if max := s.opts.MaxOpenWatches; max > 0 && s.openWatches >= max {
		return nil, tooManyWatches(max)
	}
	w.ch = make(chan *event, s.opts.WatchBufferSize)
	s.nextWID++
	w.id = s.nextWID
	switch {
	case sendInitial || legacyInitial:
		w.startRV = s.rev
		w.initial = s.snapshot(wr.res, wr.ns, wr.sel)
		w.endBookmark = sendInitial
	case wr.rv == 0: // sendInitialEvents=false with "" or "0": start now, no initial state
		w.startRV = s.rev
	case wr.rv < s.hist.start:
		w.startRV = wr.rv
		// The number in brackets is the oldest RV a watch may start from, as in the watch
		// cache's message (one below its oldest event).
		w.initErr = api.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", wr.rv, s.hist.start))
	default:
		w.startRV = wr.rv
		for rv := wr.rv + 1; rv <= s.rev; rv++ {
			if ev := s.hist.at(rv); ev.res == wr.res && inNamespace(ev, wr.ns) {
				w.replay = append(w.replay, ev)
			}
		}
	}
	if w.initErr == nil {
		s.watchers[w] = struct{}{}
		w.counted = true
		s.openWatches++
	}
	trace.Hop(s.log, "apiserver", "watch-open", w.res.info.Resource, strconv.FormatUint(w.startRV, 10), slog.Uint64("watcher", w.id))
	return w, nil
}

// tooManyWatches is the 429 of a watch over MaxOpenWatches. Like the real server's
// max-in-flight filter, it asks the client to retry after one second (client-go's
// RESTClient does, honouring Retry-After); unlike it, the body is a Status.
func tooManyWatches(max int) *api.Status {
	return api.NewTooManyRequests(fmt.Sprintf("too many open watches (the limit is %d), please try again later", max), 1)
}

// snapshot returns the current objects of the collection that pass the selectors, in key
// order. Callers hold s.mu.
func (s *Server) snapshot(res *resource, ns string, sel selectors) []*record {
	keep := sel.keepFunc(res)
	return s.readPage(res, ns, s.rev, "", 0, keep).items
}

func inNamespace(ev *event, ns string) bool {
	return ns == "" || ev.obj.meta.GetNamespace() == ns
}

// unregister is the end of a watch's consumer: the watch leaves the set of watchers (if an
// overflow or CloseAllWatches has not taken it out already) and frees its place under
// MaxOpenWatches.
func (s *Server) unregister(w *watcher) {
	s.mu.Lock()
	delete(s.watchers, w)
	if w.counted {
		w.counted = false
		s.openWatches--
	}
	s.mu.Unlock()
	w.stop(stopClient)
}

// dispatch hands one event to every matching watcher without blocking (cacher.dispatchEvent).
// Callers hold s.mu exclusively.
func (s *Server) dispatch(ev *event) {
	dropAll := s.faults.dropFor(ev, 0)
	for w := range s.watchers {
		if w.res != ev.res || !inNamespace(ev, w.ns) {
			continue
		}
		if dropAll || s.faults.dropFor(ev, w.id) {
			trace.Hop(s.log, "apiserver", "fault", ev.obj.key, strconv.FormatUint(ev.rv, 10),
				slogString("fault", "drop"), slog.Uint64("watcher", w.id))
			continue
		}
		select {
		case w.ch <- ev:
		default:
			w.stop(stopOverflow)
			delete(s.watchers, w)
		}
	}
}

// serve runs a watcher's consumer until the watch ends (cacheWatcher.processInterval plus
// the handler's serveWatch). It sends the initial or replayed events, the initial-events-end
// bookmark, then live events filtered by the selectors, periodic bookmarks and one bookmark
// shortly before the timeout.
func (s *Server) serve(ctx context.Context, w *watcher, out sink) {
	defer s.unregister(w)
	key := w.res.info.Resource
	defer func() {
		trace.Hop(s.log, "apiserver", "watch-close", key, "", slog.Uint64("watcher", w.id))
	}()
	if w.timeout < 0 {
		return // a negative timeoutSeconds has expired before the first event (W18)
	}
	if w.initErr != nil {
		out.send(watch.Error, nil, w.initErr) // W9, W12: 200, one ERROR, close
		return
	}
	if st := s.faults.watchError(w.res); st != nil {
		out.send(watch.Error, nil, st)
		return
	}
	if s.faults.takeShortWatch() {
		return
	}
	last := w.startRV // RV of the last event or bookmark sent; bookmarks never go back
	send := func(typ watch.EventType, rec *record, obj api.Object, rv uint64) bool {
		if s.faults.takeCut(w.id) {
			trace.Hop(s.log, "apiserver", "fault", key, strconv.FormatUint(rv, 10), slogString("fault", "cut"))
			out.cut(typ, rec)
			return false
		}
		if trace.Enabled(s.log) {
			k := ""
			if rec != nil {
				k = rec.key
			}
			trace.Hop(s.log, "apiserver", "watch-send", k, strconv.FormatUint(rv, 10),
				slogString("type", string(typ)), slog.Uint64("watcher", w.id))
		}
		if rv > last {
			last = rv
		}
		return out.send(typ, rec, obj)
	}

	for _, rec := range w.initial {
		if !send(watch.Added, rec, nil, rec.rv) {
			return
		}
	}
	w.initial = nil
	if w.endBookmark && w.bookmarks {
		if !send(watch.Bookmark, nil, s.bookmarkObject(w.res, w.startRV, true), w.startRV) {
			return
		}
	}
	last = w.startRV
	for _, ev := range w.replay {
		if !s.sendEvent(ctx, w, ev, send, out.flush) {
			return
		}
	}
	w.replay = nil

	var timeoutC, preTimeoutC, periodC <-chan time.Time
	if w.timeout > 0 {
		t := s.clock.NewTimer(w.timeout)
		defer t.Stop()
		timeoutC = t.C()
		if _, real := s.clock.(clock.RealClock); real {
			// Write deadlines are real time: under another clock the end is not theirs to know.
			out.endsIn(w.timeout)
		}
		if w.bookmarks {
			pre := min(2*time.Second, w.timeout/2)
			pt := s.clock.NewTimer(w.timeout - pre)
			defer pt.Stop()
			preTimeoutC = pt.C()
		}
	}
	if w.bookmarks {
		tk := s.clock.NewTicker(s.opts.BookmarkPeriod)
		defer tk.Stop()
		periodC = tk.C()
	}
	for {
		if len(w.ch) == 0 && !out.flush() {
			return // about to wait, but the client did not take what was sent
		}
		select {
		case <-ctx.Done():
			return
		case ev := <-w.ch:
			if !s.sendEvent(ctx, w, ev, send, out.flush) {
				return
			}
		case <-w.done:
			if w.why.Load() != stopOverflow {
				return
			}
			// Deliver what was queued, so the client misses nothing before the ERROR.
			for len(w.ch) > 0 {
				if !s.sendEvent(ctx, w, <-w.ch, send, out.flush) {
					return
				}
			}
			trace.Hop(s.log, "apiserver", "fault", key, strconv.FormatUint(last, 10), slogString("fault", "slow-watcher"))
			send(watch.Error, nil, api.NewInternalError(fmt.Errorf(
				"watch closed: the client did not keep up with %d buffered events; watch again from the last resourceVersion seen", s.opts.WatchBufferSize)), last)
			return
		case <-periodC:
			if rv, ok := s.bookmarkRV(w); ok && rv >= last {
				if !send(watch.Bookmark, nil, s.bookmarkObject(w.res, rv, false), rv) {
					return
				}
			}
		case <-preTimeoutC:
			if rv, ok := s.bookmarkRV(w); ok && rv >= last {
				if !send(watch.Bookmark, nil, s.bookmarkObject(w.res, rv, false), rv) {
					return
				}
			}
		case <-timeoutC:
			return
		}
	}
}

// sendEvent applies the selectors to one stored event (cacheWatcher.convertToWatchEvent):
// a transition into the selection is ADDED, out of it DELETED carrying the previous state
// with the new RV (W14), and the delay fault waits before the send, after flushing what came
// before, so delayed events still leave one by one.
func (s *Server) sendEvent(ctx context.Context, w *watcher, ev *event, send func(watch.EventType, *record, api.Object, uint64) bool, flush func() bool) bool {
	if ev.rv <= w.startRV {
		return true // a watch from a future RV sees only what comes after it (W5)
	}
	typ, rec := ev.typ, ev.obj
	if !w.sel.empty() {
		keep := w.sel.keepFunc(w.res)
		switch ev.typ {
		case watch.Added, watch.Deleted:
			if !keep(ev.obj) {
				return true
			}
		case watch.Modified:
			newIn, oldIn := keep(ev.obj), ev.old != nil && keep(ev.old)
			switch {
			case newIn && oldIn:
			case newIn:
				typ = watch.Added
			case oldIn:
				typ = watch.Deleted
				obj := ev.old.obj.DeepCopyObject()
				m, _ := api.Accessor(obj)
				m.SetResourceVersion(strconv.FormatUint(ev.rv, 10))
				rec = newRecord(obj, ev.old.key, ev.rv)
			default:
				return true
			}
		}
	}
	if d := s.faults.delayValue(); d > 0 {
		if !flush() {
			return false
		}
		t := s.clock.NewTimer(d)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			return false
		}
	}
	return send(typ, rec, nil, ev.rv)
}

// bookmarkRV is the RV a bookmark may carry now: the current revision, provided nothing is
// still queued for this watcher (W17: every change up to it has been delivered).
func (s *Server) bookmarkRV(w *watcher) (uint64, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(w.ch) > 0 {
		return 0, false
	}
	return s.rev, true
}

// bookmarkObject is the object of a BOOKMARK: an empty instance of the kind carrying only
// the RV, and the k8s.io/initial-events-end annotation for a watch-list's end (W7).
func (s *Server) bookmarkObject(res *resource, rv uint64, end bool) api.Object {
	meta := api.ObjectMeta{ResourceVersion: strconv.FormatUint(rv, 10)}
	if end {
		meta.Annotations = map[string]string{api.InitialEventsAnnotationKey: "true"}
	}
	tm := api.TypeMeta{Kind: res.info.Kind, APIVersion: res.info.apiVersion()}
	if res.info.builtin {
		switch res.info.Kind {
		case "Pod":
			return &api.Pod{TypeMeta: tm, ObjectMeta: meta}
		case "ConfigMap":
			return &api.ConfigMap{TypeMeta: tm, ObjectMeta: meta}
		case "Namespace":
			return &api.Namespace{TypeMeta: tm, ObjectMeta: meta}
		}
	}
	u := &api.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(res.info.GVK())
	u.SetResourceVersion(meta.ResourceVersion)
	if end {
		u.SetAnnotations(meta.Annotations)
	}
	return u
}

// defaultWatchTimeout mirrors handleWatch: a random duration in [min, 2×min) (W18).
func (s *Server) defaultWatchTimeout() time.Duration {
	m := s.opts.MinRequestTimeout
	return m + time.Duration(rand.Int64N(int64(m)))
}

// CloseAllWatches ends every open watch cleanly, as a server restart or a load balancer
// would; clients re-watch from their last RV.
func (s *Server) CloseAllWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		w.stop(stopServer)
		delete(s.watchers, w)
	}
	trace.Hop(s.log, "apiserver", "fault", "", strconv.FormatUint(s.rev, 10), slogString("fault", "close-watches"))
}

// waitForRV waits until the revision reaches rv, for at most the configured wait; then it
// fails with 504 ResourceVersionTooLarge (L4, W9).
func (s *Server) waitForRV(ctx context.Context, rv uint64) error {
	var deadline <-chan time.Time
	if s.opts.TooLargeResourceVersionWait > 0 {
		t := s.clock.NewTimer(s.opts.TooLargeResourceVersionWait)
		defer t.Stop()
		deadline = t.C()
	}
	for {
		s.mu.RLock()
		cur, ch := s.rev, s.revCh
		s.mu.RUnlock()
		if cur >= rv {
			return nil
		}
		if deadline == nil {
			return api.NewTooLargeResourceVersionError(rv, cur, 1)
		}
		select {
		case <-ch:
		case <-deadline:
			return api.NewTooLargeResourceVersionError(rv, cur, 1)
		case <-ctx.Done():
			return api.NewTimeoutError(ctx.Err().Error(), 1)
		}
	}
}

// statusCode is the HTTP code of a Status (500 when unset).
func statusCode(st *api.Status) int {
	if st.Code == 0 {
		return http.StatusInternalServerError
	}
	return int(st.Code)
}

func slogString(k, v string) slog.Attr { return slog.String(k, v) }

func slogInt(k string, v int) slog.Attr { return slog.Int(k, v) }
