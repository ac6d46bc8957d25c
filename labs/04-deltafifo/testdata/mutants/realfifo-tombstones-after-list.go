// RealFIFO's non-atomic relist appends the listed objects first and the tombstones after them.
//
// Plausible because the order of a Replace's parts looks arbitrary; but handlers then see a
// new object under a name before the deletion of the old one it replaced, and a consumer
// counting objects briefly sees both (RF-4, T23).
//
// File: deltafifo/the_real_fifo.go
// Caught by: TestCh04_RF4_NonAtomicReplace
package deltafifo

import (
	"fmt"

	"github.com/informer-lab/informer-lab/store"
)

func (f *RealFIFO) replaceLocked(list []any) error {
	listed := make(map[string]struct{}, len(list))
	for _, obj := range list {
		key, err := f.keyOf(obj)
		if err != nil {
			return store.KeyError{Obj: obj, Err: err}
		}
		listed[key] = struct{}{}
	}
	var queuedOrder []string
	last := make(map[string]Delta)
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return store.KeyError{Obj: d.Object, Err: err}
		}
		if _, seen := last[key]; !seen {
			queuedOrder = append(queuedOrder, key)
		}
		last[key] = d
	}
	for _, obj := range list {
		if err := f.appendLocked(Replaced, false, obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	for _, key := range queuedOrder {
		if _, ok := listed[key]; ok {
			continue
		}
		if d := last[key]; d.Type != Deleted {
			if err := f.appendLocked(Deleted, true, store.DeletedFinalStateUnknown{Key: key, Obj: d.Object}); err != nil {
				return fmt.Errorf("couldn't enqueue object: %w", err)
			}
		}
	}
	for _, key := range f.knownObjects.ListKeys() {
		if _, ok := listed[key]; ok {
			continue
		}
		if _, queued := last[key]; queued {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			obj = nil
		}
		if err := f.appendLocked(Deleted, true, store.DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}
