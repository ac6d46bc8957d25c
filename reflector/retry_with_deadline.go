package reflector

import (
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
)

// retryWithDeadline mirrors the unexported retryWithDeadlineImpl of client-go
// tools/cache/retry_with_deadline.go. It answers "may this internal error be retried right
// away?": yes while such errors have been happening for no longer than maxRetryDuration. A
// quiet gap of minResetPeriod between two of them starts a new window (R-16, 500 case).
type retryWithDeadline struct {
	firstErrorTime   time.Time
	lastErrorTime    time.Time
	maxRetryDuration time.Duration
	minResetPeriod   time.Duration
	isRetryable      func(error) bool
	clock            clock.Clock
}

func newRetryWithDeadline(maxRetryDuration, minResetPeriod time.Duration, isRetryable func(error) bool, c clock.Clock) *retryWithDeadline {
	return &retryWithDeadline{
		maxRetryDuration: maxRetryDuration,
		minResetPeriod:   minResetPeriod,
		isRetryable:      isRetryable,
		clock:            clock.Or(c),
	}
}

func (r *retryWithDeadline) reset() {
	r.firstErrorTime, r.lastErrorTime = time.Time{}, time.Time{}
}

// after records the outcome of one watch; only retryable errors move the window.
func (r *retryWithDeadline) after(err error) {
	if !r.isRetryable(err) {
		return
	}
	now := r.clock.Now()
	if now.Sub(r.lastErrorTime) >= r.minResetPeriod {
		r.reset()
	}
	if r.firstErrorTime.IsZero() {
		r.firstErrorTime = now
	}
	r.lastErrorTime = now
}

// shouldRetry reports whether the window is still open; a closed window is forgotten.
func (r *retryWithDeadline) shouldRetry() bool {
	if r.maxRetryDuration <= 0 {
		return false
	}
	if r.clock.Now().Sub(r.firstErrorTime) <= r.maxRetryDuration {
		return true
	}
	r.reset()
	return false
}
