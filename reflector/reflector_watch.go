package reflector

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// internalErrorResetPeriod is the quiet gap after which a new run of 500s gets a fresh
// MaxInternalErrorRetryDuration window.
const internalErrorResetPeriod = time.Minute

// veryShortWatch is how long a watch must last, if it delivers nothing, to count as normal.
const veryShortWatch = time.Second

// watchWithResync mirrors Reflector.watchWithResync: the watch phase, with the resync helper
// running beside it for exactly as long.
func (r *Reflector) watchWithResync(ctx context.Context, w watch.Interface) error {
	resyncErrC := make(chan error, 1)
	resyncCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.startResync(resyncCtx, resyncErrC)
	}()
	defer func() {
		cancel()
		wg.Wait() // the helper never outlives the cycle
	}()
	return r.watch(ctx, w, resyncErrC)
}

// startResync mirrors Reflector.startResync: every resyncPeriod, ask ShouldResync and
// call store.Resync. A Resync error ends the watch (through errC) and the helper. The timer
// is re-armed after every tick, whether or not a resync happened.
func (r *Reflector) startResync(ctx context.Context, errC chan<- error) {
	if r.resyncPeriod <= 0 {
		return // period 0 never fires
	}
	t := r.clock.NewTimer(r.resyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-t.C():
		case <-ctx.Done():
			return
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			if trace.Enabled(r.logger) {
				trace.Hop(r.logger, traceComponent, "resync", "", r.LastSyncResourceVersion())
			}
			if err := r.store.Resync(); err != nil {
				errC <- err
				return
			}
		}
		t.Reset(r.resyncPeriod)
	}
}

// watch mirrors Reflector.watch: open a watch from LastSyncResourceVersion (or use
// w, the stream a watch-list left open), hand it to handleAnyWatch, and decide by the way it
// ended whether to re-watch now, re-watch after a backoff, or return for a relist. Every
// watcher is stopped before the next is opened and before returning.
//
//lab:05.2
func (r *Reflector) watch(ctx context.Context, w watch.Interface, resyncErrC chan error) error {
	retry := newRetryWithDeadline(r.MaxInternalErrorRetryDuration, internalErrorResetPeriod, api.IsInternalError, r.clock)
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		// The clock starts before the request: some proxies flush headers only with the first event.
		start := r.clock.Now()
		// A watch from "" or "0" starts with synthetic ADDED events in no RV order, so their
		// RVs must not be recorded. A stream inherited from watch-list is past them.
		propagateRVFromStart := true
		if w == nil {
			timeout := r.watchTimeoutSeconds()
			opts := api.ListOptions{
				ResourceVersion:     r.LastSyncResourceVersion(),
				TimeoutSeconds:      &timeout,
				AllowWatchBookmarks: true,
			}
			if opts.ResourceVersion == "" || opts.ResourceVersion == "0" {
				propagateRVFromStart = false
			}
			if trace.Enabled(r.logger) {
				trace.Hop(r.logger, traceComponent, "watch-start", "", opts.ResourceVersion)
			}
			var err error
			w, err = r.listerWatcher.WatchWithContext(ctx, opts)
			if err != nil {
				w = nil
				if isWatchErrorRetriable(err) {
					// the server is busy or restarting; keep our RV and try again later.
					if !r.sleepBackoff(ctx) {
						return nil
					}
					continue
				}
				return err // e.g. 410 on open → handler → backoff → relist
			}
		}

		setRV := func(rv string, pastInitialAdds bool) {
			if propagateRVFromStart || pastInitialAdds {
				r.setLastSyncResourceVersion(rv)
				if u, ok := r.store.(ResourceVersionUpdater); ok {
					u.UpdateResourceVersion(rv)
				}
			}
		}
		_, err := r.handleAnyWatch(ctx, start, w, r.store, setRV, false, resyncErrC)
		w = nil // handleAnyWatch stopped it
		retry.after(err)
		r.traceWatchEnd(err)
		if err == nil {
			continue // a normal close; resume from the last RV, no relist, no backoff
		}
		if errors.Is(err, errStopRequested) {
			return nil
		}
		switch {
		case IsExpiredError(err):
			// relist at the last RV (not ""): a LIST "not older than" it is still valid.
		case api.IsTooManyRequests(err):
			if !r.sleepBackoff(ctx) {
				return nil
			}
			continue
		case api.IsInternalError(err) && retry.shouldRetry():
			continue
		default:
			r.warn(ctx, "watch ended with error", err)
		}
		return nil
	}
}

// traceWatchEnd logs how a watch ended: "closed" for a normal close, else the error.
func (r *Reflector) traceWatchEnd(err error) {
	if !trace.Enabled(r.logger) {
		return
	}
	reason := "closed"
	switch {
	case err == nil:
	case errors.Is(err, errStopRequested):
		reason = "stopped"
	default:
		reason = err.Error()
	}
	trace.Hop(r.logger, traceComponent, "watch-end", "", r.LastSyncResourceVersion(), slog.String("reason", reason))
}

