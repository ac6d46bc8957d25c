package apiserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The storage operations behind both the HTTP handlers and the Go API. They mirror the
// generic registry (k8s.io/apiserver pkg/registry/generic/registry/store.go) with the
// strategies of pods, configmaps and namespaces reduced to what the wire spec names:
//
//  1. dryRun=All on create, update, patch, delete and deletecollection runs everything
//     (defaulting, validation, admission, conflicts) and answers with what would be stored,
//     storing nothing: no resourceVersion is consumed and no watch sees an event. A created
//     object comes back without a resourceVersion, an updated or marked one with the stored
//     RV. Any other dryRun value, a bad fieldValidation or fieldManager, force on a non-apply
//     patch are 422s naming CreateOptions, UpdateOptions, PatchOptions or DeleteOptions
//     (internal/decode).
//  2. An update's resourceVersion "0" means none (unconditional); one that is not a number
//     is the parser's 500, as in the real server.
//  3. The status subresource (…/{name}/status, U2, U5) is served for every kind but
//     configmaps, as the real pod, namespace and custom-resource strategies do: a PUT or
//     PATCH there changes only the status, and one on the main resource keeps the stored
//     status whatever the body says; generation moves on spec changes only (P5).

var protectedNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// maxGenerateNamePrefix mirrors maxGeneratedNameLength in apiserver's names package.
const maxGenerateNamePrefix = 58

// errRVOnCreate mirrors storage.ErrResourceVersionSetOnCreate, which the real server
// surfaces as a 500 without a reason (C3, E19).
func errRVOnCreate() *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusInternalServerError,
		Message: "resourceVersion should not be set on objects to be created",
	}
}

func errNamespaceMismatch() *api.Status {
	return api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
}

func errNameMismatch(body, url string) *api.Status {
	return api.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", body, url))
}

// newUID returns an RFC 4122 version 4 UUID (N8).
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (s *Server) now() api.Time {
	return api.NewTime(s.clock.Now().UTC().Truncate(1e9))
}

// normalize returns a private copy of obj as the server stores every object: whole, as an
// *api.Unstructured, with kind and apiVersion set (N6). A typed object (from the Go API) is
// converted through its JSON, its nulls dropped, as a typed Go struct on the real server
// never stores a null.
func (s *Server) normalize(res *resource, obj api.Object) (*api.Unstructured, error) {
	if obj == nil {
		return nil, api.NewBadRequest("no object provided")
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind != "" && gvk.Kind != res.info.Kind {
		return nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s", gvk.Kind, gvk.APIVersion(), res.info.Kind))
	}
	if gvk.Version != "" && gvk.APIVersion() != res.info.apiVersion() {
		return nil, api.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", gvk.APIVersion(), res.info.apiVersion()))
	}
	var out *api.Unstructured
	if u, ok := obj.(*api.Unstructured); ok {
		out = u.DeepCopy()
	} else {
		data, err := json.Marshal(obj)
		if err != nil {
			return nil, api.NewBadRequest(err.Error())
		}
		out = &api.Unstructured{}
		if err := out.UnmarshalJSON(data); err != nil {
			return nil, api.NewBadRequest(err.Error())
		}
		dropNulls(out.Object)
	}
	if out.Object == nil {
		out.Object = map[string]any{}
	}
	if md, found := out.Object["metadata"]; found {
		if _, ok := md.(map[string]any); !ok && md != nil {
			return nil, api.NewBadRequest("metadata must be an object")
		}
	}
	out.SetGroupVersionKind(res.info.GVK())
	return out, nil
}

// dropNulls removes every null member of the tree, in place.
func dropNulls(m map[string]any) {
	for k, v := range m {
		switch v := v.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			dropNulls(v)
		case []any:
			for _, e := range v {
				if em, ok := e.(map[string]any); ok {
					dropNulls(em)
				}
			}
		}
	}
}

// checkNamespace applies the URL namespace to a namespaced object (C5, E18) and clears it
// on a cluster-scoped one.
func checkNamespace(res *resource, m api.MetaObject, ns string) error {
	if !res.info.Namespaced {
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
		return errNamespaceMismatch()
	}
	return nil
}

