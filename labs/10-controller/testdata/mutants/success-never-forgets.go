// A successful reconcile returns without Forget.
//
// Plausible because nothing is requeued on success, so there seems to be nothing to clean
// up; but the rate limiter still counts the key's old failures, so its next failure, maybe
// days later, waits as if it had failed all along (WQ-30, T19).
//
// File: controller/loop.go
// Caught by: TestCh10_T19_RetryTwiceThenSucceed
package controller

import "context"

func (l *Loop) handleErr(ctx context.Context, err error, key string) {
	if err == nil {
		return
	}
	if n := l.Queue.NumRequeues(key); n < l.MaxRetries {
		if l.OnRetry != nil {
			l.OnRetry(ctx, key, n, err)
		}
		l.Queue.AddRateLimited(key)
		return
	}
	if l.OnGiveUp != nil {
		l.OnGiveUp(ctx, key, err)
	}
	l.Queue.Forget(key)
	if l.HandleError != nil {
		l.HandleError(key, err)
	}
}