// handleAnyWatch mirrors handleAnyWatch in client-go tools/cache/reflector.go (R-14, R-15,
// it applies the events of w to s until the stream closes, an ERROR event
// arrives, resync fails, or ctx ends. setRV receives every accepted event's RV, with whether a
// non-ADDED event has been seen yet. With exitOnInitialEventsEnd it returns at the bookmark
// annotated k8s.io/initial-events-end and leaves w open for the caller; otherwise it always
// stops w. The bool reports whether that bookmark was seen.
//
//lab:05.2
func (r *Reflector) handleAnyWatch(
	ctx context.Context,
	start time.Time,
	w watch.Interface,
	s ReflectorStore,
	setRV func(rv string, pastInitialAdds bool),
	exitOnInitialEventsEnd bool,
	errC <-chan error,
) (bool, error) {
	initialEventsEnd := false
	pastInitialAdds := false
	eventCount := 0
	stopWatcher := true
	defer func() {
		if stopWatcher {
			w.Stop()
		}
	}()
	bookmarks, _ := s.(ReflectorBookmarkStore)
	tracing := trace.Enabled(r.logger)

	for {
		var event watch.Event
		var ok bool
		select {
		case <-ctx.Done():
			return initialEventsEnd, errStopRequested
		case err := <-errC:
			return initialEventsEnd, err
		case event, ok = <-w.ResultChan():
		}
		if !ok {
			if ctx.Err() != nil {
				// A client whose streams end with the context closes the channel at the
				// same moment; that is a stop, not a (very short) watch ending.
				return initialEventsEnd, errStopRequested
			}
			break
		}
		if event.Type == watch.Error {
			return initialEventsEnd, api.FromObject(event.Object)
		}
		meta, skip := r.acceptEvent(ctx, event)
		if skip {
			continue
		}
		rv := meta.GetResourceVersion()
		if tracing {
			r.traceEvent(event.Type, meta, rv)
		}
		var err error
		switch event.Type {
		case watch.Added:
			err = s.Add(event.Object)
		case watch.Modified:
			pastInitialAdds = true
			err = s.Update(event.Object)
		case watch.Deleted:
			pastInitialAdds = true
			err = s.Delete(event.Object) // the event carries the object's last state
		case watch.Bookmark:
			// Bookmarks change nothing but the RV: every change up to rv has been delivered.
			pastInitialAdds = true
			if meta.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
				initialEventsEnd = true
			}
			if bookmarks != nil {
				err = bookmarks.Bookmark(rv)
			}
		default:
			r.warn(ctx, "unknown watch event type", nil, slog.String("type", string(event.Type)))
		}
		if err != nil {
			r.warn(ctx, "store rejected a watch event", err, slog.String("type", string(event.Type)))
		}
		setRV(rv, pastInitialAdds)
		eventCount++
		if exitOnInitialEventsEnd && initialEventsEnd {
			stopWatcher = false
			return true, nil
		}
	}

	if r.clock.Since(start) < veryShortWatch && eventCount == 0 {
		return initialEventsEnd, &VeryShortWatchError{Name: r.name}
	}
	return initialEventsEnd, nil
}

// acceptEvent checks an event's object: the expected Go type, the expected kind for
// unstructured objects, no Table rows, and metadata present. A rejected event is logged and
// skipped, never fatal.
func (r *Reflector) acceptEvent(ctx context.Context, event watch.Event) (api.MetaObject, bool) {
	if r.expectedType != nil && reflect.TypeOf(event.Object) != r.expectedType {
		r.warn(ctx, "unexpected watch event object type", nil,
			slog.String("expectedType", r.expectedType.String()), slog.String("actualType", reflect.TypeOf(event.Object).String()))
		return nil, true
	}
	if r.expectedGVK != nil {
		if got := event.Object.GetObjectKind().GroupVersionKind(); got != *r.expectedGVK {
			r.warn(ctx, "unexpected watch event object gvk", nil,
				slog.String("expectedGVK", r.expectedGVK.String()), slog.String("actualGVK", got.String()))
			return nil, true
		}
	}
	if isUnsupportedTableObject(event.Object) {
		r.warn(ctx, "unsupported watch event object gvk", nil, slog.String("type", string(event.Type)))
		return nil, true
	}
	meta, err := api.Accessor(event.Object)
	if err != nil {
		r.warn(ctx, "unable to understand watch event", err, slog.String("type", string(event.Type)))
		return nil, true
	}
	return meta, false
}

// traceEvent logs one accepted event: op "bookmark" for bookmarks, else "event" with its type.
func (r *Reflector) traceEvent(t watch.EventType, meta api.MetaObject, rv string) {
	if t == watch.Bookmark {
		if meta.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
			trace.Hop(r.logger, traceComponent, "bookmark", "", rv, slog.Bool("initialEventsEnd", true))
			return
		}
		trace.Hop(r.logger, traceComponent, "bookmark", "", rv)
		return
	}
	key := meta.GetName()
	if ns := meta.GetNamespace(); ns != "" {
		key = ns + "/" + key
	}
	trace.Hop(r.logger, traceComponent, "event", key, rv, slog.String(trace.KeyType, string(t)))
}
