package fakesource

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// ---- WATCH (H-4 … H-7) ----

// Watch mirrors FakeControllerSource.Watch.
func (s *Source) Watch(opts api.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// WatchWithContext opens one watch. The stream ends when ctx ends, as an HTTP watch would.
// It mirrors FakeControllerSource.Watch.
func (s *Source) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, Call{Verb: "WATCH", Options: opts, At: time.Now()})
	if len(s.watchErrs) > 0 {
		err := s.watchErrs[0]
		s.watchErrs = s.watchErrs[1:]
		return nil, err
	}

	watchList := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	if watchList {
		if s.watchListUnsupported {
			return nil, NewInvalid(`ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled`)
		}
		if opts.ResourceVersionMatch != api.ResourceVersionMatchNotOlderThan {
			return nil, NewInvalid(`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`)
		}
	}
	var start int64
	if opts.ResourceVersion != "" {
		n, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
		if err != nil || n < 0 {
			return nil, NewBadRequest(fmt.Sprintf("invalid resource version %q", opts.ResourceVersion))
		}
		start = n
	}
	expired := !watchList && start > 0 && start < s.compactedRV
	if expired && s.expiredOnOpen {
		return nil, NewExpired(fmt.Sprintf("too old resource version: %d (%d)", start, s.compactedRV))
	}

	w := s.newWatcherLocked(opts.AllowWatchBookmarks)
	switch {
	case s.closeNextWatches > 0:
		s.closeNextWatches--
		s.endLocked(w)
		return w, nil
	case watchList && start > s.rv:
		w.send(watch.Event{Type: watch.Error, Object: NewTooLargeResourceVersion(start, s.rv)})
		s.endLocked(w)
		return w, nil
	case expired:
		w.send(watch.Event{Type: watch.Error, Object: NewExpired(fmt.Sprintf("too old resource version: %d (%d)", start, s.compactedRV))})
		s.endLocked(w)
		return w, nil
	case watchList || start == 0:
		// Synthetic ADDED per object, in key order; watch-list ends them with the bookmark.
		for _, k := range s.keysLocked() {
			w.send(watch.Event{Type: watch.Added, Object: s.objects[k].DeepCopyObject()})
		}
		if watchList && opts.AllowWatchBookmarks {
			w.send(s.bookmarkLocked(true))
		}
	default:
		for _, h := range s.history {
			if h.rv > start {
				w.send(copyEvent(h.event))
			}
		}
	}
	if opts.TimeoutSeconds != nil && *opts.TimeoutSeconds > 0 {
		w.timer = time.AfterFunc(time.Duration(*opts.TimeoutSeconds)*time.Second, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.endLocked(w)
		})
	}
	if done := ctx.Done(); done != nil {
		// A context cancelled since the check above makes AfterFunc start Stop at once, on
		// another goroutine: w.mu orders this store before Stop reads the field.
		w.mu.Lock()
		w.stopCtx = context.AfterFunc(ctx, w.Stop)
		w.mu.Unlock()
	}
	return w, nil
}

func (s *Source) newWatcherLocked(bookmarks bool) *fakeWatcher {
	w := &fakeWatcher{
		src:       s,
		result:    make(chan watch.Event),
		signal:    make(chan struct{}, 1),
		stopCh:    make(chan struct{}),
		bookmarks: bookmarks,
	}
	s.watchers[w] = struct{}{}
	s.openWatches++
	s.maxOpenWatches = max(s.maxOpenWatches, s.openWatches)
	go w.pump()
	return w
}

// endLocked ends w from the server side: queued events are still delivered, then the
// result channel closes.
func (s *Source) endLocked(w *fakeWatcher) {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	w.wake()
	s.forgetLocked(w)
}

func (s *Source) forgetLocked(w *fakeWatcher) {
	if _, ok := s.watchers[w]; !ok {
		return
	}
	delete(s.watchers, w)
	s.openWatches--
	if w.timer != nil {
		w.timer.Stop()
	}
}

// fakeWatcher is one open stream. A pump goroutine moves events from an unbounded queue to
// the unbuffered result channel, so a server write never blocks on a slow client.
type fakeWatcher struct {
	src       *Source
	result    chan watch.Event
	signal    chan struct{}
	stopCh    chan struct{}
	bookmarks bool
	timer     *time.Timer

	mu      sync.Mutex
	queue   []watch.Event
	closing bool
	stopped bool
	// stopCtx unregisters the context's Stop. It is set while that Stop may already be
	// running, hence under mu.
	stopCtx func() bool
}

func (w *fakeWatcher) send(ev watch.Event) {
	w.mu.Lock()
	if w.closing || w.stopped {
		w.mu.Unlock()
		return
	}
	w.queue = append(w.queue, ev)
	w.mu.Unlock()
	w.wake()
}

func (w *fakeWatcher) wake() {
	select {
	case w.signal <- struct{}{}:
	default:
	}
}

func (w *fakeWatcher) pump() {
	defer close(w.result)
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			closing := w.closing
			w.mu.Unlock()
			if closing {
				return
			}
			select {
			case <-w.signal:
			case <-w.stopCh:
				return
			}
			continue
		}
		ev := w.queue[0]
		w.queue[0] = watch.Event{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case w.result <- ev:
		case <-w.stopCh:
			return
		}
	}
}

// Stop ends the watch from the client side; queued events are dropped.
func (w *fakeWatcher) Stop() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	w.stopped = true
	close(w.stopCh)
	stopCtx := w.stopCtx
	w.mu.Unlock()
	if stopCtx != nil {
		stopCtx()
	}
	w.src.mu.Lock()
	w.src.forgetLocked(w)
	w.src.mu.Unlock()
}

// ResultChan returns the event stream.
func (w *fakeWatcher) ResultChan() <-chan watch.Event { return w.result }

// NoWatchList wraps a Source for a client that opts out of watch-list (LW-2), as client-go's
// fake clientsets do.
type NoWatchList struct{ *Source }

// IsWatchListSemanticsUnSupported mirrors the opt-out method client-go's reflector looks for.
func (NoWatchList) IsWatchListSemanticsUnSupported() bool { return true }
