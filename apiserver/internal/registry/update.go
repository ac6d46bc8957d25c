package registry

import (
	"context"
	"errors"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// UpdateOptions say where an update comes from.
type UpdateOptions struct {
	Subresource string // "", "status", or "finalize" (namespaces)
	DryRun      bool   // answer with what would be stored; store nothing
	// ExpectRV, when set, is the RV the object was read at (a patch): a different stored RV
	// is a conflict even if the body carries none.
	ExpectRV string
	// warn records the warnings validation adds (set by Update from its context).
	warn func(...string)
	// trusted skips validation (set by Update from its context: WithServerObjects).
	trusted bool
}

// Update replaces an object (rest.BeforeUpdate + Store.Update). obj is private and already
// checked against the URL name. A no-op writes nothing, and so does a dry run, whose answer
// keeps the stored resourceVersion (DryRunnableStorage.GuaranteedUpdate).
//
// As etcd3's GuaranteedUpdate, it is optimistic: the next state is prepared, validated and
// admitted from the stored record without the write lock (admission under the read lock),
// and the write lock is held only to check that the record is still the stored one, for
// the checks that must hold at the write (Recheck) and for the write. When another write
// came in between, the update starts again from a fresh copy of the body on what is
// stored now; a body or patch that named a resourceVersion then gets its 409 from
// prepareUpdate, as before.
func (s *Store) Update(ctx context.Context, res *Resource, ns string, obj *api.Unstructured, uo UpdateOptions) (*storage.Record, error) {
	if err := CheckNamespace(res, obj, ns); err != nil {
		return nil, err
	}
	gr := res.Info.GroupResource()
	key := storage.ObjectKey(obj.GetNamespace(), obj.GetName())
	uo.warn = func(msgs ...string) { rest.AddWarnings(ctx, msgs...) }
	uo.trusted = serverObjects(ctx)
	// A try prepares a copy of the body when a later try may need the body as sent: only
	// an unconditional update (no resourceVersion in the body, none expected) can succeed
	// on another stored version than the first; any other gets a conflict.
	rv, _ := storage.Versioner{}.ObjectResourceVersion(obj) // a bad one fails in prepareUpdate
	retriable := rv == 0 && uo.ExpectRV == ""
	for tries := 0; ; tries++ {
		body := obj
		if retriable && tries < maxStaleRetries {
			body = obj.DeepCopy()
		}
		p, err := s.prepareTry(ctx, res, key, body, uo)
		if err != nil {
			return nil, err
		}
		rec, err := s.commitTry(ctx, res, key, p, uo)
		if errors.Is(err, errStale) {
			if tries < maxStaleRetries {
				p.finish(false) // what this try's allocator reserved goes back
				continue
			}
			err = api.NewConflict(gr, obj.GetName(), errors.New("the object has been modified; please apply your changes to the latest version and try again"))
		}
		p.finish(err == nil)
		if errors.Is(err, storage.ErrKeyNotFound) {
			return nil, api.NewNotFound(gr, obj.GetName())
		}
		if err == nil {
			rest.AddWarnings(ctx, p.warnings...)
		}
		return rec, err
	}
}

// maxStaleRetries bounds the tries of an update whose object keeps changing between its
// preparation and its write.
const maxStaleRetries = 100

// errStale says the record an update was prepared from is no longer the stored one.
var errStale = errors.New("registry: the object changed while the update was prepared")

// preparedUpdate is one try of an update, prepared outside the write lock.
type preparedUpdate struct {
	from     *storage.Record // the stored record it was prepared from
	next     *api.Unstructured
	attrs    *admission.Attributes
	warnings []string // the strategy's, sent once the write succeeds
	// finish ends what a rest.Allocator reserved: call it with the write's outcome.
	finish func(bool)
}

// prepareTry reads the stored record and prepares the next state from body: the strategy,
// defaults, field managers, validation, then mutating and validating admission under the
// read lock (the Priority plugin's state check between them, as the chain orders it).
func (s *Store) prepareTry(ctx context.Context, res *Resource, key string, body *api.Unstructured, uo UpdateOptions) (*preparedUpdate, error) {
	old, err := s.Storage.Get(ctx, res.Coll, key, storage.GetOptions{})
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, api.NewNotFound(res.Info.GroupResource(), body.GetName())
	}
	if err != nil {
		return nil, err
	}
	next, done, err := s.prepareUpdate(res, body, old, uo)
	if err != nil {
		return nil, err
	}
	p := &preparedUpdate{from: old, next: next, finish: done}
	if err := s.recordPrepared(ctx, res, body, next, old.Obj, uo.Subresource); err != nil {
		done(false)
		return nil, err
	}
	if uo.Subresource == "" {
		p.warnings = res.Strategy.WarningsOnUpdate(next, old.Obj)
	}
	p.attrs = s.attributes(admission.Update, res, next, old.Obj, uo.Subresource, uo.DryRun)
	err = s.Storage.View(func(tx *storage.Tx) error {
		p.attrs.Namespaces = s.namespaceReader(tx)
		p.attrs.Store = s.admissionStore(tx, false)
		p.attrs.Outside = tx.Outside
		if err := s.Admission.Admit(ctx, p.attrs); err != nil {
			return err
		}
		if p.attrs.Redefault {
			applyDefaults(res, next)
		}
		if sv, ok := res.Strategy.(rest.StateValidator); ok && uo.Subresource == "" {
			if err := sv.ValidateState(next, old.Obj, s.lister(tx)); err != nil {
				return err
			}
		}
		return s.Admission.Validate(ctx, p.attrs)
	})
	if err != nil {
		done(false)
		return nil, err
	}
	return p, nil
}

