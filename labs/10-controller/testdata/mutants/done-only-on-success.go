// The worker calls Done only after a successful reconcile, as if Done meant "succeeded".
//
// Plausible because a failed key "is not done yet"; but Done means "this worker has finished
// with the key". A failed key stays in the processing set, its AddRateLimited only marks it
// dirty, and it is never handed out again: the retry never happens (WQ-3).
//
// File: controller/loop.go
// Caught by: TestCh10_T19_RetryTwiceThenSucceed
package controller

import "context"

func (l *Loop) ProcessNextWorkItem(ctx context.Context) bool {
	key, shutdown := l.Queue.Get()
	if shutdown {
		return false
	}
	if ctx.Err() != nil {
		l.Queue.Done(key)
		return false
	}
	err := l.Reconcile(ctx, key)
	l.handleErr(ctx, err, key)
	if err == nil {
		l.Queue.Done(key)
	}
	return true
}
