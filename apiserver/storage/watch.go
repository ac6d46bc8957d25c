package storage

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Why a watcher stopped.
const (
	StopNone     int32 = iota
	StopClient         // the client went away or called Stop
	StopServer         // Close or CloseAllWatches: end the stream cleanly
	StopOverflow       // the buffer filled up: drain, then ERROR
	StopGone           // the collection is no longer served: drain, then end cleanly
)

// Watcher is one open watch: the cacheWatcher of pkg/storage/cacher/cache_watcher.go. The
// writer side (dispatch, under the store lock) only ever appends to its queue, so a slow
// client cannot slow writers down; when the queue is full the watcher is stopped with
// StopOverflow and its consumer ends the stream with an ERROR.
//
// The queue is a slice under its own small lock, not a channel: the consumer takes every
// queued event at once (Take) and is woken (Ready) only when an event lands in an empty
// queue, so a burst costs each watcher one append per event and one wake-up per batch,
// instead of a channel send, a receive and a select per event.
type Watcher struct {
	ID      uint64
	StartRV uint64
	// Initial holds the objects to send as ADDED first (a watch from "now" with initial
	// events); Replay the retained events after StartRV. The consumer sends them, then
	// what it takes from the queue.
	Initial     []*Record
	Replay      []*Event
	EndBookmark bool
	// InitErr, when set, is the watch's only event: a compacted start revision (410) or a
	// future one not reached in time (504). Such a watcher is not registered.
	InitErr *api.Status

	coll         *Collection
	ns           string
	label, field string
	limit        int // WatchBufferSize: the most events the queue holds

	qmu   sync.Mutex
	queue []*Event      // live events not yet taken, oldest first (guarded by qmu)
	ready chan struct{} // a token when an event lands in an empty queue
	took  chan struct{} // a token each time the consumer takes events (Take)

	done    chan struct{}
	once    sync.Once
	why     atomic.Int32
	counted bool // holds a place under MaxOpenWatches (guarded by the store lock)
}

// Ready returns the channel on which the watcher is woken when events are queued after
// its queue was empty: a consumer that finds the queue empty (Take) waits on it. A token may
// be stale (the events it announced already taken); the consumer then finds nothing and
// waits again.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Take moves every queued event, oldest first, into spare's array (emptied first, grown if
// need be) and returns them; the queue keeps the array the consumer last handed back, so a
// consumer alternating two slices allocates nothing in the steady state. The consumer
// should clear the returned slice once it has sent them (not to pin the events) and hand it
// back on its next Take. A writer waiting for room in this queue (WaitForRoom) sees the
// progress.
func (w *Watcher) Take(spare []*Event) []*Event {
	w.qmu.Lock()
	q := w.queue
	w.queue = spare[:0]
	w.qmu.Unlock()
	if len(q) > 0 {
		select {
		case w.took <- struct{}{}:
		default:
		}
	}
	return q
}

// enqueue appends ev to the queue, or reports false when the queue is full. Callers hold
// the store lock.
func (w *Watcher) enqueue(ev *Event) bool {
	w.qmu.Lock()
	if len(w.queue) >= w.limit {
		w.qmu.Unlock()
		return false
	}
	if w.queue == nil {
		w.queue = make([]*Event, 0, min(w.limit, 64))
	}
	w.queue = append(w.queue, ev)
	wake := len(w.queue) == 1
	w.qmu.Unlock()
	if wake {
		select {
		case w.ready <- struct{}{}:
		default:
		}
	}
	return true
}

// Queued returns how many live events wait in the queue, not yet taken.
func (w *Watcher) Queued() int {
	w.qmu.Lock()
	defer w.qmu.Unlock()
	return len(w.queue)
}

// Done is closed when the watcher is stopped; Why then says why.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Why returns the reason the watcher stopped (StopNone while it runs).
func (w *Watcher) Why() int32 { return w.why.Load() }

// Collection returns the watched collection.
func (w *Watcher) Collection() *Collection { return w.coll }

func (w *Watcher) stop(why int32) {
	w.once.Do(func() {
		w.why.Store(why)
		close(w.done)
	})
}

