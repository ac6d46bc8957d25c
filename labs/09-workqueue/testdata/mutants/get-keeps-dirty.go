// Get moves the item to the processing set but leaves it in the dirty set.
//
// Plausible because the item is still "to be handled"; but an Add that arrives while the
// worker runs then finds the item dirty and is collapsed into the very run that may have
// read the old state: the change is lost (WQ-2).
//
// File: workqueue/queue.go
// Caught by: TestCh09_WQ2_Get
package workqueue

func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		return item, true
	}
	item = q.queue.Pop()
	q.processing[item] = struct{}{}
	return item, false
}
