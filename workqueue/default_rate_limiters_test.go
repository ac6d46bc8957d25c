package workqueue

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

const ms = time.Millisecond

// whens calls When(item) n times.
func whens(l TypedRateLimiter[string], item string, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = l.When(item)
	}
	return out
}

// WQ-30: base·2ᶠ capped at max; NumRequeues counts; Forget resets. The defaults inside
// DefaultControllerRateLimiter: call 17 → 327.68 s, 18 → 655.36 s, ≥ 19 → 1000 s.
func TestCh09_WQ30_ItemExponentialFailure(t *testing.T) {
	l := NewTypedItemExponentialFailureRateLimiter[string](5*ms, 1000*time.Second)
	got := whens(l, "a", 20)
	assert.Equal(t, []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms}, got[:4])
	assert.Equal(t, 327680*ms, got[16], "call 17")
	assert.Equal(t, 655360*ms, got[17], "call 18")
	assert.Equal(t, 1000*time.Second, got[18], "call 19")
	assert.Equal(t, 1000*time.Second, got[19], "call 20")
	assert.Equal(t, 20, l.NumRequeues("a"))
	assert.Equal(t, 0, l.NumRequeues("b"), "per item")
	assert.Equal(t, 5*ms, l.When("b"))

	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
	assert.Equal(t, 5*ms, l.When("a"))
}

// WQ-30 overflow: once base·2ᶠ no longer fits a Duration the answer is max, including the
// exact 2⁶³ ns that client-go's "> MaxInt64" test lets through as a negative Duration.
func TestCh09_WQ30_Overflow(t *testing.T) {
	tests := []struct {
		name      string
		base, max time.Duration
		calls     int
		want      time.Duration // answer of the last call
	}{
		{"1ns·2^62 fits", 1, 1<<63 - 1, 63, 1 << 62},
		{"1ns·2^63 is exactly 2^63: capped", 1, time.Hour, 64, time.Hour},
		{"huge exponent: +Inf capped", 5 * ms, time.Minute, 2000, time.Minute},
		{"max above every delay", 1, 1<<63 - 1, 64, 1<<63 - 1},
		{"default limiter after 100 failures", 5 * ms, 1000 * time.Second, 100, 1000 * time.Second},
		{"zero base past 2^1024 stays zero", 0, time.Minute, 1100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewTypedItemExponentialFailureRateLimiter[string](tt.base, tt.max)
			got := whens(l, "x", tt.calls)
			assert.Equal(t, tt.want, got[len(got)-1])
			for i, d := range got {
				require.GreaterOrEqual(t, d, time.Duration(0), "call %d went negative", i+1)
			}
		})
	}
}

// WQ-31: a token bucket, initially full, shared by all items: with 10 qps and burst 100,
// calls 1–100 at one instant wait 0, then 100 ms, 200 ms, 300 ms. The reservations are
// kept, so the wait keeps growing; time refills the bucket. Run in virtual time so that
// "one instant" is exact.
func TestCh09_WQ31_Bucket(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 100)}
		for i := range 100 {
			require.Zero(t, l.When(fmt.Sprint("item", i)), "call %d", i+1)
		}
		assert.Equal(t, []time.Duration{100 * ms, 200 * ms, 300 * ms}, whens(l, "any", 3))
		assert.Equal(t, 0, l.NumRequeues("any"))
		l.Forget("any") // no-op
		assert.Equal(t, 400*ms, l.When("any"))

		time.Sleep(time.Second) // virtual: the four reservations are paid, 6 tokens refilled
		assert.Equal(t, []time.Duration{0, 0, 0, 0, 0, 0, 100 * ms}, whens(l, "any", 7))
	})
	// Without a *rate.Limiter nothing is limited (client-go would panic).
	assert.Zero(t, (&TypedBucketRateLimiter[string]{}).When("a"))
}

// WQ-32: the two defaults.
func TestCh09_WQ32_Defaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// One item: the exponential part dominates while the bucket has tokens.
		l := DefaultTypedControllerRateLimiter[string]()
		assert.Equal(t, []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms}, whens(l, "a", 5))
		assert.Equal(t, 5, l.NumRequeues("a"))

		// Distinct items at one instant (T19): the 101st waits for the bucket.
		l = DefaultTypedControllerRateLimiter[string]()
		for i := range 100 {
			require.Equal(t, 5*ms, l.When(fmt.Sprint("k", i)))
		}
		assert.Equal(t, 100*ms, l.When("k100"))
		assert.Equal(t, 200*ms, l.When("k101"))
	})
	l := DefaultTypedItemBasedRateLimiter[string]()
	assert.Equal(t, []time.Duration{ms, 2 * ms, 4 * ms}, whens(l, "a", 3))
}

