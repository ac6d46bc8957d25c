package apiserver

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/storage"

	"github.com/informer-lab/informer-lab/api"
)

// Watches: the cacher's watchers (k8s.io/apiserver pkg/storage/cacher) and the watch handler.
// Registration and fan-out are here, the consumer in watch_serve.go, the HTTP stream in
// watch_http.go. What they promise:
//
//  1. A watch sends {"type":…,"object":…}\n frames, every object with kind and apiVersion
//     (docs/behaviour/wire.md W3, W4, N6). It flushes whenever no further event is queued for the
//     watcher, as the real watch server does: an event alone goes out at once, a burst in a
//     few writes. The consumer takes every queued event at once and is woken once per
//     batch, not per event; frames are copied from each record's cached encodings into
//     writes of up to 32 KiB (sinkBatch). From "" or "0" it sends the current objects as ADDED, from N exactly the
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
//  4. Registration, replay and the initial state happen under the storage lock (package
//     storage), so the list→watch hand-off has no gap and no duplicate (W11).
//  5. Selectors apply to lists and watches alike; an object leaving a watch's selection is
//     DELETED with its previous state at the new RV, one entering it is ADDED (W14, T14). A
//     watch from a compacted RV ends with "too old resource version: N (M)", M being the
//     newest compacted RV (the real watch cache's oldest-1).
//  6. Writers never block on watchers: each watcher has a queue of WatchBufferSize events
//     (the batch its consumer is writing does not count). A watcher whose queue is full is
//     closed: the events already queued are delivered,
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
//     queued events (at most 2 × WatchBufferSize per watcher, queued and in hand, shared,
//     never copied) watchers can pin are bounded.

// watcher is one open watch as the endpoints serve it: the storage's watcher (registration,
// replay, the event channel) with what only the handler knows: the resource, the selectors,
// bookmarks and the lifetime.
type watcher struct {
	*storage.Watcher
	res       *resource
	sel       selectors
	bookmarks bool
	timeout   time.Duration // negative: already expired, the watch ends before any event
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
	ws := s.store.Watchers()
	out := make([]WatcherInfo, 0, len(ws))
	for _, w := range ws {
		out = append(out, WatcherInfo{
			ID: w.ID, Resource: w.Collection.Name(), Namespace: w.Namespace,
			LabelSelector: w.LabelText, FieldSelector: w.FieldText, StartRV: w.StartRV,
		})
	}
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

// register opens a watch (cacher.Watch) in the storage, which registers it, replays or takes
// the initial state under its lock, so the list→watch hand-off is gapless (W11), and refuses
// one beyond MaxOpenWatches with 429 before it sees any event.
func (s *endpoints) register(ctx context.Context, wr watchRequest) (*watcher, error) {
	o := wr.opts
	sendInitial := o.SendInitialEvents != nil && *o.SendInitialEvents
	// W6: since 1.34 a watch from "" or "0" without sendInitialEvents/rvm is served as a
	// watch-list. With the gate off (RejectWatchList) it keeps the legacy meaning, which
	// sends the same ADDED events without the end bookmark.
	legacyInitial := (o.ResourceVersion == "" || o.ResourceVersion == "0") && o.SendInitialEvents == nil && o.ResourceVersionMatch == ""
	if legacyInitial && !s.opts.RejectWatchList {
		sendInitial = true
	}
	sw, err := s.store.Watch(ctx, wr.res.Coll, storage.WatchOptions{
		Namespace: wr.ns, ResourceVersion: wr.rv,
		SendInitialEvents: sendInitial || legacyInitial, EndBookmark: sendInitial,
		Predicate: wr.sel.keepFunc(wr.res), Label: wr.sel.labelText, Field: wr.sel.fieldText,
	})
	if err != nil {
		return nil, err
	}
	return &watcher{Watcher: sw, res: wr.res, sel: wr.sel, bookmarks: o.AllowWatchBookmarks, timeout: wr.timeout}, nil
}

// unregister is the end of a watch's consumer: the watch leaves the storage's watchers and
// frees its place under MaxOpenWatches.
func (s *endpoints) unregister(w *watcher) { s.store.Unregister(w.Watcher) }

// defaultWatchTimeout mirrors handleWatch: a random duration in [min, 2×min) (W18).
func (s *endpoints) defaultWatchTimeout() time.Duration {
	m := s.opts.MinRequestTimeout
	return m + time.Duration(rand.Int64N(int64(m)))
}

// CloseAllWatches ends every open watch cleanly, as a server restart or a load balancer
// would; clients re-watch from their last RV.
func (s *Server) CloseAllWatches() { s.store.CloseAllWatches() }

// statusCode is the HTTP code of a Status (500 when unset).
func statusCode(st *api.Status) int {
	if st.Code == 0 {
		return http.StatusInternalServerError
	}
	return int(st.Code)
}

func slogString(k, v string) slog.Attr { return slog.String(k, v) }

func slogInt(k string, v int) slog.Attr { return slog.Int(k, v) }
