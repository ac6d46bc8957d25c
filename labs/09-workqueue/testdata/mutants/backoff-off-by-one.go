// The exponential limiter counts the failure before computing the delay, so the first retry
// already waits twice the base delay.
//
// Plausible because "this is failure number one" reads naturally; but client-go's first
// requeue waits exactly baseDelay (5 ms by default), and every later delay is doubled once
// too often (WQ-30).
//
// File: workqueue/default_rate_limiters.go
// Caught by: TestCh09_WQ30_ItemExponentialFailure
package workqueue

import (
	"math"
	"time"
)

func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures[item]++
	backoff := float64(r.baseDelay) * math.Pow(2, float64(r.failures[item]))
	if backoff >= overflowDuration {
		return r.maxDelay
	}
	if d := time.Duration(backoff); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}
