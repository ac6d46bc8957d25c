package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimiter mirrors the deprecated workqueue.RateLimiter in client-go
// util/workqueue/default_rate_limiters.go.
//
// Deprecated: use TypedRateLimiter.
type RateLimiter TypedRateLimiter[any]

// TypedRateLimiter mirrors workqueue.TypedRateLimiter in client-go
// util/workqueue/default_rate_limiters.go: it decides how long an item waits before a retry.
type TypedRateLimiter[T comparable] interface {
	// When returns how long item should wait, and counts the attempt.
	When(item T) time.Duration
	// Forget stops tracking item: its next When starts from scratch.
	Forget(item T)
	// NumRequeues returns how many failures item has had since its last Forget.
	NumRequeues(item T) int
}

// DefaultControllerRateLimiter mirrors the deprecated workqueue.DefaultControllerRateLimiter.
//
// Deprecated: use DefaultTypedControllerRateLimiter.
func DefaultControllerRateLimiter() RateLimiter {
	return DefaultTypedControllerRateLimiter[any]()
}

// DefaultTypedControllerRateLimiter mirrors workqueue.DefaultTypedControllerRateLimiter
// (WQ-32): the larger of a per-item exponential backoff (5 ms·2ⁿ, capped at 1000 s) and an
// overall token bucket (10 qps, burst 100) that slows a storm of retries across all items.
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// DefaultItemBasedRateLimiter mirrors the deprecated workqueue.DefaultItemBasedRateLimiter.
//
// Deprecated: use DefaultTypedItemBasedRateLimiter.
func DefaultItemBasedRateLimiter() RateLimiter {
	return DefaultTypedItemBasedRateLimiter[any]()
}

// DefaultTypedItemBasedRateLimiter mirrors workqueue.DefaultTypedItemBasedRateLimiter
// (WQ-32): per-item exponential backoff from 1 ms, capped at 1000 s, and no overall limit.
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// BucketRateLimiter mirrors the deprecated workqueue.BucketRateLimiter.
//
// Deprecated: use TypedBucketRateLimiter.
type BucketRateLimiter = TypedBucketRateLimiter[any]

// TypedBucketRateLimiter mirrors workqueue.TypedBucketRateLimiter (WQ-31): a token bucket
// shared by all items. Each When takes a token, waiting for it if the bucket is empty; the
// reservation is never cancelled, so a burst of retries spreads out at the bucket's rate.
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

// When mirrors TypedBucketRateLimiter.When: it reserves one token and returns how long until
// it is available. Without a Limiter (client-go would panic) nothing is limited.
func (r *TypedBucketRateLimiter[T]) When(T) time.Duration {
	if r.Limiter == nil {
		return 0
	}
	// One clock reading for both the reservation and its delay (Reserve().Delay() reads it
	// twice): the delay is then exact as of the reservation, and a read of the clock is a
	// good part of the cost of this call.
	now := time.Now()
	return r.ReserveN(now, 1).DelayFrom(now)
}

// NumRequeues mirrors TypedBucketRateLimiter.NumRequeues: always 0, the bucket does not
// count per item.
func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget mirrors TypedBucketRateLimiter.Forget: a no-op, the bucket keeps no per-item state.
func (r *TypedBucketRateLimiter[T]) Forget(T) {}

// ItemExponentialFailureRateLimiter mirrors the deprecated
// workqueue.ItemExponentialFailureRateLimiter.
//
// Deprecated: use TypedItemExponentialFailureRateLimiter.
type ItemExponentialFailureRateLimiter = TypedItemExponentialFailureRateLimiter[any]

// TypedItemExponentialFailureRateLimiter mirrors workqueue.TypedItemExponentialFailureRateLimiter
// (WQ-30): the n-th failure of an item since its last Forget waits baseDelay·2ⁿ⁻¹, capped at
// maxDelay. Giving up after too many failures is the caller's job.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int

	baseDelay time.Duration
	maxDelay  time.Duration
}

// NewItemExponentialFailureRateLimiter mirrors the deprecated
// workqueue.NewItemExponentialFailureRateLimiter.
//
// Deprecated: use NewTypedItemExponentialFailureRateLimiter.
func NewItemExponentialFailureRateLimiter(baseDelay, maxDelay time.Duration) RateLimiter {
	return NewTypedItemExponentialFailureRateLimiter[any](baseDelay, maxDelay)
}

// NewTypedItemExponentialFailureRateLimiter mirrors
// workqueue.NewTypedItemExponentialFailureRateLimiter.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{
		failures:  map[T]int{},
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

// overflowDuration is 2⁶³ as a float64: the first value a time.Duration cannot hold.
const overflowDuration = float64(1 << 63)

// When mirrors TypedItemExponentialFailureRateLimiter.When: baseDelay·2ᶠ, f being the
// failures recorded before this call, capped at maxDelay; then it records one more failure.
// The power is computed in float64 so that it cannot wrap, and a result a Duration cannot
// hold is capped too. client-go tests "> MaxInt64", which lets exactly 2⁶³ ns through to
// convert to a negative Duration; we test "≥".
//
//lab:09.3
func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	exp := r.failures[item]
	r.failures[item] = exp + 1

	// Ldexp scales by 2ᶠ exactly, as multiplying by math.Pow(2, f) would, at a fifth of the
	// cost; and a zero base stays 0 for any f, where Pow's 0·(+Inf) past f = 1023 is NaN.
	backoff := math.Ldexp(float64(r.baseDelay), exp)
	if backoff >= overflowDuration {
		return r.maxDelay
	}
	if d := time.Duration(backoff); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}

