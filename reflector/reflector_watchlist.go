package reflector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// watchList mirrors Reflector.watchList (R-36 … R-40): it asks the server to stream the
// current state as ADDED events (sendInitialEvents) into a temporary store, ending with a
// bookmark annotated k8s.io/initial-events-end. Then it replaces the real store with that
// state in one Replace, and returns the still-open stream for the watch phase.
//
// It returns (nil, nil) when ctx ends, and an error when the caller should fall back to LIST.
//
//lab:05.3
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	var transformer store.TransformFunc
	if ts, ok := r.store.(TransformingStore); ok {
		transformer = ts.Transformer()
	}
	// retriable reports whether another attempt makes sense, after waiting or flagging as
	// the error requires.
	retriable := func(err error) bool {
		if isWatchErrorRetriable(err) {
			return r.sleepBackoff(ctx)
		}
		if IsExpiredError(err) || IsTooLargeResourceVersionError(err) {
			// Our RV is gone or too new: ask for the latest consistent snapshot instead.
			r.setIsLastSyncResourceVersionUnavailable(true)
			return true
		}
		return false
	}

	var (
		w       watch.Interface
		temp    *temporaryStore
		finalRV string
	)
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		finalRV = ""
		temp = newTemporaryStore(transformer)
		timeout := r.watchTimeoutSeconds()
		sendInitialEvents := true
		opts := api.ListOptions{
			ResourceVersion:      r.rewatchResourceVersion(),
			ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan,
			SendInitialEvents:    &sendInitialEvents,
			AllowWatchBookmarks:  true,
			TimeoutSeconds:       &timeout,
		}
		if trace.Enabled(r.logger) {
			trace.Hop(r.logger, traceComponent, "watch-list", "", opts.ResourceVersion)
		}
		start := r.clock.Now()
		var err error
		w, err = r.listerWatcher.WatchWithContext(ctx, opts)
		if err != nil {
			if ctx.Err() == nil && retriable(err) {
				continue
			}
			if ctx.Err() != nil {
				return nil, nil
			}
			return nil, err
		}
		// only a non-ADDED event proves the initial ADDED burst (in no RV order) is over.
		setRV := func(rv string, pastInitialAdds bool) {
			if pastInitialAdds {
				finalRV = rv
			}
		}
		ended, err := r.handleAnyWatch(ctx, start, w, temp, setRV, true, nil)
		if err != nil {
			// handleAnyWatch has stopped w.
			if errors.Is(err, errStopRequested) {
				return nil, nil
			}
			if retriable(err) {
				continue
			}
			if ctx.Err() != nil {
				return nil, nil
			}
			return nil, err
		}
		if ended {
			break
		}
		// closed without the end bookmark; start over with an empty temporary store.
	}

	r.setIsLastSyncResourceVersionUnavailable(false)
	items := temp.List()
	if trace.Enabled(r.logger) {
		trace.Hop(r.logger, traceComponent, "replace", "", finalRV, slog.Int("items", len(items)))
	}
	if err := r.store.Replace(items, finalRV); err != nil {
		w.Stop()
		return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
	}
	r.setLastSyncResourceVersion(finalRV)
	return w, nil
}

// temporaryStore is the store a watch-list fills before the real one is touched. It
// plays the part of the cache.NewStore(DeletionHandlingMetaNamespaceKeyFunc) upstream uses,
// but remembers arrival order, so that Replace hands the objects on in the order the server
// sent them.
type temporaryStore struct {
	transformer store.TransformFunc
	index       map[string]int // key → position in items
	items       []any          // nil marks a deleted slot
	live        int
}

func newTemporaryStore(transformer store.TransformFunc) *temporaryStore {
	return &temporaryStore{transformer: transformer, index: map[string]int{}}
}

// Add stores obj under its key, keeping the first position of the key.
func (s *temporaryStore) Add(obj any) error {
	key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	if s.transformer != nil {
		if obj, err = s.transformer(obj); err != nil {
			return err
		}
	}
	if i, ok := s.index[key]; ok {
		s.items[i] = obj
		return nil
	}
	s.index[key] = len(s.items)
	s.items = append(s.items, obj)
	s.live++
	return nil
}

// Update is Add, as in every store.
func (s *temporaryStore) Update(obj any) error { return s.Add(obj) }

// Delete forgets obj's key.
func (s *temporaryStore) Delete(obj any) error {
	key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	if i, ok := s.index[key]; ok {
		s.items[i] = nil
		delete(s.index, key)
		s.live--
	}
	return nil
}

// Replace and Resync complete ReflectorStore; a watch-list never calls them.
func (s *temporaryStore) Replace([]any, string) error { return nil }

func (s *temporaryStore) Resync() error { return nil }

// List returns the stored objects in arrival order.
func (s *temporaryStore) List() []any {
	out := make([]any, 0, s.live)
	for _, obj := range s.items {
		if obj != nil {
			out = append(out, obj)
		}
	}
	return out
}
