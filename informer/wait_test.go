package informer

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/processor"
)

// TestCh08_WaitForCacheSync_SI20: the functions are checked at once and then every 100 ms, until
// all are true (true) or stopCh closes (false) (SI-20).
func TestCh08_WaitForCacheSync_SI20(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		yes := func() bool { return true }
		assert.True(t, WaitForCacheSync(nil, yes, yes))
		assert.True(t, WaitForCacheSync(nil))
		assert.Equal(t, start, time.Now(), "already synced: no waiting at all")

		var calls atomic.Int32
		readyAt := start.Add(250 * time.Millisecond)
		later := func() bool { calls.Add(1); return !time.Now().Before(readyAt) }
		assert.True(t, WaitForCacheSync(nil, yes, later))
		assert.Equal(t, 300*time.Millisecond, time.Since(start), "polled on the 100 ms grid")
		assert.Equal(t, int32(4), calls.Load(), "at 0, 100, 200 and 300 ms")

		stop := make(chan struct{})
		go func() {
			time.Sleep(time.Second)
			close(stop)
		}()
		never := func() bool { return false }
		assert.False(t, WaitForCacheSync(stop, yes, never))
	})
}

// TestCh08_WaitFor_SI20: WaitFor waits on Done channels without polling; it is false if the
// context ends first, unless the checker was done by then (SI-20).
func TestCh08_WaitFor_SI20(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		a, b := make(chan struct{}), make(chan struct{})
		go func() {
			time.Sleep(250 * time.Millisecond)
			close(a)
			time.Sleep(10 * time.Millisecond)
			close(b)
		}()
		assert.True(t, WaitFor(context.Background(), "caches", processor.NewDoneChecker("a", a), processor.NewDoneChecker("b", b)))
		assert.Equal(t, 260*time.Millisecond, time.Since(start), "returns the moment the last one is done")
		assert.True(t, WaitFor(context.Background(), "nothing"))

		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		assert.False(t, WaitFor(ctx, "never", processor.NewDoneChecker("a", a), processor.NewDoneChecker("never", make(chan struct{}))))

		cancelled, cancel2 := context.WithCancel(context.Background())
		cancel2()
		assert.True(t, WaitFor(cancelled, "already done", processor.NewDoneChecker("a", a)),
			"a checker that is done when the context ends still counts")
	})
}
