package ch09_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"golang.org/x/time/rate"

	"github.com/informer-lab/informer-lab/workqueue"
)

const ms = time.Millisecond

// TestCh09_T19_WhenSequences is teaching point T19: the exact When() sequence of every
// limiter (WQ-30 … WQ-35). items lists the item of each call; the bucket and the default
// controller limiter share their bucket across items, so "distinct" calls use a new item
// each time. Everything runs in virtual time, where all the calls happen at one instant,
// so the bucket's answers are exact.
func TestCh09_T19_WhenSequences(t *testing.T) {
	distinct := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint("key-", i)
		}
		return out
	}
	same := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "key"
		}
		return out
	}
	zeros := func(n int, d time.Duration) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = d
		}
		return out
	}
	tests := []struct {
		name    string
		limiter func() workqueue.TypedRateLimiter[string]
		items   []string
		want    []time.Duration
	}{
		{
			name: "WQ-30 ItemExponentialFailure(5ms, 1000s), one key",
			limiter: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*ms, 1000*time.Second)
			},
			items: same(20),
			want: []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms,
				1280 * ms, 2560 * ms, 5120 * ms, 10240 * ms, 20480 * ms, 40960 * ms, 81920 * ms, 163840 * ms,
				327680 * ms, 655360 * ms, 1000 * time.Second, 1000 * time.Second},
		},
		{
			name: "WQ-33 ItemFastSlow(1ms, 1s, 3), one key",
			limiter: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemFastSlowRateLimiter[string](ms, time.Second, 3)
			},
			items: same(5),
			want:  []time.Duration{ms, ms, ms, time.Second, time.Second},
		},
		{
			name: "WQ-31 Bucket(10 qps, burst 100), distinct keys",
			limiter: func() workqueue.TypedRateLimiter[string] {
				return &workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 100)}
			},
			items: distinct(103),
			want:  append(zeros(100, 0), 100*ms, 200*ms, 300*ms),
		},
		{
			name:    "WQ-32 DefaultControllerRateLimiter, one key: the exponential part wins",
			limiter: workqueue.DefaultTypedControllerRateLimiter[string],
			items:   same(5),
			want:    []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms},
		},
		{
			name:    "WQ-32 DefaultControllerRateLimiter, distinct keys: the 101st waits for the bucket",
			limiter: workqueue.DefaultTypedControllerRateLimiter[string],
			items:   distinct(102),
			want:    append(zeros(100, 5*ms), 100*ms, 200*ms),
		},
		{
			name:    "WQ-32 DefaultItemBasedRateLimiter, one key",
			limiter: workqueue.DefaultTypedItemBasedRateLimiter[string],
			items:   same(4),
			want:    []time.Duration{ms, 2 * ms, 4 * ms, 8 * ms},
		},
		{
			name: "WQ-34 MaxOf(exponential 1ms, fast-slow 4ms/1s after 2), one key",
			limiter: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedMaxOfRateLimiter(
					workqueue.NewTypedItemExponentialFailureRateLimiter[string](ms, time.Minute),
					workqueue.NewTypedItemFastSlowRateLimiter[string](4*ms, time.Second, 2))
			},
			items: same(5),
			want:  []time.Duration{4 * ms, 4 * ms, time.Second, time.Second, time.Second},
		},
		{
			name: "WQ-35 WithMaxWait(exponential 100ms, 500ms), one key",
			limiter: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedWithMaxWaitRateLimiter(
					workqueue.NewTypedItemExponentialFailureRateLimiter[string](100*ms, time.Hour), 500*ms)
			},
			items: same(5),
			want:  []time.Duration{100 * ms, 200 * ms, 400 * ms, 500 * ms, 500 * ms},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := tt.limiter()
				got := make([]time.Duration, len(tt.items))
				for i, item := range tt.items {
					got[i] = l.When(item)
				}
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

// TestCh09_T19_ForgetResets: Forget puts an item back to the base delay and NumRequeues to
// 0 (INV-25); other items keep their counts.
func TestCh09_T19_ForgetResets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := workqueue.DefaultTypedControllerRateLimiter[string]()
		for range 4 {
			l.When("a")
			l.When("b")
		}
		assert.Equal(t, 4, l.NumRequeues("a"))
		l.Forget("a")
		assert.Equal(t, 0, l.NumRequeues("a"))
		assert.Equal(t, 4, l.NumRequeues("b"))
		assert.Equal(t, 5*ms, l.When("a"))
		assert.Equal(t, 80*ms, l.When("b"))
	})
}

// Example_t19WhenSequences prints the delay sequence of each limiter for one item: what a
// key that keeps failing waits before each retry. The bucket here is one token per hour with
// a burst of 2, so its answers are easy to read (the default bucket is in the table test).
func Example_t19WhenSequences() {
	// round: the bucket's answers shrink by the real time that passes between calls
	// (microseconds); rounding to the minute hides that.
	show := func(name string, l workqueue.TypedRateLimiter[string], calls int, round time.Duration) {
		fmt.Printf("%-28s", name)
		for range calls {
			fmt.Printf(" %v", l.When("key").Round(round))
		}
		fmt.Println()
	}
	show("exponential 5ms, max 1000s:", workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*ms, 1000*time.Second), 6, 0)
	show("fast 1ms ×3, then slow 1s:", workqueue.NewTypedItemFastSlowRateLimiter[string](ms, time.Second, 3), 5, 0)
	show("bucket 1/h, burst 2:", &workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Every(time.Hour), 2)}, 4, time.Minute)
	show("max wait 15ms:", workqueue.NewTypedWithMaxWaitRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*ms, time.Hour), 15*ms), 4, 0)

	// The default limiter: 17 failures in, a key waits over 5 minutes; from the 19th, 1000 s.
	l := workqueue.DefaultTypedControllerRateLimiter[string]()
	var last []time.Duration
	for i := 1; i <= 20; i++ {
		if d := l.When("key"); i >= 16 {
			last = append(last, d)
		}
	}
	fmt.Println("default, calls 16-20:        ", last)
	// Output:
	// exponential 5ms, max 1000s:  5ms 10ms 20ms 40ms 80ms 160ms
	// fast 1ms ×3, then slow 1s:   1ms 1ms 1ms 1s 1s
	// bucket 1/h, burst 2:         0s 0s 1h0m0s 2h0m0s
	// max wait 15ms:               5ms 10ms 15ms 15ms
	// default, calls 16-20:         [2m43.84s 5m27.68s 10m55.36s 16m40s 16m40s]
}
