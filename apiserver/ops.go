package apiserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// The storage operations behind both the HTTP handlers and the Go API. They mirror the
// generic registry (k8s.io/apiserver pkg/registry/generic/registry/store.go) with the
// strategies of pods, configmaps and namespaces reduced to what the wire spec names.

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

// normalize returns a private copy of obj in the resource's Go type: *api.Pod, *api.ConfigMap
// and *api.Namespace for the built-ins, *api.Unstructured for registered kinds, with kind and
// apiVersion set (N6). Another type is converted through JSON.
func (s *Server) normalize(res *resource, obj api.Object) (api.Object, error) {
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
	var out api.Object
	if res.info.builtin {
		want, err := s.scheme.New(res.info.GVK())
		if err != nil {
			return nil, api.NewInternalError(err)
		}
		if reflect.TypeOf(want) == reflect.TypeOf(obj) {
			out = obj.DeepCopyObject()
		} else {
			data, err := json.Marshal(obj)
			if err != nil {
				return nil, api.NewBadRequest(err.Error())
			}
			if err := s.scheme.DecodeInto(data, want); err != nil {
				return nil, api.NewBadRequest(err.Error())
			}
			out = want
		}
	} else {
		if u, ok := obj.(*api.Unstructured); ok {
			out = u.DeepCopy()
		} else {
			data, err := json.Marshal(obj)
			if err != nil {
				return nil, api.NewBadRequest(err.Error())
			}
			u := &api.Unstructured{}
			if err := u.UnmarshalJSON(data); err != nil {
				return nil, api.NewBadRequest(err.Error())
			}
			out = u
		}
	}
	if _, err := api.Accessor(out); err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	out.GetObjectKind().SetGroupVersionKind(res.info.GVK())
	return out, nil
}

