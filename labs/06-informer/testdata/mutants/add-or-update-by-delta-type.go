// The delta's type decides between OnAdd and OnUpdate: Added is an add; Updated, Replaced and
// Sync are updates.
//
// Plausible because the names match; but the first list arrives as Replaced (or Sync) deltas
// for objects the cache has never seen, and handlers would get OnUpdate(nil, obj) for them
// (C-5): only the cache knows whether a key is new.
//
// File: informer/process_deltas.go
// Caught by: TestCh06_ProcessDeltas_C5_CachePresenceDecides
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
		case deltafifo.Added:
			if err := clientState.Add(d.Object); err != nil {
				return err
			}
			handler.OnAdd(d.Object, isInInitialList)
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Updated:
			old, _, err := clientState.Get(d.Object)
			if err != nil {
				return err
			}
			if err := clientState.Update(d.Object); err != nil {
				return err
			}
			handler.OnUpdate(old, d.Object)
		case deltafifo.Deleted:
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
