// A Deleted delta carrying a DeletedFinalStateUnknown tombstone is dropped, on the idea that
// a tombstone is not a real object.
//
// Plausible because the tombstone's object may be stale; but the tombstone is the only news
// of a delete the watch missed: without it the indexer keeps the object forever and no
// handler hears of the delete (C-6, T4).
//
// File: informer/process_deltas.go
// Caught by: TestCh06_ProcessDeltas_C6_DeleteIsUnconditional
package informer

import (
	"fmt"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

func processDeltas(handler processor.ResourceEventHandler, clientState store.Store, deltas deltafifo.Deltas, isInInitialList bool, keyFunc store.KeyFunc) error {
	for _, d := range deltas {
		switch d.Type {
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			if err := addOrUpdate(handler, clientState, d.Object, isInInitialList); err != nil {
				return err
			}
		case deltafifo.Deleted:
			if _, tombstone := d.Object.(store.DeletedFinalStateUnknown); tombstone {
				continue
			}
			if err := clientState.Delete(d.Object); err != nil {
				return err
			}
			handler.OnDelete(d.Object)
		case deltafifo.ReplacedAll:
			info, ok := d.Object.(deltafifo.ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("a ReplacedAll delta carries %T, not ReplacedAllInfo", d.Object)
			}
			if err := processReplacedAll(handler, clientState, info, isInInitialList, keyFunc); err != nil {
				return err
			}
		case deltafifo.SyncAll:
			for _, obj := range clientState.List() {
				handler.OnUpdate(obj, obj)
			}
		case deltafifo.Bookmark:
			info, ok := d.Object.(deltafifo.BookmarkInfo)
			if !ok {
				return fmt.Errorf("a Bookmark delta carries %T, not BookmarkInfo", d.Object)
			}
			clientState.Bookmark(info.ResourceVersion)
		default:
			return fmt.Errorf("unknown delta type %q", d.Type)
		}
	}
	return nil
}
