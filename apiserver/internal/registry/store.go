package registry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"

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
	// The 8-4-4-4-12 text written straight into one buffer: fmt's %x costs ten allocations.
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out[:])
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
