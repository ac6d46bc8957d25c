package informer

import (
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// processDeltas mirrors processDeltas in client-go tools/cache/controller.go: it applies one
// key's deltas, oldest first, to the cache and tells the handler after each write (C-5..C-10).
// Whether a delta becomes an add or an update is decided by the cache, not by the delta type.
//
//lab:06.1
func processDeltas(handler processor.ResourceEventHandler, clientState store.Store, deltas deltafifo.Deltas, isInInitialList bool, keyFunc store.KeyFunc) error {
	for _, d := range deltas {
		switch d.Type {
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			if err := addOrUpdate(handler, clientState, d.Object, isInInitialList); err != nil {
				return err
			}
		case deltafifo.Deleted:
			// C-6: no "was it cached?" check; the object may be a DeletedFinalStateUnknown.
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
			// C-8: every cached object is resynced as it is now, at processing time (D-3).
			for _, obj := range clientState.List() {
				handler.OnUpdate(obj, obj)
			}
		case deltafifo.Bookmark:
			info, ok := d.Object.(deltafifo.BookmarkInfo)
			if !ok {
				return fmt.Errorf("a Bookmark delta carries %T, not BookmarkInfo", d.Object)
			}
			clientState.Bookmark(info.ResourceVersion) // C-9: no handler call
		default:
			return fmt.Errorf("unknown delta type %q", d.Type)
		}
	}
	return nil
}

// addOrUpdate writes obj to the cache and reports an update if the key was cached before,
// else an add (C-5).
//
//lab:06.1
func addOrUpdate(handler processor.ResourceEventHandler, clientState store.Store, obj any, isInInitialList bool) error {
	if old, exists, err := clientState.Get(obj); err == nil && exists {
		if err := clientState.Update(obj); err != nil {
			return err
		}
		handler.OnUpdate(old, obj)
		return nil
	}
	if err := clientState.Add(obj); err != nil {
		return err
	}
	handler.OnAdd(obj, isInInitialList)
	return nil
}

// processReplacedAll mirrors processReplacedAllInfo (C-7): work out deletions and the
// add/update class of every listed object against the cache, replace the cache in one step,
// then notify deletions first and the listed objects in list order.
func processReplacedAll(handler processor.ResourceEventHandler, clientState store.Store, info deltafifo.ReplacedAllInfo, isInInitialList bool, keyFunc store.KeyFunc) error {
	type change struct{ old, obj any }
	listed := make(map[string]struct{}, len(info.Objects))
	changes := make([]change, 0, len(info.Objects))
	for _, obj := range info.Objects {
		key, err := keyFunc(obj)
		if err != nil {
			return fmt.Errorf("ReplacedAll: cannot key %T: %w", obj, err)
		}
		listed[key] = struct{}{}
		old, exists, err := clientState.GetByKey(key)
		if err != nil || !exists {
			old = nil
		}
		changes = append(changes, change{old: old, obj: obj})
	}
	var deletions []store.DeletedFinalStateUnknown
	for _, key := range clientState.ListKeys() {
		if _, ok := listed[key]; ok {
			continue
		}
		cached, exists, err := clientState.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		deletions = append(deletions, store.DeletedFinalStateUnknown{Key: key, Obj: cached})
	}
	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, tomb := range deletions {
		handler.OnDelete(tomb)
	}
	for _, c := range changes {
		if c.old != nil {
			handler.OnUpdate(c.old, c.obj)
		} else {
			handler.OnAdd(c.obj, isInInitialList)
		}
	}
	return nil
}

// processDeltasInBatch mirrors processDeltasInBatch (C-11): a batch of distinct keys becomes
// one store transaction, add versus update decided from the cache before it, and the handler
// calls follow in order, only for the entries that were applied. client-go queues one closure
// per entry; a slice of calls does the same with one allocation per batch.
func processDeltasInBatch(handler processor.ResourceEventHandler, clientState store.Store, deltas []deltafifo.Delta, isInInitialList bool, keyFunc store.KeyFunc) error {
	txnStore, ok := clientState.(store.TransactionStore)
	if !ok {
		var errs []error
		for _, d := range deltas {
			if err := processDeltas(handler, clientState, deltafifo.Deltas{d}, isInInitialList, keyFunc); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
	txns := make([]store.Transaction, 0, len(deltas))
	calls := make([]batchCall, 0, len(deltas))
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				txns = append(txns, store.Transaction{Type: store.TransactionTypeUpdate, Object: obj})
				calls = append(calls, batchCall{op: store.TransactionTypeUpdate, old: old, obj: obj})
			} else {
				txns = append(txns, store.Transaction{Type: store.TransactionTypeAdd, Object: obj})
				calls = append(calls, batchCall{op: store.TransactionTypeAdd, obj: obj})
			}
		case deltafifo.Deleted:
			txns = append(txns, store.Transaction{Type: store.TransactionTypeDelete, Object: obj})
			calls = append(calls, batchCall{op: store.TransactionTypeDelete, obj: obj})
		default:
			return fmt.Errorf("delta type %q cannot be processed in a batch", d.Type)
		}
	}
	if terr := txnStore.Transaction(txns...); terr != nil {
		for _, i := range terr.SuccessfulIndices {
			if i < len(calls) {
				calls[i].notify(handler, isInInitialList)
			}
		}
		return fmt.Errorf("batch partly applied: %w", terr)
	}
	for _, c := range calls {
		c.notify(handler, isInInitialList)
	}
	return nil
}

// batchCall is one handler call a batch owes once its transaction is applied.
type batchCall struct {
	op       store.TransactionType
	old, obj any
}

func (c batchCall) notify(handler processor.ResourceEventHandler, isInInitialList bool) {
	switch c.op {
	case store.TransactionTypeAdd:
		handler.OnAdd(c.obj, isInInitialList)
	case store.TransactionTypeUpdate:
		handler.OnUpdate(c.old, c.obj)
	case store.TransactionTypeDelete:
		handler.OnDelete(c.obj)
	}
}