// create stores a new object (rest.BeforeCreate + Store.Create; C1–C6). obj is private. A
// dry run does everything but the write, as DryRunnableStorage.Create: the answer is the
// object as it would be stored, without a resourceVersion.
func (s *Server) create(res *resource, ns string, obj *api.Unstructured, dryRun bool) (*record, error) {
	m := obj
	if m.GetResourceVersion() != "" {
		return nil, errRVOnCreate()
	}
	if err := checkNamespace(res, m, ns); err != nil {
		return nil, err
	}
	if m.GetName() == "" && m.GetGenerateName() != "" {
		// The real server cuts the prefix to 58 characters so that prefix + 5-character
		// suffix stays within the 63 of a DNS label.
		prefix := m.GetGenerateName()
		if len(prefix) > maxGenerateNamePrefix {
			prefix = prefix[:maxGenerateNamePrefix]
		}
		m.SetName(prefix + validation.GenerateNameSuffix())
	}
	m.SetUID(newUID())
	m.SetCreationTimestamp(s.now())
	m.SetDeletionTimestamp(nil)
	m.SetDeletionGracePeriodSeconds(nil)
	m.SetGeneration(0)
	if res.info.hasGeneration() {
		m.SetGeneration(1)
	}
	s.prepareForCreate(res, obj)
	applyDefaults(res, obj)
	if res.info.Namespaced && validation.IsNamespaceName(m.GetNamespace()) {
		// Admission comes before validation: a missing or terminating namespace is the
		// answer, whatever else is wrong (checked again under the write lock below). A
		// namespace that cannot be a name is left to validation's message.
		if err := s.store.View(func(tx *storage.Tx) error { return s.namespaceAccepts(tx, res, m) }); err != nil {
			return nil, err
		}
	}
	if err := validate(res, obj); err != nil {
		return nil, err
	}
	key := objectKey(m.GetNamespace(), m.GetName())
	rec, err := s.store.Create(context.Background(), res.coll, key, obj, storage.CreateOptions{
		DryRun: dryRun,
		Admit: func(tx *storage.Tx) error {
			if res.info.Namespaced {
				return s.namespaceAccepts(tx, res, m)
			}
			return nil
		},
		BeforeWrite: func(*storage.Tx) error {
			if isCRDs(res) {
				if err := s.crdAdmit(obj); err != nil {
					return err
				}
			}
			if isServices(res) {
				return s.serviceIPs.AllocateService(obj.Object, dryRun)
			}
			return nil
		},
		After: func(_ *storage.Tx, rec *record) {
			if isCRDs(res) {
				s.serveCRD(rec.Obj)
			}
		},
	})
	if errors.Is(err, storage.ErrKeyExists) {
		return nil, api.NewAlreadyExists(res.info.GroupResource(), m.GetName())
	}
	return rec, err
}

// updateOptions say where an update comes from.
type updateOptions struct {
	subresource string // "", "status", or "finalize" (namespaces)
	dryRun      bool   // answer with what would be stored; store nothing
	// expectRV, when set, is the RV the object was read at (a patch): a different stored RV
	// is a conflict even if the body carries none.
	expectRV string
}

// update replaces an object (rest.BeforeUpdate + Store.Update; P1–P5). obj is private and
// already checked against the URL name. A no-op writes nothing (0.3, R16), and so does a dry
// run, whose answer keeps the stored resourceVersion (DryRunnableStorage.GuaranteedUpdate).
func (s *Server) update(res *resource, ns string, obj *api.Unstructured, uo updateOptions) (*record, error) {
	m := obj
	if err := checkNamespace(res, m, ns); err != nil {
		return nil, err
	}
	gr := res.info.GroupResource()
	key := objectKey(m.GetNamespace(), m.GetName())
	rec, _, err := s.store.GuaranteedUpdate(context.Background(), res.coll, key, nil, func(_ *storage.Tx, old *record) (*api.Unstructured, error) {
		return s.prepareUpdate(res, obj, old, uo)
	}, storage.UpdateOptions{
		DryRun: uo.dryRun,
		// The last finalizer of a deleted object is gone: the object goes now (D3). A
		// namespace leaves only through its lifecycle: empty, then finalized (NS4).
		DeleteIf: func(next *api.Unstructured) bool {
			return !isNamespaces(res) && next.GetDeletionTimestamp() != nil && len(next.GetFinalizers()) == 0
		},
		After: func(tx *storage.Tx, rec *record, typ watch.EventType) *record {
			switch {
			case isNamespaces(res):
				return s.maybeFinishNamespace(tx, rec.Obj.GetName())
			case typ == watch.Deleted:
				if isServices(res) {
					s.serviceIPs.ReleaseService(rec.Obj.Object)
				}
				if res.info.Namespaced {
					s.maybeFinishNamespace(tx, rec.Namespace())
				}
			case isCRDs(res) && typ == watch.Modified:
				s.serveCRD(rec.Obj)
			}
			return nil
		},
	})
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, api.NewNotFound(gr, m.GetName())
	}
	return rec, err
}