// validate runs the strategy's validation: metadata for every kind (E11–E16), the data size
// of configmaps (E10).
func validate(res *resource, obj api.Object) error {
	m, _ := api.Accessor(obj)
	isNS := res.info.builtin && res.info.Kind == "Namespace"
	if err := validateObjectMeta(res.info.groupKind().String(), m, isNS, res.info.Namespaced); err != nil {
		return err
	}
	if cm, ok := obj.(*api.ConfigMap); ok {
		return validateConfigMapSize(cm)
	}
	return nil
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

// create stores a new object (rest.BeforeCreate + Store.Create; C1–C6). obj is private.
func (s *Server) create(res *resource, ns string, obj api.Object) (*record, error) {
	m, _ := api.Accessor(obj)
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
		m.SetName(prefix + generateNameSuffix())
	}
	if err := validate(res, obj); err != nil {
		return nil, err
	}
	m.SetUID(newUID())
	m.SetCreationTimestamp(s.now())
	m.SetDeletionTimestamp(nil)
	m.SetDeletionGracePeriodSeconds(nil)
	m.SetGeneration(0)
	if !res.info.builtin || res.info.Kind == "Pod" {
		m.SetGeneration(1)
	}
	switch o := obj.(type) {
	case *api.Pod:
		if o.Status.Phase == "" {
			o.Status.Phase = api.PodPending
		}
	case *api.Namespace:
		o.Status.Phase = api.NamespaceActive
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if res.info.Namespaced {
		if err := s.namespaceAcceptsLocked(res, m); err != nil {
			return nil, err
		}
	}
	key := objectKey(m.GetNamespace(), m.GetName())
	if _, exists := res.objects[key]; exists {
		return nil, api.NewAlreadyExists(res.info.GroupResource(), m.GetName())
	}
	return s.commit(res, watch.Added, key, obj, nil).obj, nil
}

// namespaceAcceptsLocked is the NamespaceLifecycle admission check (NS1, NS2).
func (s *Server) namespaceAcceptsLocked(res *resource, m api.MetaObject) error {
	nsRes := s.resources["/namespaces"]
	rec := nsRes.objects[m.GetNamespace()]
	if rec == nil {
		return api.NewNotFound(api.GroupResource{Resource: "namespaces"}, m.GetNamespace())
	}
	if ns, ok := rec.obj.(*api.Namespace); ok && (ns.Status.Phase == api.NamespaceTerminating || ns.DeletionTimestamp != nil) {
		st := api.NewForbidden(res.info.GroupResource(), m.GetName(), fmt.Errorf(
			"unable to create new content in namespace %s because it is being terminated", m.GetNamespace()))
		st.Details.Causes = []api.StatusCause{{
			Type:    api.NamespaceTerminatingCause,
			Message: fmt.Sprintf("namespace %s is being terminated", m.GetNamespace()),
			Field:   "metadata.namespace",
		}}
		return st
	}
	return nil
}

// updateOptions say where an update comes from.
type updateOptions struct {
	subresource string // "" or "status"
	// expectRV, when set, is the RV the object was read at (a patch): a different stored RV
	// is a conflict even if the body carries none.
	expectRV string
}

// update replaces an object (rest.BeforeUpdate + Store.Update; P1–P5). obj is private and
// already checked against the URL name. A no-op writes nothing (0.3, R16).
func (s *Server) update(res *resource, ns string, obj api.Object, uo updateOptions) (*record, error) {
	m, _ := api.Accessor(obj)
	if err := checkNamespace(res, m, ns); err != nil {
		return nil, err
	}
	gr := res.info.GroupResource()
	key := objectKey(m.GetNamespace(), m.GetName())

	s.mu.Lock()
	defer s.mu.Unlock()
	old := res.objects[key]
	if old == nil {
		return nil, api.NewNotFound(gr, m.GetName())
	}
	oldRV := strconv.FormatUint(old.rv, 10)
	switch rv := m.GetResourceVersion(); {
	case rv == "" && uo.expectRV == "" && !res.info.AllowUnconditionalUpdate:
		return nil, api.NewInvalid(res.info.groupKind(), m.GetName(), []api.StatusCause{{
			Type: api.CauseTypeFieldValueInvalid, Field: "metadata.resourceVersion",
			Message: "Invalid value: 0: must be specified for an update",
		}})
	case rv != "" && rv != oldRV, rv == "" && uo.expectRV != "" && uo.expectRV != oldRV:
		return nil, api.NewConflict(gr, m.GetName(), errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if uid := m.GetUID(); uid != "" && uid != old.meta.GetUID() {
		return nil, api.NewConflict(gr, m.GetName(), preconditionFailed("UID", uid, old.meta.GetUID()))
	}

	if uo.subresource == "status" {
		obj = withStatusOf(old.obj, obj)
		m, _ = api.Accessor(obj)
	} else {
		// The main resource keeps the stored status, whatever the body says: only the status
		// subresource writes it (the pod, namespace and custom-resource strategies'
		// PrepareForUpdate). So a spec writer and a status writer never undo each other.
		obj = withStatusOf(obj, old.obj)
		m, _ = api.Accessor(obj)
		m.SetUID(old.meta.GetUID())
		m.SetCreationTimestamp(old.meta.GetCreationTimestamp())
		m.SetDeletionTimestamp(old.meta.GetDeletionTimestamp().DeepCopy())
		m.SetDeletionGracePeriodSeconds(copyInt64(old.meta.GetDeletionGracePeriodSeconds()))
		m.SetGeneration(old.meta.GetGeneration())
		if m.GetGeneration() > 0 && specChanged(old.obj, obj) {
			m.SetGeneration(old.meta.GetGeneration() + 1)
		}
		if ns, ok := obj.(*api.Namespace); ok && ns.DeletionTimestamp != nil {
			ns.Status.Phase = api.NamespaceTerminating
		}
	}
	if err := validate(res, obj); err != nil {
		return nil, err
	}
	m.SetResourceVersion(oldRV)
	if enc, err := json.Marshal(obj); err == nil && bytes.Equal(enc, old.json()) {
		return old, nil
	}
	if m.GetDeletionTimestamp() != nil && len(m.GetFinalizers()) == 0 {
		// The last finalizer is gone: the object goes now (D3).
		rec := s.commit(res, watch.Deleted, key, obj, old).obj
		if res.info.Namespaced {
			s.maybeFinishNamespaceLocked(m.GetNamespace())
		}
		return rec, nil
	}
	return s.commit(res, watch.Modified, key, obj, old).obj, nil
}

// preconditionFailed is the text of storage.NewInvalidObjError for a failed precondition,
// which the real server capitalises (E47).
func preconditionFailed(field, want, got string) error {
	return errors.New("Precondition failed: " + field + " in precondition: " + want + ", " + field + " in object meta: " + got)
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
func withStatusOf(stored, updated api.Object) api.Object {
	out := stored.DeepCopyObject()
	switch o := out.(type) {
	case *api.Pod:
		if u, ok := updated.(*api.Pod); ok {
			o.Status = *u.Status.DeepCopy()
		}
	case *api.Namespace:
		if u, ok := updated.(*api.Namespace); ok {
			o.Status = u.Status
		}
	case *api.Unstructured:
		if u, ok := updated.(*api.Unstructured); ok {
			if st, found := u.Object["status"]; found {
				_ = api.SetNestedField(o.Object, st, "status")
			} else {
				delete(o.Object, "status")
			}
		}
	}
	return out
}

// specChanged decides whether generation moves (P5): pods compare their spec; registered
// kinds compare everything outside metadata and status.
func specChanged(old, updated api.Object) bool {
	switch o := old.(type) {
	case *api.Pod:
		u, ok := updated.(*api.Pod)
		return !ok || !reflect.DeepEqual(o.Spec, u.Spec)
	case *api.Unstructured:
		u, ok := updated.(*api.Unstructured)
		if !ok {
			return true
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
		a, _ := json.Marshal(strip(o.Object))
		b, _ := json.Marshal(strip(u.Object))
		return !bytes.Equal(a, b)
	}
	return false
}

// deleteResult is what a DELETE answers with (D4): the object's state after the call, and
// whether it is gone (false when finalizers or namespace termination keep it).
type deleteResult struct {
	rec     *record
	deleted bool
}

// remove deletes an object (Store.Delete; D1–D4, NS3, NS4).
func (s *Server) remove(res *resource, ns, name string, opts api.DeleteOptions) (deleteResult, error) {
	gr := res.info.GroupResource()
	s.mu.Lock()
	defer s.mu.Unlock()
	old := res.objects[objectKey(ns, name)]
	if old == nil {
		return deleteResult{}, api.NewNotFound(gr, name)
	}
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != old.meta.GetUID() {
			return deleteResult{}, api.NewConflict(gr, name, preconditionFailed("UID", *p.UID, old.meta.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != strconv.FormatUint(old.rv, 10) {
			return deleteResult{}, api.NewConflict(gr, name, preconditionFailed("ResourceVersion", *p.ResourceVersion, strconv.FormatUint(old.rv, 10)))
		}
	}
	if res.info.builtin && res.info.Kind == "Namespace" {
		if protectedNamespaces[name] {
			return deleteResult{}, api.NewForbidden(gr, name, errors.New("this namespace may not be deleted"))
		}
		return s.removeNamespaceLocked(res, old), nil
	}
	return s.removeLocked(res, old), nil
}

// removeLocked deletes one record, or marks it when finalizers hold it.
func (s *Server) removeLocked(res *resource, old *record) deleteResult {
	if len(old.meta.GetFinalizers()) > 0 {
		if old.meta.GetDeletionTimestamp() != nil {
			return deleteResult{rec: old}
		}
		obj := old.obj.DeepCopyObject()
		m, _ := api.Accessor(obj)
		now := s.now()
		m.SetDeletionTimestamp(&now)
		zero := int64(0)
		m.SetDeletionGracePeriodSeconds(&zero)
		return deleteResult{rec: s.commit(res, watch.Modified, old.key, obj, old).obj}
	}
	rec := s.commit(res, watch.Deleted, old.key, old.obj.DeepCopyObject(), old).obj
	if res.info.Namespaced {
		s.maybeFinishNamespaceLocked(old.meta.GetNamespace())
	}
	return deleteResult{rec: rec, deleted: true}
}

// removeNamespaceLocked marks the namespace Terminating, deletes its contents and removes it
// once nothing is left (NS4). Objects held by finalizers keep it Terminating until they go.
func (s *Server) removeNamespaceLocked(res *resource, old *record) deleteResult {
	cur := old
	if old.meta.GetDeletionTimestamp() == nil {
		obj := old.obj.DeepCopyObject().(*api.Namespace)
		now := s.now()
		obj.DeletionTimestamp = &now
		obj.Status.Phase = api.NamespaceTerminating
		cur = s.commit(res, watch.Modified, old.key, obj, old).obj
	}
	name := old.meta.GetName()
	for _, id := range sortedKeys(s.resources) {
		r := s.resources[id]
		if !r.info.Namespaced {
			continue
		}
		for _, rec := range s.readPage(r, name, s.rev, "", 0, nil).items {
			if rec.meta.GetDeletionTimestamp() == nil || len(rec.meta.GetFinalizers()) == 0 {
				s.removeLocked(r, rec)
			}
		}
	}
	s.maybeFinishNamespaceLocked(name)
	if rec, ok := res.objects[old.key]; !ok {
		return deleteResult{rec: s.lastDeleted(res, old.key), deleted: true}
	} else if rec != cur {
		cur = rec
	}
	return deleteResult{rec: cur}
}

// lastDeleted finds the record of the newest delete of key in the history.
func (s *Server) lastDeleted(res *resource, key string) *record {
	for rv := s.rev; rv > s.hist.start; rv-- {
		if ev := s.hist.at(rv); ev.res == res && ev.obj.key == key {
			return ev.obj
		}
	}
	return nil
}

// maybeFinishNamespaceLocked removes a Terminating namespace once it is empty.
func (s *Server) maybeFinishNamespaceLocked(ns string) {
	if ns == "" {
		return
	}
	nsRes := s.resources["/namespaces"]
	rec := nsRes.objects[ns]
	if rec == nil || rec.meta.GetDeletionTimestamp() == nil || len(rec.meta.GetFinalizers()) > 0 {
		return
	}
	for _, r := range s.resources {
		if !r.info.Namespaced {
			continue
		}
		keys := r.sortedKeys()
		i := sort.SearchStrings(keys, ns+"/")
		if i < len(keys) && len(keys[i]) > len(ns) && keys[i][:len(ns)+1] == ns+"/" {
			return
		}
	}
	s.commit(nsRes, watch.Deleted, rec.key, rec.obj.DeepCopyObject(), rec)
}

// get reads one object (L6): RV "" is the latest, "0" any (the latest here), N not older
// than N.
func (s *Server) get(ctx context.Context, res *resource, ns, name, rvText string) (*record, error) {
	rv, err := parseResourceVersion(rvText)
	if err != nil {
		return nil, err
	}
	if rv > 0 {
		if err := s.waitForRV(ctx, rv); err != nil {
			return nil, err
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rec := res.objects[objectKey(ns, name)]
	if rec == nil {
		return nil, api.NewNotFound(res.info.GroupResource(), name)
	}
	return rec, nil
}
