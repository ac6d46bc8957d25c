// A BOOKMARK event is skipped like an event with nothing to store, so its resourceVersion is
// never recorded.
//
// Plausible because a bookmark carries no object change; but its whole point is the RV: a
// quiet resource's watch then resumes from an old RV that the server may have compacted,
// and gets 410 and a full relist instead of a cheap re-watch.
//
// File: reflector/reflector_watch.go
// Caught by: TestCh05_EventsToStoreOps_R14_R19, TestCh05_NormalCloseRewatch_T8_R16
package reflector

import (
	"context"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

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
		var err error
		switch event.Type {
		case watch.Added:
			err = s.Add(event.Object)
		case watch.Modified:
			pastInitialAdds = true
			err = s.Update(event.Object)
		case watch.Deleted:
			pastInitialAdds = true
			err = s.Delete(event.Object)
		case watch.Bookmark:
			if meta.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
				initialEventsEnd = true
				if exitOnInitialEventsEnd {
					stopWatcher = false
					return true, nil
				}
			}
			continue
		default:
			r.warn(ctx, "unknown watch event type", nil, slog.String("type", string(event.Type)))
		}
		if err != nil {
			r.warn(ctx, "store rejected a watch event", err, slog.String("type", string(event.Type)))
		}
		setRV(rv, pastInitialAdds)
		eventCount++
	}
	if r.clock.Since(start) < veryShortWatch && eventCount == 0 {
		return initialEventsEnd, &VeryShortWatchError{Name: r.name}
	}
	return initialEventsEnd, nil
}