// prepareUpdate computes the state an update stores from the body obj and the stored old:
// the conflict checks, defaults, the subresource's part, the strategy's PrepareForUpdate and
// ValidateUpdate. It runs under the store's write lock.
func (s *Server) prepareUpdate(res *resource, obj *api.Unstructured, old *record, uo updateOptions) (*api.Unstructured, error) {
	m := obj
	gr := res.info.GroupResource()
	oldRV := strconv.FormatUint(old.RV, 10)
	rv, err := storage.Versioner{}.ObjectResourceVersion(m)
	if err != nil {
		return nil, err
	}
	switch {
	case rv == 0 && uo.expectRV == "" && !res.info.AllowUnconditionalUpdate:
		return nil, api.NewInvalid(res.info.groupKind(), m.GetName(), []api.StatusCause{{
			Type: api.CauseTypeFieldValueInvalid, Field: "metadata.resourceVersion",
			Message: "Invalid value: 0: must be specified for an update",
		}})
	case rv != 0 && rv != old.RV, rv == 0 && uo.expectRV != "" && uo.expectRV != oldRV:
		return nil, api.NewConflict(gr, m.GetName(), errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if uid := m.GetUID(); uid != "" && uid != old.Obj.GetUID() {
		return nil, api.NewConflict(gr, m.GetName(), &storage.InvalidObjError{Field: "UID", Want: uid, Got: old.Obj.GetUID()})
	}

	applyDefaults(res, obj) // before the spec comparison: a body without defaults is no change
	switch uo.subresource {
	case "status":
		obj = withStatusOf(old.Obj, obj)
		m = obj
	case "finalize":
		obj = withNamespaceFinalizersOf(old.Obj, obj)
		m = obj
	default:
		// The main resource keeps the stored status, whatever the body says, where the kind
		// has a status subresource: only that writes it (the strategies' PrepareForUpdate).
		// So a spec writer and a status writer never undo each other.
		if res.info.hasStatus() {
			obj = withStatusOf(obj, old.Obj)
			m = obj
		}
		m.SetUID(old.Obj.GetUID())
		m.SetCreationTimestamp(old.Obj.GetCreationTimestamp())
		m.SetDeletionTimestamp(old.Obj.GetDeletionTimestamp().DeepCopy())
		m.SetDeletionGracePeriodSeconds(copyInt64(old.Obj.GetDeletionGracePeriodSeconds()))
		m.SetGeneration(old.Obj.GetGeneration())
		if m.GetGeneration() > 0 && specChanged(old.Obj, obj) {
			m.SetGeneration(old.Obj.GetGeneration() + 1)
		}
		if isNamespaces(res) {
			prepareNamespaceForUpdate(obj, old.Obj)
		}
		if isServices(res) {
			keepAllocatedIPs(obj, old.Obj)
		}
	}
	if uo.subresource != "" {
		applyDefaults(res, obj) // the stored object with a new status or finalizers
	}
	if err := validateUpdate(res, obj, old); err != nil {
		return nil, err
	}
	return obj, nil
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// withStatusOf returns a copy of stored with the status of updated: a write to the status
// subresource changes nothing else (the status strategies' PrepareForUpdate). With the
// arguments the other way round it gives a main-resource write the stored status.
func withStatusOf(stored, updated *api.Unstructured) *api.Unstructured {
	out := stored.DeepCopy()
	if st, found := updated.Object["status"]; found {
		out.Object["status"] = api.DeepCopyJSONValue(st)
	} else {
		delete(out.Object, "status")
	}
	return out
}

// specChanged decides whether generation moves (P5): everything outside metadata and status
// is the spec (spec, template, data, …), as the strategies compare it. The deployment
// strategy also counts a change of annotations, the endpointslice strategy one of labels.
func specChanged(old, updated *api.Unstructured) bool {
	switch old.GroupVersionKind() {
	case api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}:
		if !reflect.DeepEqual(old.GetAnnotations(), updated.GetAnnotations()) {
			return true
		}
	case api.GroupVersionKind{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"}:
		if !reflect.DeepEqual(old.GetLabels(), updated.GetLabels()) {
			return true
		}
	}
	strip := func(m map[string]any) map[string]any {
		c := make(map[string]any, len(m))
		for k, v := range m {
			if k != "metadata" && k != "status" {
				c[k] = v
			}
		}
		return c
	}
	return !reflect.DeepEqual(strip(old.Object), strip(updated.Object))
}

// get reads one object (L6): RV "" is the latest, "0" any (the latest here), N not older
// than N.
func (s *Server) get(ctx context.Context, res *resource, ns, name, rvText string) (*record, error) {
	rv, err := decode.ParseResourceVersion(rvText)
	if err != nil {
		return nil, err
	}
	rec, err := s.store.Get(ctx, res.coll, objectKey(ns, name), storage.GetOptions{ResourceVersion: rv})
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, api.NewNotFound(res.info.GroupResource(), name)
	}
	return rec, err
}
