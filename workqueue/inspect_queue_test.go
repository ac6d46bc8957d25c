package workqueue

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// queueState is a copy of the three sets, for comparing against a model.
type queueState[T comparable] struct {
	Queued     []T
	Dirty      map[T]bool
	Processing map[T]bool
	Shutdown   bool
}

// snapshot copies the sets under the lock. It needs the DefaultQueue to read the order.
func (q *Typed[T]) snapshot() queueState[T] {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := queueState[T]{Dirty: map[T]bool{}, Processing: map[T]bool{}, Shutdown: q.shuttingDown}
	if fifo, ok := q.queue.(*queue[T]); ok {
		s.Queued = slices.Clone(fifo.items[fifo.head:])
	}
	for k := range q.dirty {
		s.Dirty[k] = true
	}
	for k := range q.processing {
		s.Processing[k] = true
	}
	return s
}

// checkInvariants is the white-box inspector of INV-23, called after every operation of
// the property tests: the queue has no duplicates, no queued item is processing, every
// queued item is dirty, and every dirty item is either queued or processing (otherwise an
// Add would be lost). It also checks that drain is only set while shutting down.
func (q *Typed[T]) checkInvariants() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	fifo, ok := q.queue.(*queue[T])
	if !ok {
		return fmt.Errorf("the inspector reads only the DefaultQueue, got %T", q.queue)
	}
	queued := make(map[T]struct{}, fifo.Len())
	for _, item := range fifo.items[fifo.head:] {
		if _, dup := queued[item]; dup {
			return fmt.Errorf("item %v is queued twice", item)
		}
		queued[item] = struct{}{}
		if _, busy := q.processing[item]; busy {
			return fmt.Errorf("item %v is queued and processing", item)
		}
		if _, dirty := q.dirty[item]; !dirty {
			return fmt.Errorf("queued item %v is not dirty", item)
		}
	}
	for item := range q.dirty {
		_, isQueued := queued[item]
		_, busy := q.processing[item]
		if !isQueued && !busy {
			return fmt.Errorf("dirty item %v is neither queued nor processing: its Add is lost", item)
		}
	}
	if q.drain && !q.shuttingDown {
		return fmt.Errorf("drain set without shuttingDown")
	}
	return nil
}

// waitingLoops returns the stacks of live delaying-queue waiting loops. It matches the
// creator, not the function: a loop that has not run yet shows no frame of its own.
func waitingLoops() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "created by github.com/informer-lab/informer-lab/workqueue.NewTypedDelayingQueueWithConfig") {
			found = append(found, g)
		}
	}
	return found
}

// requireNoWaitingLoops fails the test if a waiting loop is still running. ShutDown waits
// for the loop to close loopDone, and the goroutine ends a moment later, so this polls for a
// bounded time (outside synctest bubbles, which detect leaks themselves).
func requireNoWaitingLoops(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		left := waitingLoops()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d waiting loop(s) still running:\n%s", len(left), strings.Join(left, "\n\n"))
		}
		<-tick.C // bounded polling
	}
}
