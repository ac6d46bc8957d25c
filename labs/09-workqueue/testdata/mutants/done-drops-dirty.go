// Done removes the item from the processing set but does not queue it again when it was
// added while being processed.
//
// Plausible because the item was "already done"; but the Add during processing reported a
// change the worker may not have seen, and that change is now lost until some later event
// (WQ-3).
//
// File: workqueue/queue.go
// Caught by: TestCh09_WQ3_Done, TestCh09_WQ4_VerifiedSequence
package workqueue

func (q *Typed[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.processing, item)
	if len(q.processing) == 0 && q.drain {
		q.cond.Broadcast()
	}
}
