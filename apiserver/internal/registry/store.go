package registry

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/apiserver/storage"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// Store is the generic store of every resource, on the model of genericregistry.Store
// (k8s.io/apiserver pkg/registry/generic/registry/store.go): for each verb it runs the
// decoded object through admission, the resource's strategy and the storage, dry run
// included.
type Store struct {
	Storage   *storage.Store
	Table     *Table
	Admission admission.Chain
	// Authorize answers the admission policies' `authorizer` checks (nil allows them).
	Authorize admission.AuthorizeFunc
	Clock     clock.Clock
	// FieldManagers builds each resource's field manager (fields.go); nil records no
	// managedFields.
	FieldManagers FieldManagerBuilder
	// NamespaceDeletionInServer: a namespace's DELETE empties it and removes it (namespace.go);
	// otherwise the namespace controller does, as in a real cluster.
	NamespaceDeletionInServer bool
	// CRDFinalizer deletes the objects of deleted CRDs in the background (crd_finalizer.go).
	CRDFinalizer CRDFinalizer
}

// maxGenerateNamePrefix mirrors maxGeneratedNameLength in apiserver's names package.
const maxGenerateNamePrefix = 58

// Now is the time the store stamps objects with: the clock's, to the second.
func (s *Store) Now() api.Time {
	return api.NewTime(s.Clock.Now().UTC().Truncate(1e9))
}

func (s *Store) ctx(dryRun bool) rest.Context { return rest.Context{Now: s.Now(), DryRun: dryRun} }

// Create stores a new object (rest.BeforeCreate + Store.Create). obj is private. A dry run
// does everything but the write, as DryRunnableStorage.Create: the answer is the object as
// it would be stored, without a resourceVersion.
func (s *Store) Create(ctx context.Context, res *Resource, ns string, obj *api.Unstructured, dryRun bool) (_ *storage.Record, err error) {
	if err := CheckNamespace(res, obj, ns); err != nil {
		return nil, err
	}
	generated := obj.GetName() == "" && obj.GetGenerateName() != ""
	if generated {
		// The real server cuts the prefix to 58 characters so that prefix + 5-character
		// suffix stays within the 63 of a DNS label.
		prefix := obj.GetGenerateName()
		if len(prefix) > maxGenerateNamePrefix {
			prefix = prefix[:maxGenerateNamePrefix]
		}
		obj.SetName(prefix + validation.GenerateNameSuffix())
	}
	obj.SetUID(newUID())
	obj.SetCreationTimestamp(s.Now())
	obj.SetDeletionTimestamp(nil)
	obj.SetDeletionGracePeriodSeconds(nil)
	obj.SetGeneration(0)
	if res.Strategy.HasGeneration() {
		obj.SetGeneration(1)
	}
	rc := s.ctx(dryRun)
	if u, ok := rest.UserFrom(ctx); ok {
		rc.User = &u
	}
	recorded, err := s.recordCreate(ctx, res, obj)
	if err != nil {
		return nil, err
	}
	res.Strategy.PrepareForCreate(rc, obj)
	applyDefaults(res, obj)
	res.Strategy.Canonicalize(obj)
	if recorded != nil {
		copyManagedFields(obj, recorded)
	}

	attrs := s.attributes(admission.Create, res, obj, nil, "", dryRun)
	if generated {
		// The real handler admits before the name is made: errors name the prefix.
		attrs.Name = ""
	}
	if err := refuseCreateWhileTerminating(res, attrs.Name); err != nil {
		return nil, err
	}
	if err := s.Storage.View(func(tx *storage.Tx) error {
		attrs.Namespaces = s.namespaceReader(tx)
		attrs.Store = s.admissionStore(tx, false)
		attrs.Outside = tx.Outside
		return s.Admission.Admit(ctx, attrs)
	}); err != nil {
		return nil, err
	}
	if attrs.Redefault {
		applyDefaults(res, obj)
	}
	attrs.Name = obj.GetName()
	if lp, ok := res.Strategy.(rest.LatePreparer); ok {
		lp.PrepareAfterAdmission(obj)
	}
	if a, ok := res.Strategy.(rest.Allocator); ok {
		// aerr, not err: the deferred check below reads the named result, which a shadowing
		// err would hide, and a refused create would keep its cluster IP and node ports.
		finish, aerr := a.AllocateCreate(rc, obj)
		if aerr != nil {
			return nil, aerr
		}
		stored := false
		defer func() { finish(stored) }()
		defer func() { stored = err == nil }()
	}
	if !serverObjects(ctx) {
		if err := Validate(res, obj); err != nil {
			return nil, err
		}
	}
	// BeforeCreate sends the strategy's warnings once validation passes, so they go out
	// even when admission or the storage refuses the create afterwards.
	rest.AddWarnings(ctx, res.Strategy.WarningsOnCreate(obj)...)
	if err := s.Storage.View(func(tx *storage.Tx) error {
		attrs.Namespaces = s.namespaceReader(tx)
		attrs.Store = s.admissionStore(tx, false)
		attrs.Outside = tx.Outside
		return s.Admission.Validate(ctx, attrs)
	}); err != nil {
		return nil, err
	}
	// The storage refuses a resourceVersion, after validation and admission (etcd3's Create).
	if obj.GetResourceVersion() != "" {
		return nil, errRVOnCreate()
	}
	hooks, _ := res.Strategy.(rest.Hooks)
	rec, err := s.Storage.Create(ctx, res.Coll, storage.ObjectKey(obj.GetNamespace(), obj.GetName()), obj, storage.CreateOptions{
		DryRun: dryRun,
		Admit: func(tx *storage.Tx) error {
			attrs.Outside = nil // the write lock is held from here on
			attrs.Namespaces = s.namespaceReader(tx)
			attrs.Store = s.admissionStore(tx, !dryRun)
			return s.Admission.Recheck(ctx, attrs)
		},
		BeforeWrite: func(tx *storage.Tx) error {
			if sv, ok := res.Strategy.(rest.StateValidator); ok {
				if err := sv.ValidateState(obj, nil, s.lister(tx)); err != nil {
					return err
				}
			}
			if hooks != nil {
				return hooks.BeginCreate(rc, obj)
			}
			return nil
		},
		After: func(tx *storage.Tx, rec *storage.Record) { s.afterWrite(tx, res, rec, watch.Added) },
	})
	if errors.Is(err, storage.ErrKeyExists) {
		return nil, api.NewAlreadyExists(res.Info.GroupResource(), obj.GetName())
	}
	return rec, err
}

