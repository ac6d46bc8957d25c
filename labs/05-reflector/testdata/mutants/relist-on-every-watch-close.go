// A watch that the server closes normally (its timeout) ends the cycle, so the reflector
// relists, instead of re-watching from the last resourceVersion.
//
// Plausible because "start again from scratch" always converges; but every watch timeout then
// costs a full LIST and a Replace, which is the load informers exist to avoid (R-16, T8).
//
// File: reflector/reflector_watch.go
// Caught by: TestCh05_NormalCloseRewatch_T8_R16
package reflector

import (
	"context"
	"errors"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

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
		start := r.clock.Now()
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
			var err error
			w, err = r.listerWatcher.WatchWithContext(ctx, opts)
			if err != nil {
				w = nil
				if isWatchErrorRetriable(err) {
					if !r.sleepBackoff(ctx) {
						return nil
					}
					continue
				}
				return err
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
		w = nil
		retry.after(err)
		if err == nil || errors.Is(err, errStopRequested) {
			return nil
		}
		switch {
		case api.IsTooManyRequests(err):
			if !r.sleepBackoff(ctx) {
				return nil
			}
			continue
		case api.IsInternalError(err) && retry.shouldRetry():
			continue
		}
		return nil
	}
}
