// Replace tombstones the queued keys the list no longer has, but never asks KnownObjects
// (the indexer) about keys that are cached and not queued.
//
// Plausible because the queue looks like the whole truth; but a delete event lost while the
// watch was down is then never delivered, and the indexer keeps the object forever (DF-7, T5).
//
// File: deltafifo/delta_fifo.go
// Caught by: TestCh04_T5_KnownObjectsFindMissedDeletes
package deltafifo

import "github.com/informer-lab/informer-lab/store"

func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	defer f.cond.Broadcast()

	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	listed := make(map[string]struct{}, len(list))
	for _, item := range list {
		key, err := f.KeyOf(item)
		if err != nil {
			return store.KeyError{Obj: item, Err: err}
		}
		listed[key] = struct{}{}
		if err := f.queueKeyedLocked(key, action, item, true, "enqueue"); err != nil {
			return err
		}
	}
	queuedDeletions := 0
	for key, deltas := range f.items {
		if _, ok := listed[key]; ok {
			continue
		}
		last := deltas.Newest().Object
		if d, ok := last.(store.DeletedFinalStateUnknown); ok {
			last = d.Obj
		}
		queuedDeletions++
		if err := f.queueKeyedLocked(key, Deleted, store.DeletedFinalStateUnknown{Key: key, Obj: last}, false, "tombstone"); err != nil {
			return err
		}
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + queuedDeletions
		f.checkSyncedLocked()
	}
	f.lastSyncResourceVersion = resourceVersion
	return nil
}
