package deltafifo

import "fmt"

// checkInvariants is the white-box inspector (docs/behaviour/client-go.md N-6) the tests call after every operation.
// It lives in a _test.go file, so it is compiled only into tests. It checks INV-20: the queue
// and the items hold the same keys, the queue has no duplicates, no Deltas is empty, no Deltas
// has two adjacent Deleted deltas, and the initial count is not negative.
// HasSynced monotonicity needs history, so the tests check that themselves.
func (f *DeltaFIFO) checkInvariants() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if len(f.queue) != len(f.items) {
		return fmt.Errorf("queue has %d keys, items has %d", len(f.queue), len(f.items))
	}
	seen := make(map[string]struct{}, len(f.queue))
	for _, key := range f.queue {
		if _, dup := seen[key]; dup {
			return fmt.Errorf("key %q is queued twice", key)
		}
		seen[key] = struct{}{}
		deltas, ok := f.items[key]
		if !ok {
			return fmt.Errorf("queued key %q has no items", key)
		}
		if len(deltas) == 0 {
			return fmt.Errorf("key %q has empty Deltas", key)
		}
		for i := 1; i < len(deltas); i++ {
			if deltas[i].Type == Deleted && deltas[i-1].Type == Deleted {
				return fmt.Errorf("key %q has adjacent Deleted deltas at %d and %d", key, i-1, i)
			}
		}
	}
	if f.initialPopulationCount < 0 {
		return fmt.Errorf("initialPopulationCount is %d", f.initialPopulationCount)
	}
	if f.isSynced != dfIsClosedChan(f.syncedLatch) {
		return fmt.Errorf("isSynced=%v disagrees with the latch channel", f.isSynced)
	}
	return nil
}

// dfIsClosedChan reports whether ch is closed, without blocking.
func dfIsClosedChan(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