func (s *Store) attributes(op admission.Operation, res *Resource, obj, old *api.Unstructured, sub string, dryRun bool) *admission.Attributes {
	a := &admission.Attributes{
		Operation: op, Resource: res.Info.GroupResource(), Kind: res.Info.GroupKind(), Subresource: sub,
		Object: obj, OldObject: old, DryRun: dryRun,
	}
	a.Version = res.Info.Version
	a.Authorize = s.Authorize
	if m := obj; m != nil {
		a.Name = m.GetName()
		if res.Info.Namespaced {
			a.Namespace = m.GetNamespace()
		}
	}
	return a
}

// namespaceReader reads namespaces through tx, for admission.
func (s *Store) namespaceReader(tx *storage.Tx) func(string) *api.Unstructured {
	nsRes := s.Table.namespaces
	return func(name string) *api.Unstructured {
		if rec := tx.Get(nsRes.Coll, name); rec != nil {
			return rec.Obj
		}
		return nil
	}
}

// afterWrite runs what follows a real write in the same transaction: the namespace
// lifecycle and the CRD's serving.
func (s *Store) afterWrite(tx *storage.Tx, res *Resource, rec *storage.Record, typ watch.EventType) *storage.Record {
	if typ == watch.Deleted {
		if hooks, ok := res.Strategy.(rest.Hooks); ok {
			hooks.AfterDelete(rec.Obj)
		}
		if res.Terminating.Load() {
			s.kickCRDFinalizer() // its CRD may be waiting for this one
		}
	}
	if isCRDs(res) {
		s.syncCRDAPIServices(tx, rec.Obj) // after the write: a deleted CRD serves nothing now
	}
	switch {
	case isNamespaces(res) && typ == watch.Modified:
		return s.maybeFinishNamespace(tx, rec.Obj.GetName())
	case typ == watch.Deleted && res.Info.Namespaced:
		s.maybeFinishNamespace(tx, rec.Namespace())
	case isCRDs(res) && typ != watch.Deleted:
		s.crdWritten(tx, res, rec)
	case isCRDs(res):
		s.dropCRD(tx, rec.Obj)
	}
	return nil
}

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
func (s *Store) Update(ctx context.Context, res *Resource, ns string, obj *api.Unstructured, uo UpdateOptions) (*storage.Record, error) {
	if err := CheckNamespace(res, obj, ns); err != nil {
		return nil, err
	}
	gr := res.Info.GroupResource()
	key := storage.ObjectKey(obj.GetNamespace(), obj.GetName())
	var warnings []string // of the attempt that is stored
	finish := func(bool) {}
	uo.warn = func(msgs ...string) { rest.AddWarnings(ctx, msgs...) }
	uo.trusted = serverObjects(ctx)
	rec, _, err := s.Storage.GuaranteedUpdate(ctx, res.Coll, key, nil, func(tx *storage.Tx, old *storage.Record) (*api.Unstructured, error) {
		// A try again (the object changed while webhooks ran outside the lock) gives back
		// what the previous try reserved.
		finish(false)
		finish = func(bool) {}
		next, done, err := s.prepareUpdate(res, obj, old, uo)
		if err != nil {
			return nil, err
		}
		finish = done
		if err := s.recordPrepared(ctx, res, obj, next, old.Obj, uo.Subresource); err != nil {
			done(false)
			finish = func(bool) {}
			return nil, err
		}
		if uo.Subresource == "" {
			warnings = res.Strategy.WarningsOnUpdate(next, old.Obj)
		}
		attrs := s.attributes(admission.Update, res, next, old.Obj, uo.Subresource, uo.DryRun)
		attrs.Namespaces = s.namespaceReader(tx)
		attrs.Store = s.admissionStore(tx, false)
		attrs.Outside = tx.Outside
		if err := s.Admission.Admit(ctx, attrs); err != nil {
			return nil, err
		}
		if attrs.Redefault {
			applyDefaults(res, next)
		}
		if sv, ok := res.Strategy.(rest.StateValidator); ok && uo.Subresource == "" {
			if err := sv.ValidateState(next, old.Obj, s.lister(tx)); err != nil {
				return nil, err
			}
		}
		if err := s.Admission.Validate(ctx, attrs); err != nil {
			return nil, err
		}
		attrs.Store = s.admissionStore(tx, !uo.DryRun)
		attrs.Outside = nil // Recheck's checks must hold at the write
		if err := s.Admission.Recheck(ctx, attrs); err != nil {
			return nil, err
		}
		return next, nil
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
	finish(err == nil)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, api.NewNotFound(gr, obj.GetName())
	}
	if err == nil {
		rest.AddWarnings(ctx, warnings...)
	}
	return rec, err
}

// prepareUpdate computes the state an update stores from the body obj and the stored old:
// the conflict checks, defaults, the subresource's part or the strategy's PrepareForUpdate,
// and ValidateUpdate. It runs under the storage's write lock. finish ends what a
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

// Get reads one object: RV 0 is the latest, N not older than N.
func (s *Store) Get(ctx context.Context, res *Resource, ns, name string, rv uint64) (*storage.Record, error) {
	rec, err := s.Storage.Get(ctx, res.Coll, storage.ObjectKey(ns, name), storage.GetOptions{ResourceVersion: rv})
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, api.NewNotFound(res.Info.GroupResource(), name)
	}
	return rec, err
}

