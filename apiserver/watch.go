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
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Watches: the cacher's watchers (k8s.io/apiserver pkg/storage/cacher) and the watch handler.
// Registration and fan-out are here, the consumer in watch_serve.go, the HTTP stream in
// watch_http.go. What they promise:
//
//  1. A watch sends {"type":…,"object":…}\n frames, every object with kind and apiVersion
//     (wire spec W3, W4, N6). It flushes whenever no further event is queued for the
//     watcher, as the real watch server does: an event alone goes out at once, a burst in a
//     few writes. From "" or "0" it sends the current objects as ADDED, from N exactly the
//     events after N; from a compacted N it answers 200 with one ERROR 410 Expired and ends
//     (W5, W12). Since 1.34 semantics (W6), "" and "0" watches are watch-lists, so with
//     allowWatchBookmarks they also get the initial-events-end BOOKMARK.
//  2. Watch-list (sendInitialEvents=true, resourceVersionMatch=NotOlderThan): ADDED for the
//     snapshot, a BOOKMARK annotated k8s.io/initial-events-end at the snapshot RV when
//     bookmarks are allowed, then live events (W7, W8, H-5). RejectWatchList answers 422.
//  3. Bookmarks only with allowWatchBookmarks: every BookmarkPeriod and once shortly before
//     the timeout, carrying the current revision only when nothing is still queued for that
//     watcher, so a bookmark never overtakes an event (W16, W17, H-6). RVs on one stream
//     never go back.
//  4. Registration, replay and the initial state happen under the storage lock, so the
//     list→watch hand-off has no gap and no duplicate (W11).
//  5. Selectors apply to lists and watches alike; an object leaving a watch's selection is
//     DELETED with its previous state at the new RV, one entering it is ADDED (W14, T14). A
//     watch from a compacted RV ends with "too old resource version: N (M)", M being the
//     newest compacted RV (the real watch cache's oldest-1).
//  6. Writers never block on watchers: each watcher has a buffer of WatchBufferSize events.
//     A watcher whose buffer is full is closed: the events already queued are delivered,
//     then one ERROR event (500 InternalError, which client-go answers by watching again
//     from its last RV) ends the stream (W19, R12). A client that does not take them within
//     WatchWriteTimeout has its connection dropped instead (limits.go, 9).
//  7. timeoutSeconds ends a watch cleanly; without it, or with 0, a watch lives
//     MinRequestTimeout to twice that, 30–60 minutes by default (W18). A negative
//     timeoutSeconds has already expired, as on the real server: 200, and the stream ends at
//     once with no events. Close and CloseAllWatches end watches cleanly (no ERROR); a watch
//     whose client is not reading when it ends is cut (limits.go, 9).
//  8. At most MaxOpenWatches watches are open at once, HTTP and in-process together; one
//     more is 429 TooManyRequests with Retry-After: 1. A watch keeps its place until its
//     stream has ended, not merely until it is unregistered, so the goroutines, buffers and
//     queued events (× WatchBufferSize, shared, never copied) watchers can pin are bounded.

// Why a watcher stopped.
const (
	stopNone     int32 = iota
	stopClient         // the client went away or called Stop
	stopServer         // Close or CloseAllWatches: end the stream cleanly
	stopOverflow       // the buffer filled up: drain, then ERROR (W19)
	stopGone           // the resource is no longer served (its CRD was deleted): drain, then end cleanly
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
