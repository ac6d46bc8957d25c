package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The consumer side of a watcher: the goroutine that takes its events off the queue and
// writes them to the sink, with the bookmarks and the end of the stream.

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
			why := w.why.Load()
			if why != stopOverflow && why != stopGone {
				return
			}
			// Deliver what was queued, so the client misses nothing before the ERROR (or,
			// for a resource that is gone, before the stream ends).
			for len(w.ch) > 0 {
				if !s.sendEvent(ctx, w, <-w.ch, send, out.flush) {
					return
				}
			}
			if why == stopGone {
				out.flush()
				return
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
				obj := ev.old.obj.DeepCopy()
				obj.SetResourceVersion(strconv.FormatUint(ev.rv, 10))
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
	if res.info.builtin {
		// A built-in's bookmark is its Go type's zero value, so it carries the fields a
		// typed zero value encodes (a Pod's empty spec and status), as the real one does.
		if obj, err := s.scheme.New(res.info.GVK()); err == nil {
			if m, err := api.Accessor(obj); err == nil {
				m.SetResourceVersion(meta.ResourceVersion)
				m.SetAnnotations(meta.Annotations)
				obj.GetObjectKind().SetGroupVersionKind(res.info.GVK())
				return obj
			}
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
