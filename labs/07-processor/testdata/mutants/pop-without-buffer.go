// pop forwards each notification straight to run and waits until run takes it, with no ring
// in between.
//
// Plausible because an unbuffered hand-off keeps the order; but a slow handler then blocks
// pop, pop blocks Add, and Add is called by the informer's single processing goroutine, so
// one slow handler stalls every other handler and the whole informer (PL-1, T12).
//
// File: processor/processor_listener.go
// Caught by: TestCh07_PL1_AddNeverWaitsForHandler
package processor

func (l *ProcessorListener) pop() {
	if !l.popStarted.CompareAndSwap(false, true) {
		return
	}
	defer close(l.nextCh)
	defer close(l.done)
	for {
		select {
		case <-l.stopCh:
			return
		case n := <-l.addCh:
			select {
			case l.nextCh <- n:
			case <-l.stopCh:
				return
			}
		}
	}
}
