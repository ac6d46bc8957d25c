package registry

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// deleteGracefully mirrors rest.BeforeDelete and the graceful half of
// Store.updateForGracefulDeletionAndFinalizers for a kind with a graceful strategy (pods).
// done reports that the delete is answered: the object is marked (or left) terminating.
// When done is false the caller deletes as usual (at once, or marked for finalizers with
// grace 0).
func (s *Store) deleteGracefully(tx *storage.Tx, res *Resource, g rest.GracefulDeleter, old *storage.Record, opts api.DeleteOptions, dryRun bool) (DeleteResult, bool) {
	requested := opts.GracePeriodSeconds
	if requested != nil && *requested < 0 {
		one := int64(1) // a negative period counts as 1s on the delete path
		requested = &one
	}
	meta := old.Obj
	now := s.Now().Time
	// The collector's finalizers change in the same update as the mark
	// (updateForGracefulDeletionAndFinalizers).
	fins, changed := deletionFinalizers(res, meta, opts)
	obj := meta.DeepCopy()
	if changed {
		obj.SetFinalizers(fins)
	}
	if ts := meta.GetDeletionTimestamp(); ts != nil {
		cur := meta.GetDeletionGracePeriodSeconds()
		if cur == nil || *cur <= 0 {
			return DeleteResult{}, false // an earlier graceful mark that ended: delete now
		}
		if requested == nil || *requested >= *cur {
			return DeleteResult{Rec: old}, true // pending: only a shorter period may be asked
		}
		period := *requested
		at := ts.Add(-time.Duration(*cur) * time.Second).Add(time.Duration(period) * time.Second)
		if at.Before(now) {
			at = now
			if period != 0 {
				period = 1 // still graceful: the kubelet makes the final delete
			}
		}
		if period == 0 && len(fins) == 0 {
			return DeleteResult{}, false
		}
		// Shortened, or to zero while finalizers still hold it.
		return s.markGracefulFrom(tx, res, old, obj, at, period, false, dryRun), true
	}
	period := g.CheckGracefulDelete(meta, requested)
	if period <= 0 {
		if dryRun && len(fins) == 0 {
			// BeforeDelete marked the object (now, grace 0, generation) before the delete;
			// a dry run answers that copy
			dr := s.markGraceful(tx, res, old, now, 0, true, true)
			dr.Deleted = true
			return dr, true
		}
		return DeleteResult{}, false
	}
	return s.markGracefulFrom(tx, res, old, obj, now.Add(time.Duration(period)*time.Second), period, true, dryRun), true
}

// markGraceful writes deletionTimestamp and deletionGracePeriodSeconds; the first mark bumps
// a set generation, as BeforeDelete does.
func (s *Store) markGraceful(tx *storage.Tx, res *Resource, old *storage.Record, at time.Time, period int64, first, dryRun bool) DeleteResult {
	return s.markGracefulFrom(tx, res, old, old.Obj.DeepCopy(), at, period, first, dryRun)
}

// markGracefulFrom is markGraceful over obj, a private copy of old's object that may carry
// other changes of the same update.
func (s *Store) markGracefulFrom(tx *storage.Tx, res *Resource, old *storage.Record, obj *api.Unstructured, at time.Time, period int64, first, dryRun bool) DeleteResult {
	ts := api.NewTime(at)
	obj.SetDeletionTimestamp(&ts)
	obj.SetDeletionGracePeriodSeconds(&period)
	if first && obj.GetGeneration() > 0 {
		obj.SetGeneration(obj.GetGeneration() + 1)
	}
	if dryRun {
		return DeleteResult{Rec: s.Storage.NewRecord(obj, old.Key, old.RV)}
	}
	return DeleteResult{Rec: tx.Put(res.Coll, old, obj)}
}
