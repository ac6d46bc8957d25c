package ch09_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/workqueue"
)

// These tests run in testing/synctest bubbles: time is virtual and moves only when every
// goroutine of the bubble is blocked, so "x appears at 50ms" is exact, and a goroutine left
// blocked when the bubble ends (a leaked waiting loop, a stuck worker) fails the test.

// TestCh09_T20_AddAfterEarliestWins is teaching point T20 (WQ-21, INV-24): of two pending
// AddAfters of one item, the earlier deadline wins and the item appears once.
func TestCh09_T20_AddAfterEarliestWins(t *testing.T) {
	tests := []struct {
		name   string
		delays []time.Duration
		want   time.Duration
	}{
		{"50ms then 70ms: the later one is ignored", []time.Duration{50 * ms, 70 * ms}, 50 * ms},
		{"50ms then 30ms: the earlier one moves it up", []time.Duration{50 * ms, 30 * ms}, 30 * ms},
		{"200ms then 50ms: present after 100ms (WQ-24)", []time.Duration{200 * ms, 50 * ms}, 50 * ms},
		{"0 adds at once (WQ-20)", []time.Duration{0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := workqueue.NewTypedDelayingQueue[string]()
				defer q.ShutDown()
				start := time.Now()
				for _, d := range tt.delays {
					q.AddAfter("x", d)
				}
				item, shutdown := q.Get() // blocks; virtual time runs until x is added
				require.False(t, shutdown)
				assert.Equal(t, "x", item)
				assert.Equal(t, tt.want, time.Since(start))
				q.Done(item)

				time.Sleep(time.Second) // virtual: long past every deadline
				assert.Zero(t, q.Len(), "x appears once")
			})
		})
	}
}

// TestCh09_T21_ShutDownVersusDrain is teaching point T21 (WQ-6, WQ-7, WQ-8): what a worker
// that is still holding item "busy" sees, and when the shutdown call returns.
func TestCh09_T21_ShutDownVersusDrain(t *testing.T) {
	tests := []struct {
		name string
		// shutdown is called while "busy" is processing and "queued" waits in the queue.
		shutdown func(q workqueue.TypedInterface[string])
		// forceAfter calls ShutDown while the first call still blocks.
		forceAfter bool
		// returnsBeforeDone: the shutdown call returned before the worker's Done.
		returnsBeforeDone bool
	}{
		{"ShutDown returns at once (WQ-6)", workqueue.TypedInterface[string].ShutDown, false, true},
		{"ShutDownWithDrain waits for Done (WQ-8)", workqueue.TypedInterface[string].ShutDownWithDrain, false, false},
		{"ShutDown releases a waiting ShutDownWithDrain (WQ-8)", workqueue.TypedInterface[string].ShutDownWithDrain, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := workqueue.NewTyped[string]()
				q.Add("busy")
				busy, _ := q.Get()
				q.Add("busy") // made dirty while processing, before the shutdown (WQ-7)
				q.Add("queued")

				returned := make(chan struct{})
				go func() {
					tt.shutdown(q)
					close(returned)
				}()
				synctest.Wait()
				if tt.forceAfter {
					q.ShutDown()
					synctest.Wait()
				}
				select {
				case <-returned:
					assert.True(t, tt.returnsBeforeDone, "returned before Done")
				default:
					assert.False(t, tt.returnsBeforeDone, "still blocked before Done")
				}

				assert.True(t, q.ShuttingDown())
				q.Add("late") // ignored (WQ-6)
				q.Done(busy)  // requeues busy: it was dirty before the shutdown (WQ-7)
				<-returned

				var got []string
				for {
					item, shutdown := q.Get()
					if shutdown {
						break
					}
					got = append(got, item)
					q.Done(item)
				}
				assert.Equal(t, []string{"queued", "busy"}, got, "workers drain the queue after either shutdown")
			})
		})
	}
}

// TestCh09_T21_WorkersExitOnShutDown: the worker pattern `for { item, shutdown := q.Get();
// if shutdown { return } … }` ends every worker once the queue is shut down and drained,
// including workers blocked in Get; the delaying queue's own goroutine ends too, or the
// bubble would report it.
func TestCh09_T21_WorkersExitOnShutDown(t *testing.T) {
	for _, drain := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
			var workers sync.WaitGroup
			processed := map[string]int{}
			var mu sync.Mutex
			for range 3 {
				workers.Go(func() {
					for {
						item, shutdown := q.Get()
						if shutdown {
							return
						}
						mu.Lock()
						processed[item]++
						mu.Unlock()
						q.Done(item)
					}
				})
			}
			q.Add("a")
			q.AddRateLimited("b")          // due after 5ms
			q.AddAfter("never", time.Hour) // discarded by the shutdown
			time.Sleep(10 * ms)            // virtual
			if drain {
				q.ShutDownWithDrain()
			} else {
				q.ShutDown()
			}
			workers.Wait()
			assert.Equal(t, map[string]int{"a": 1, "b": 1}, processed)
		})
	}
}