// NumRequeues mirrors TypedItemExponentialFailureRateLimiter.NumRequeues: the failures
// recorded for item since its last Forget.
func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// Forget mirrors TypedItemExponentialFailureRateLimiter.Forget: it drops item's count.
func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// ItemFastSlowRateLimiter mirrors the deprecated workqueue.ItemFastSlowRateLimiter.
//
// Deprecated: use TypedItemFastSlowRateLimiter.
type ItemFastSlowRateLimiter = TypedItemFastSlowRateLimiter[any]

// TypedItemFastSlowRateLimiter mirrors workqueue.TypedItemFastSlowRateLimiter (WQ-33): the
// first maxFastAttempts retries of an item wait fastDelay, the later ones slowDelay.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	mu       sync.Mutex
	failures map[T]int

	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// NewItemFastSlowRateLimiter mirrors the deprecated workqueue.NewItemFastSlowRateLimiter.
//
// Deprecated: use NewTypedItemFastSlowRateLimiter.
func NewItemFastSlowRateLimiter(fastDelay, slowDelay time.Duration, maxFastAttempts int) RateLimiter {
	return NewTypedItemFastSlowRateLimiter[any](fastDelay, slowDelay, maxFastAttempts)
}

// NewTypedItemFastSlowRateLimiter mirrors workqueue.NewTypedItemFastSlowRateLimiter.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{
		failures:        map[T]int{},
		maxFastAttempts: maxFastAttempts,
		fastDelay:       fastDelay,
		slowDelay:       slowDelay,
	}
}

// When mirrors TypedItemFastSlowRateLimiter.When: it counts the failure first, then answers
// fastDelay while the count is at most maxFastAttempts, slowDelay after.
func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures[item]++
	if r.failures[item] <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

// NumRequeues mirrors TypedItemFastSlowRateLimiter.NumRequeues: the failures recorded for
// item since its last Forget.
func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// Forget mirrors TypedItemFastSlowRateLimiter.Forget: it drops item's count.
func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// MaxOfRateLimiter mirrors the deprecated workqueue.MaxOfRateLimiter.
//
// Deprecated: use TypedMaxOfRateLimiter.
type MaxOfRateLimiter = TypedMaxOfRateLimiter[any]

// TypedMaxOfRateLimiter mirrors workqueue.TypedMaxOfRateLimiter (WQ-34): it asks every
// limiter and answers the longest wait. Every limiter's When runs, so every one counts the
// attempt (a bucket spends a token even when the per-item delay is the longer one).
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewMaxOfRateLimiter mirrors the deprecated workqueue.NewMaxOfRateLimiter.
//
// Deprecated: use NewTypedMaxOfRateLimiter.
func NewMaxOfRateLimiter(limiters ...TypedRateLimiter[any]) RateLimiter {
	return NewTypedMaxOfRateLimiter(limiters...)
}

// NewTypedMaxOfRateLimiter mirrors workqueue.NewTypedMaxOfRateLimiter. With no limiters,
// When is always 0.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

// When mirrors TypedMaxOfRateLimiter.When: every limiter's When runs; the largest wins.
//
//lab:09.3
func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

// NumRequeues mirrors TypedMaxOfRateLimiter.NumRequeues: the largest count.
func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	most := 0
	for _, l := range r.limiters {
		most = max(most, l.NumRequeues(item))
	}
	return most
}

// Forget mirrors TypedMaxOfRateLimiter.Forget: it forwards to every limiter.
func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// WithMaxWaitRateLimiter mirrors the deprecated workqueue.WithMaxWaitRateLimiter.
//
// Deprecated: use TypedWithMaxWaitRateLimiter.
type WithMaxWaitRateLimiter = TypedWithMaxWaitRateLimiter[any]

// TypedWithMaxWaitRateLimiter mirrors workqueue.TypedWithMaxWaitRateLimiter (WQ-35): another
// limiter's delay, but never more than maxDelay.
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// NewWithMaxWaitRateLimiter mirrors the deprecated workqueue.NewWithMaxWaitRateLimiter.
//
// Deprecated: use NewTypedWithMaxWaitRateLimiter.
func NewWithMaxWaitRateLimiter(limiter RateLimiter, maxDelay time.Duration) RateLimiter {
	return NewTypedWithMaxWaitRateLimiter[any](limiter, maxDelay)
}

// NewTypedWithMaxWaitRateLimiter mirrors workqueue.NewTypedWithMaxWaitRateLimiter.
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When mirrors TypedWithMaxWaitRateLimiter.When: the wrapped limiter's delay, capped at
// maxDelay.
func (w *TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(w.limiter.When(item), w.maxDelay)
}

// Forget mirrors TypedWithMaxWaitRateLimiter.Forget: it forwards to the wrapped limiter.
func (w *TypedWithMaxWaitRateLimiter[T]) Forget(item T) { w.limiter.Forget(item) }

// NumRequeues mirrors TypedWithMaxWaitRateLimiter.NumRequeues: it asks the wrapped limiter.
func (w *TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int {
	return w.limiter.NumRequeues(item)
}
