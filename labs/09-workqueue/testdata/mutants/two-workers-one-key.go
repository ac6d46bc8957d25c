// Add queues an item that is being processed, instead of only marking it dirty so that Done
// queues it later.
//
// Plausible because "the object changed, so queue it" is what Add is for; but a second worker
// can then Get the same key while the first is still reconciling it, and two workers write
// the same object concurrently (WQ-1, WQ-4, INV-23).
//
// File: workqueue/queue.go
// Caught by: TestCh09_WQ1_Add, TestCh09_WQ4_ConcurrentNoDoubleProcessing
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