// WQ-33: fast while the (already incremented) failure count ≤ maxFast, then slow.
func TestCh09_WQ33_ItemFastSlow(t *testing.T) {
	l := NewTypedItemFastSlowRateLimiter[string](ms, time.Second, 3)
	assert.Equal(t, []time.Duration{ms, ms, ms, time.Second, time.Second}, whens(l, "a", 5))
	assert.Equal(t, 5, l.NumRequeues("a"))
	assert.Equal(t, ms, l.When("b"), "per item")
	l.Forget("a")
	assert.Equal(t, 0, l.NumRequeues("a"))
	assert.Equal(t, ms, l.When("a"))
}

// recordingLimiter answers a fixed delay and counts its calls.
type recordingLimiter struct {
	delay                 time.Duration
	requeues              int
	whens, forgets, asked int
}

func (r *recordingLimiter) When(string) time.Duration { r.whens++; return r.delay }
func (r *recordingLimiter) Forget(string)             { r.forgets++ }
func (r *recordingLimiter) NumRequeues(string) int    { r.asked++; return r.requeues }

// WQ-34: MaxOf calls every limiter (all side effects happen), returns the largest delay and
// the largest count, and forwards Forget to all.
func TestCh09_WQ34_MaxOf(t *testing.T) {
	a := &recordingLimiter{delay: 3 * ms, requeues: 7}
	b := &recordingLimiter{delay: 9 * ms, requeues: 2}
	c := &recordingLimiter{delay: ms, requeues: 4}
	l := NewTypedMaxOfRateLimiter[string](a, b, c)
	assert.Equal(t, 9*ms, l.When("x"))
	assert.Equal(t, 7, l.NumRequeues("x"))
	l.Forget("x")
	for i, r := range []*recordingLimiter{a, b, c} {
		assert.Equal(t, [3]int{1, 1, 1}, [3]int{r.whens, r.asked, r.forgets}, "limiter %d", i)
	}
	assert.Zero(t, NewTypedMaxOfRateLimiter[string]().When("x"), "no limiters: no wait")
}

// WQ-35: WithMaxWait caps the delay and delegates the rest.
func TestCh09_WQ35_WithMaxWait(t *testing.T) {
	inner := NewTypedItemExponentialFailureRateLimiter[string](100*ms, time.Hour)
	l := NewTypedWithMaxWaitRateLimiter(inner, 500*ms)
	assert.Equal(t, []time.Duration{100 * ms, 200 * ms, 400 * ms, 500 * ms, 500 * ms}, whens(l, "a", 5))
	assert.Equal(t, 5, l.NumRequeues("a"))
	l.Forget("a")
	assert.Equal(t, 0, inner.NumRequeues("a"))
}

// INV-25 property test: for the per-item limiters, When never decreases between Forgets,
// and after Forget the count is 0 and the next When is the base delay.
func TestCh09_INV25_Property(t *testing.T) {
	limiters := map[string]struct {
		make func() TypedRateLimiter[string]
		base time.Duration
	}{
		"exponential": {func() TypedRateLimiter[string] {
			return NewTypedItemExponentialFailureRateLimiter[string](ms, time.Minute)
		}, ms},
		"fast-slow": {func() TypedRateLimiter[string] {
			return NewTypedItemFastSlowRateLimiter[string](ms, time.Second, 4)
		}, ms},
	}
	for name, lm := range limiters {
		for seed := range uint64(10) {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 25))
				l := lm.make()
				last := map[string]time.Duration{}
				for range 500 {
					item := fmt.Sprint("i", r.IntN(4))
					if r.IntN(6) == 0 {
						l.Forget(item)
						require.Zero(t, l.NumRequeues(item))
						delete(last, item)
						continue
					}
					d := l.When(item)
					if prev, ok := last[item]; ok {
						require.GreaterOrEqual(t, d, prev, "When decreased for %s", item)
					} else {
						require.Equal(t, lm.base, d, "first When after Forget is the base")
					}
					last[item] = d
				}
			})
		}
	}
}

// The deprecated limiter names still build the same limiters.
func TestCh09_DeprecatedLimiterAliases(t *testing.T) {
	assert.Equal(t, 5*ms, NewItemExponentialFailureRateLimiter(5*ms, time.Second).When("a"))
	assert.Equal(t, ms, NewItemFastSlowRateLimiter(ms, time.Second, 1).When("a"))
	l := NewMaxOfRateLimiter(NewItemExponentialFailureRateLimiter(2*ms, time.Second), &BucketRateLimiter{})
	assert.Equal(t, 2*ms, l.When("a"))
	assert.Equal(t, 3*ms, NewWithMaxWaitRateLimiter(NewItemFastSlowRateLimiter(ms, time.Hour, 0), 3*ms).When(1))
	var _ *ItemExponentialFailureRateLimiter
	var _ *ItemFastSlowRateLimiter
	var _ *MaxOfRateLimiter
	var _ *WithMaxWaitRateLimiter
}
