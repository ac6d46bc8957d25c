// A failed reconcile is always requeued with AddRateLimited; the key is never given up.
//
// Plausible because a level-triggered controller "will get there eventually"; but a key that
// can never succeed (a bad spec) then retries forever at the maximum backoff, and the error
// is never reported (T19).
//
// File: controller/loop.go
// Caught by: TestCh10_T19_GiveUpAfterMaxRetries, TestCh10_LoopDecisionThenEffect
package controller

import "context"

func (l *Loop) handleErr(ctx context.Context, err error, key string) {
	if err == nil {
		l.Queue.Forget(key)
		return
	}
	if l.OnRetry != nil {
		l.OnRetry(ctx, key, l.Queue.NumRequeues(key), err)
	}
	l.Queue.AddRateLimited(key)
}