// commitTry writes p under the write lock if its record is still the stored one (errStale
// otherwise), after the admission checks that must hold at the write.
func (s *Store) commitTry(ctx context.Context, res *Resource, key string, p *preparedUpdate, uo UpdateOptions) (*storage.Record, error) {
	rec, _, err := s.Storage.GuaranteedUpdate(ctx, res.Coll, key, nil, func(tx *storage.Tx, cur *storage.Record) (*api.Unstructured, error) {
		if cur != p.from {
			return nil, errStale
		}
		p.attrs.Namespaces = s.namespaceReader(tx)
		p.attrs.Store = s.admissionStore(tx, !uo.DryRun)
		p.attrs.Outside = nil // Recheck's checks must hold at the write
		if err := s.Admission.Recheck(ctx, p.attrs); err != nil {
			return nil, err
		}
		return p.next, nil
	}, storage.UpdateOptions{
		DryRun: uo.DryRun,
		// The last finalizer of a deleted object is gone: the object goes now. A namespace
		// leaves only through its lifecycle: empty, then finalized. A pod in its grace period
		// waits for its kubelet's delete (ShouldDeleteDuringUpdate checks the period is 0).
		DeleteIf: func(next *api.Unstructured) bool {
			g := next.GetDeletionGracePeriodSeconds()
			return !isNamespaces(res) && next.GetDeletionTimestamp() != nil && len(next.GetFinalizers()) == 0 &&
				(g == nil || *g == 0)
		},
		After: func(tx *storage.Tx, rec *storage.Record, typ watch.EventType) *storage.Record {
			return s.afterWrite(tx, res, rec, typ)
		},
	})
	return rec, err
}

