// Add queues an item that is being processed, instead of only marking it dirty so that Done
// queues it later.
//
// Plausible because "the object changed, so queue it" is what Add is for; but a second worker
// can then Get the same key while the first is still reconciling it, and two workers write
// the same object concurrently (WQ-1, WQ-4, INV-23).
//
// File: workqueue/queue.go
// TestCh09_WQ4_ConcurrentNoDoubleProcessing also catches it when the scheduler lets two
// workers meet, which a loaded machine may not; TestCh09_WQ1_Add always does.
// Caught by: TestCh09_WQ1_Add
package workqueue

func (q *Typed[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown || q.isDirty(item) {
		return
	}
	q.dirty[item] = struct{}{}
	q.queue.Push(item)
	q.cond.Signal()
}
