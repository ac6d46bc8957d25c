// After pop hands a notification to run, it waits for the next Add instead of offering the
// next buffered notification from the ring.
//
// Plausible because the ring is filled on Add, so reading it on Add looks symmetrical; but a
// backlog then drains one item per new event, and the last buffered notifications are only
// delivered when (if ever) more events arrive (PL-2).
//
// File: processor/processor_listener.go
// Caught by: TestCh07_PL1_AddNeverWaitsForHandler, TestCh07_PL3_PerListenerOrder
package processor

func (l *ProcessorListener) pop() {
	if !l.popStarted.CompareAndSwap(false, true) {
		return
	}
	defer close(l.nextCh)
	defer close(l.done)
	var nextCh chan<- any
	var next any
	for {
		select {
		case nextCh <- next:
			nextCh = nil
		case <-l.stopCh:
			return
		case n := <-l.addCh:
			if nextCh == nil {
				if buffered, ok := l.pendingNotifications.ReadOne(); ok {
					l.pendingLength.Add(-1)
					l.pendingNotifications.WriteOne(n)
					l.pendingLength.Add(1)
					n = buffered
				}
				next, nextCh = n, l.nextCh
				break
			}
			l.pendingNotifications.WriteOne(n)
			l.pendingLength.Add(1)
			l.pendingCap.Store(int64(l.pendingNotifications.Cap()))
		}
	}
}