// prepareUpdate computes the state an update stores from the body obj and the stored old:
// the conflict checks, defaults, the subresource's part or the strategy's PrepareForUpdate,
// and ValidateUpdate. It runs without a lock: old is immutable. finish ends what a
// rest.Allocator reserved: call it with the write's outcome.
func (s *Store) prepareUpdate(res *Resource, obj *api.Unstructured, old *storage.Record, uo UpdateOptions) (_ *api.Unstructured, _ func(bool), err error) {
	alloc := func(bool) {}
	defer func() {
		if err != nil {
			alloc(false) // what the allocator reserved goes back
		}
	}()
	gr := res.Info.GroupResource()
	oldRV := strconv.FormatUint(old.RV, 10)
	rv, err := storage.Versioner{}.ObjectResourceVersion(obj)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case rv == 0 && uo.ExpectRV == "" && !res.Strategy.AllowUnconditionalUpdate():
		// The real store names the resource here, not the kind: "poddisruptionbudgets.policy".
		return nil, nil, api.NewInvalid(api.GroupKind{Group: gr.Group, Kind: gr.Resource}, obj.GetName(), []api.StatusCause{{
			Type: api.CauseTypeFieldValueInvalid, Field: "metadata.resourceVersion",
			Message: "Invalid value: 0: must be specified for an update",
		}})
	case rv != 0 && rv != old.RV, rv == 0 && uo.ExpectRV != "" && uo.ExpectRV != oldRV:
		return nil, nil, api.NewConflict(gr, obj.GetName(), errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	// A PUT's body uid is a precondition (defaultUpdatedObjectInfo.Preconditions); a patch
	// has none, and a changed uid meets the immutable-field rule of validation instead.
	if uid := obj.GetUID(); uid != "" && uid != old.Obj.GetUID() && uo.ExpectRV == "" {
		return nil, nil, api.NewConflict(gr, obj.GetName(), &storage.InvalidObjError{Field: "UID", Want: uid, Got: old.Obj.GetUID()})
	}

	applyDefaults(res, obj) // before the spec comparison: a body without defaults is no change
	var subCauses []api.StatusCause
	ss, _ := res.Strategy.(rest.SubresourceStrategy)
	su, _ := res.Strategy.(rest.SubresourceUpdater)
	var partial *api.Unstructured // what a SubresourceUpdater's subresource stores
	if su != nil && uo.Subresource != "" {
		partial, _ = su.PrepareSubresourceUpdate(uo.Subresource, obj, old.Obj)
	}
	switch sub := uo.Subresource; {
	case partial != nil:
		obj = partial
	case ss != nil && ss.PreparesSubresource(sub):
		obj = ss.PrepareForSubresourceUpdate(s.ctx(uo.DryRun), sub, obj, old.Obj)
		subCauses = ss.ValidateSubresourceUpdate(sub, obj, old.Obj)
	case sub == "status":
		// The status strategies' PrepareForUpdate: a copy of the stored object with the
		// new status, nothing else.
		next := old.Obj.DeepCopy()
		rest.KeepFields(next, obj, "status")
		if sm, ok := res.Strategy.(rest.StatusMetadata); ok {
			keepMetadata(next, obj, sm.StatusUpdateMetadata())
		}
		if sp, ok := res.Strategy.(rest.StatusPreparer); ok {
			sp.PrepareForStatusUpdate(s.ctx(uo.DryRun), next, old.Obj)
		}
		obj = next
	case sub == "finalize":
		if fs, ok := res.Strategy.(rest.FinalizeStrategy); ok {
			obj = fs.PrepareForFinalize(obj, old.Obj)
		}
	default:
		// rest.BeforeUpdate: what no update changes.
		if obj.GetUID() == "" {
			obj.SetUID(old.Obj.GetUID())
		}
		obj.SetCreationTimestamp(old.Obj.GetCreationTimestamp())
		obj.SetDeletionTimestamp(old.Obj.GetDeletionTimestamp().DeepCopy())
		obj.SetDeletionGracePeriodSeconds(copyInt64(old.Obj.GetDeletionGracePeriodSeconds()))
		obj.SetGeneration(old.Obj.GetGeneration())
		res.Strategy.PrepareForUpdate(s.ctx(uo.DryRun), obj, old.Obj)
		if h, ok := res.Strategy.(rest.UpdateHooks); ok {
			h.KeepAllocated(obj, old.Obj)
		}
		if a, ok := res.Strategy.(rest.Allocator); ok {
			done, err := a.AllocateUpdate(s.ctx(uo.DryRun), obj, old.Obj)
			if err != nil {
				return nil, nil, err
			}
			alloc = done
		}
	}
	if uo.Subresource != "" {
		applyDefaults(res, obj) // the stored object with a new status or finalizers
	}
	res.Strategy.Canonicalize(obj)
	switch {
	case uo.trusted:
	case partial != nil:
		// The subresource's rules replace the kind's update rules.
		err = validateSubresource(res, obj, su.ValidateSubresourceUpdate(uo.Subresource, obj, old.Obj))
	default:
		err = withCauses(res, obj, validateUpdate(res, obj, old.Obj, uo.warn), subCauses)
	}
	if err != nil {
		return nil, nil, err
	}
	return obj, alloc, nil
}