// applyDefaults fills in what kube-apiserver's defaulting functions fill in for a built-in
// kind (internal/defaulting). It runs on every write, after the strategy has prepared the
// object, so a reset status is defaulted too.
func applyDefaults(res *Resource, obj *api.Unstructured) {
	if res.Builtin {
		defaulting.Default(res.Info.Group, res.Info.Version, res.Info.Kind, obj.Object)
	}
}

// CheckNamespace applies the URL namespace to a namespaced object and clears it on a
// cluster-scoped one.
func CheckNamespace(res *Resource, m api.MetaObject, ns string) error {
	if !res.Info.Namespaced {
		m.SetNamespace("")
		return nil
	}
	switch {
	case m.GetNamespace() == "":
		if ns == "" {
			return api.NewBadRequest("the namespace of the object is required")
		}
		m.SetNamespace(ns)
	case ns != "" && m.GetNamespace() != ns:
		return api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// errRVOnCreate mirrors storage.ErrResourceVersionSetOnCreate, which the real server
// surfaces as a 500 without a reason.
func errRVOnCreate() *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusInternalServerError,
		Message: "resourceVersion should not be set on objects to be created",
	}
}

// newUID returns an RFC 4122 version 4 UUID.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// keepMetadata sets the metadata members keys of obj to those of from (removing those from
// lacks), as a status strategy that keeps the body's metadata does.
func keepMetadata(obj, from *api.Unstructured, keys []string) {
	md, _ := obj.Object["metadata"].(map[string]any)
	fm, _ := from.Object["metadata"].(map[string]any)
	if md == nil {
		return
	}
	for _, k := range keys {
		if v, ok := fm[k]; ok && v != nil {
			md[k] = api.DeepCopyJSONValue(v)
		} else {
			delete(md, k)
		}
	}
}