// Watch mirrors Cacher.Watch. Everything that decides what the watcher will see happens
// under the store lock, so no write can fall between the initial state (or replayed
// history) and the live events. A watch beyond MaxOpenWatches is 429 before it sees
// anything; it keeps its place until Unregister, which its consumer calls when the stream
// has ended, so the goroutines and buffers watchers pin stay bounded.
func (s *Store) Watch(ctx context.Context, c *Collection, opts WatchOptions) (*Watcher, error) {
	w := &Watcher{coll: c, ns: opts.Namespace, label: opts.Label, field: opts.Field, done: make(chan struct{}),
		ready: make(chan struct{}, 1), took: make(chan struct{}, 1)}
	if opts.SendInitialEvents && opts.ResourceVersion > 0 {
		if err := s.WaitForResourceVersion(ctx, opts.ResourceVersion); err != nil {
			st, _ := err.(*api.Status)
			if st == nil {
				st = api.NewInternalError(err)
			}
			w.StartRV, w.InitErr = opts.ResourceVersion, st
			return w, nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, api.NewServiceUnavailable("the server is shutting down")
	}
	if max := s.cfg.MaxOpenWatches; max > 0 && s.openWatches >= max {
		return nil, api.NewTooManyRequests(fmt.Sprintf("too many open watches (the limit is %d), please try again later", max), 1)
	}
	w.limit = s.cfg.WatchBufferSize
	s.nextWID++
	w.ID = s.nextWID
	switch rv := opts.ResourceVersion; {
	case opts.SendInitialEvents:
		w.StartRV = s.rev
		w.Initial = s.readPage(c, opts.Namespace, s.rev, "", 0, opts.Predicate).items
		w.EndBookmark = opts.EndBookmark
	case rv == 0: // from now, no initial state
		w.StartRV = s.rev
	case rv < s.hist.start:
		w.StartRV = rv
		// The number in brackets is the oldest revision a watch may start from, as in the
		// watch cache's message (one below its oldest event).
		w.InitErr = api.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, s.hist.start))
	default:
		w.StartRV = rv
		for r := rv + 1; r <= s.rev; r++ {
			if ev := s.hist.at(r); ev.Coll == c && inNamespace(ev, w.ns) {
				w.Replay = append(w.Replay, ev)
			}
		}
	}
	if w.InitErr == nil {
		s.watchers[w] = struct{}{}
		w.counted = true
		s.openWatches++
	}
	trace.Hop(s.log, "apiserver", "watch-open", c.traceKey, strconv.FormatUint(w.StartRV, 10), slog.Uint64("watcher", w.ID))
	return w, nil
}

func inNamespace(ev *Event, ns string) bool {
	return ns == "" || ev.Obj.ns == ns
}

// Unregister is the end of a watch's consumer: the watch leaves the set of watchers (if an
// overflow or CloseAllWatches has not taken it out already) and frees its place under
// MaxOpenWatches.
func (s *Store) Unregister(w *Watcher) {
	s.mu.Lock()
	delete(s.watchers, w)
	if w.counted {
		w.counted = false
		s.openWatches--
	}
	s.mu.Unlock()
	w.stop(StopClient)
}

// dispatch hands one event to every matching watcher without blocking
// (cacher.dispatchEvent). Callers hold s.mu exclusively.
func (s *Store) dispatch(ev *Event) {
	h := s.cfg.Hooks
	dropAll := h != nil && h.DropEvent(ev, 0)
	for w := range s.watchers {
		if w.coll != ev.Coll || !inNamespace(ev, w.ns) {
			continue
		}
		if dropAll || (h != nil && h.DropEvent(ev, w.ID)) {
			trace.Hop(s.log, "apiserver", "fault", ev.Obj.Key, strconv.FormatUint(ev.RV, 10),
				slog.String("fault", "drop"), slog.Uint64("watcher", w.ID))
			continue
		}
		if !w.enqueue(ev) {
			w.stop(StopOverflow)
			delete(s.watchers, w)
		}
	}
}

// BookmarkRV is the revision a bookmark of w may carry now: the current one, provided
// nothing is still queued for w (every change up to it has been delivered).
func (s *Store) BookmarkRV(w *Watcher) (uint64, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w.Queued() > 0 {
		return 0, false
	}
	return s.rev, true
}

// CloseAllWatches ends every open watch cleanly, as a restart or a load balancer would.
func (s *Store) CloseAllWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopAll(StopServer)
	trace.Hop(s.log, "apiserver", "fault", "", strconv.FormatUint(s.rev, 10), slog.String("fault", "close-watches"))
}

// Close ends every watch cleanly and refuses new ones.
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.stopAll(StopServer)
}

func (s *Store) stopAll(why int32) {
	for w := range s.watchers {
		w.stop(why)
		delete(s.watchers, w)
	}
}

// WatcherInfo describes one registered watcher.
type WatcherInfo struct {
	ID                   uint64
	Collection           *Collection
	Namespace            string
	LabelText, FieldText string
	StartRV              uint64
}

// Watchers lists the registered watchers, oldest first.
func (s *Store) Watchers() []WatcherInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]WatcherInfo, 0, len(s.watchers))
	for w := range s.watchers {
		out = append(out, WatcherInfo{ID: w.ID, Collection: w.coll, Namespace: w.ns, LabelText: w.label, FieldText: w.field, StartRV: w.StartRV})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// OpenWatches returns how many watches hold a place under MaxOpenWatches: registered, or
// stopped but with a consumer that has not ended yet.
func (s *Store) OpenWatches() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.openWatches
}
