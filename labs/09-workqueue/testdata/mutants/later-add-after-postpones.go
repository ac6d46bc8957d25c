// An AddAfter for an item that is already waiting replaces its ready time with the new one,
// even when the new one is later.
//
// Plausible because "the latest request wins" is the usual rule; but a burst of rate-limited
// requeues with growing delays then pushes the item back again and again, and a quick retry
// that was due is postponed (WQ-21).
//
// File: workqueue/delaying_queue.go
// Caught by: TestCh09_WQ21_WaitingLoop, TestCh09_INV24_Property
package workqueue

import "container/heap"

func insert[T comparable](waiting *waitForPriorityQueue[T], byData map[T]*waitFor[T], entry waitFor[T]) {
	if existing, ok := byData[entry.data]; ok {
		existing.readyAt = entry.readyAt
		heap.Fix(waiting, existing.index)
		return
	}
	e := &entry
	heap.Push(waiting, e)
	byData[entry.data] = e
}
