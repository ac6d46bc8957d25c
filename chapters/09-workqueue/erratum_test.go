package ch09_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/workqueue"
)

// TestCh09_Erratum_AddDoesNotBackOff pins the correction to 《Informer原理详解》 (section
// WorkQueue), which says each repeated Add doubles a key's delay. Add never delays and never
// counts: only AddRateLimited asks the limiter's When, which counts a failure and doubles the
// next delay (WQ-25, WQ-30). Virtual time makes the delays exact.
func TestCh09_Erratum_AddDoesNotBackOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
		defer q.ShutDown()

		// Ten plain Adds and Gets: each Get is immediate and nothing is counted.
		for range 10 {
			start := time.Now()
			q.Add("key")
			item, _ := q.Get()
			q.Done(item)
			assert.Zero(t, time.Since(start), "Add does not wait")
		}
		assert.Zero(t, q.NumRequeues("key"), "Add is not a failure")

		// AddRateLimited waits 5 ms, 10 ms, 20 ms: each call counts one failure.
		for i, want := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
			start := time.Now()
			q.AddRateLimited("key")
			item, shutdown := q.Get()
			require.False(t, shutdown)
			q.Done(item)
			assert.Equal(t, want, time.Since(start), "AddRateLimited call %d", i+1)
		}
		assert.Equal(t, 3, q.NumRequeues("key"))
	})
}
