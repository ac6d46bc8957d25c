package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/storage"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The consumer side of a watcher: the goroutine that takes its events off the queue and
// writes them to the sink, with the bookmarks and the end of the stream.

// serve runs a watcher's consumer until the watch ends (cacheWatcher.processInterval plus
// the handler's serveWatch). It sends the initial or replayed events, the initial-events-end
// bookmark, then live events filtered by the selectors, periodic bookmarks and one bookmark
// shortly before the timeout.
func (s *endpoints) serve(ctx context.Context, w *watcher, out sink) {
	defer s.unregister(w)
	key := w.res.Info.Resource
	defer func() {
		trace.Hop(s.log, "apiserver", "watch-close", key, "", slog.Uint64("watcher", w.ID))
	}()
	if w.timeout < 0 {
		return // a negative timeoutSeconds has expired before the first event (W18)
	}
	if w.InitErr != nil {
		out.send(watch.Error, nil, w.InitErr) // W9, W12: 200, one ERROR, close
		return
	}
	if st := s.faults.watchError(w.res); st != nil {
		out.send(watch.Error, nil, st)
		return
	}
	if s.faults.takeShortWatch() {
		return
	}
	// The timeout runs from the start, initial events included: a watch with a large
	// initial list and a client that does not read still ends at timeoutSeconds (the
	// handler's timer, not the cacher's, bounds the whole stream upstream).
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
	expired := func() bool {
		select {
		case <-timeoutC:
			return true
		case <-ctx.Done():
			return true
		default:
			return false
		}
	}
	last := w.StartRV // RV of the last event or bookmark sent; bookmarks never go back
	send := func(typ watch.EventType, rec *record, obj api.Object, rv uint64) bool {
		rec = s.served(w.res, rec)
		if s.faults.takeCut(w.ID) {
			trace.Hop(s.log, "apiserver", "fault", key, strconv.FormatUint(rv, 10), slogString("fault", "cut"))
			out.cut(typ, rec)
			return false
		}
		if trace.Enabled(s.log) {
			k := ""
			if rec != nil {
				k = rec.Key
			}
			trace.Hop(s.log, "apiserver", "watch-send", k, strconv.FormatUint(rv, 10),
				slogString("type", string(typ)), slog.Uint64("watcher", w.ID))
		}
		if rv > last {
			last = rv
		}
		return out.send(typ, rec, obj)
	}

	for _, rec := range w.Initial {
		if expired() || !send(watch.Added, rec, nil, rec.RV) {
			return
		}
	}
	w.Initial = nil
	if w.EndBookmark && w.bookmarks {
		if !send(watch.Bookmark, nil, s.bookmarkObject(w.res, w.StartRV, true), w.StartRV) {
			return
		}
	}
	last = w.StartRV
	for _, ev := range w.Replay {
		if expired() || !s.sendEvent(ctx, w, ev, send, out.flush) {
			return
		}
	}
	w.Replay = nil

	if w.bookmarks {
		tk := s.clock.NewTicker(s.opts.BookmarkPeriod)
		defer tk.Stop()
		periodC = tk.C()
	}
	// Live events: the consumer takes every queued event at once, writes them as one
	// batch, and waits only when the queue is empty, flushing first (W4).
	var batch []*event
	sendBatch := func() bool {
		for i, ev := range batch {
			// A large batch still notices its timeout and its client going away.
			if i%64 == 63 && expired() {
				return false
			}
			if !s.sendEvent(ctx, w, ev, send, out.flush) {
				return false
			}
		}
		clear(batch) // the events are shared by every watcher: do not pin them
		return true
	}
	for {
		if batch = w.Take(batch); len(batch) > 0 {
			if why := w.Why(); why == storage.StopClient || why == storage.StopServer || expired() {
				return // ends cleanly, without what was still queued
			}
			if !sendBatch() {
				return
			}
			continue
		}
		if !out.flush() {
			return // about to wait, but the client did not take what was sent
		}
		select {
		case <-ctx.Done():
			return
		case <-w.Ready():
		case <-w.Done():
			why := w.Why()
			if why != storage.StopOverflow && why != storage.StopGone {
				return
			}
			// Deliver what was queued, so the client misses nothing before the ERROR (or,
			// for a resource that is gone, before the stream ends). A stopped watcher gets
			// no more events.
			if batch = w.Take(batch); !sendBatch() {
				return
			}
			if why == storage.StopGone {
				out.flush()
				return
			}
			trace.Hop(s.log, "apiserver", "fault", key, strconv.FormatUint(last, 10), slogString("fault", "slow-watcher"))
			send(watch.Error, nil, api.NewInternalError(fmt.Errorf(
				"watch closed: the client did not keep up with %d buffered events; watch again from the last resourceVersion seen", s.opts.WatchBufferSize)), last)
			return
		case <-periodC:
			if rv, ok := s.store.BookmarkRV(w.Watcher); ok && rv >= last {
				if !send(watch.Bookmark, nil, s.bookmarkObject(w.res, rv, false), rv) {
					return
				}
			}
		case <-preTimeoutC:
			if rv, ok := s.store.BookmarkRV(w.Watcher); ok && rv >= last {
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
func (s *endpoints) sendEvent(ctx context.Context, w *watcher, ev *event, send func(watch.EventType, *record, api.Object, uint64) bool, flush func() bool) bool {
	if ev.RV <= w.StartRV {
		return true // a watch from a future RV sees only what comes after it (W5)
	}
	typ, rec := ev.Type, ev.Obj
	if !w.sel.empty() {
		keep := w.sel.keepFunc(w.res)
		switch ev.Type {
		case watch.Added, watch.Deleted:
			if !keep(ev.Obj) {
				return true
			}
		case watch.Modified:
			newIn, oldIn := keep(ev.Obj), ev.Old != nil && keep(ev.Old)
			switch {
			case newIn && oldIn:
			case newIn:
				typ = watch.Added
			case oldIn:
				typ = watch.Deleted
				obj := ev.Old.Obj.DeepCopy()
				obj.SetResourceVersion(strconv.FormatUint(ev.RV, 10))
				rec = s.store.NewRecord(obj, ev.Old.Key, ev.RV)
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
	return send(typ, rec, nil, ev.RV)
}

// bookmarkObject is the object of a BOOKMARK: an empty instance of the kind carrying only
// the RV, and the k8s.io/initial-events-end annotation for a watch-list's end (W7).
func (s *endpoints) bookmarkObject(res *resource, rv uint64, end bool) api.Object {
	meta := api.ObjectMeta{ResourceVersion: strconv.FormatUint(rv, 10)}
	if end {
		meta.Annotations = map[string]string{api.InitialEventsAnnotationKey: "true"}
	}
	if res.Builtin {
		// A built-in's bookmark is its Go type's zero value, so it carries the fields a
		// typed zero value encodes (a Pod's empty spec and status), as the real one does.
		if obj, err := s.scheme.New(res.Info.GVK()); err == nil {
			if m, err := api.Accessor(obj); err == nil {
				m.SetResourceVersion(meta.ResourceVersion)
				m.SetAnnotations(meta.Annotations)
				obj.GetObjectKind().SetGroupVersionKind(res.Info.GVK())
				return obj
			}
		}
	}
	u := &api.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(res.Info.GVK())
	u.SetResourceVersion(meta.ResourceVersion)
	if end {
		u.SetAnnotations(meta.Annotations)
	}
	return u
}
