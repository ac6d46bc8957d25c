package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/store"
)

// RefManager mirrors controller.BaseControllerRefManager with the Pod and ReplicaSet ref
// managers of pkg/controller/controller_ref_manager.go: it decides, object by object, which
// of the candidates a controller owns, adopting orphans that match its selector and
// releasing owned objects that no longer match.
type RefManager struct {
	// Controller is the owner (a ReplicaSet, a Deployment, ...).
	Controller *api.Unstructured
	// Selector is the owner's selector.
	Selector labels.Selector
	// CanAdoptFunc is checked once, before the first adoption (RecheckDeletionTimestamp).
	CanAdoptFunc func(ctx context.Context) error
	// Patch writes a strategic merge patch to the object (namespace, name).
	Patch func(ctx context.Context, namespace, name string, data []byte) error

	once     sync.Once
	adoptErr error
}

func (m *RefManager) canAdopt(ctx context.Context) error {
	m.once.Do(func() {
		if m.CanAdoptFunc != nil {
			m.adoptErr = m.CanAdoptFunc(ctx)
		}
	})
	return m.adoptErr
}

// Claim mirrors ClaimPods / ClaimReplicaSets: the objects m.Controller owns after adopting
// and releasing, and the errors of the patches that failed (the caller retries).
func (m *RefManager) Claim(ctx context.Context, objs []*api.Unstructured, filters ...func(*api.Unstructured) bool) ([]*api.Unstructured, error) {
	var claimed []*api.Unstructured
	var errs []error
	match := func(o *api.Unstructured) bool {
		if !m.Selector.Matches(labels.Set(o.GetLabels())) {
			return false
		}
		for _, f := range filters {
			if !f(o) {
				return false
			}
		}
		return true
	}
	for _, o := range objs {
		ok, err := m.claimObject(ctx, o, match)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, o)
		}
	}
	return claimed, errors.Join(errs...)
}

// claimObject mirrors BaseControllerRefManager.ClaimObject.
func (m *RefManager) claimObject(ctx context.Context, o *api.Unstructured, match func(*api.Unstructured) bool) (bool, error) {
	owner := m.Controller
	if ref := GetControllerOf(o); ref != nil {
		if ref.UID != owner.GetUID() {
			return false, nil // someone else's
		}
		if match(o) {
			return true, nil // ours, even while we are being deleted: that takes no write
		}
		if owner.GetDeletionTimestamp() != nil {
			return false, nil // a dying owner releases nothing
		}
		err := m.Patch(ctx, o.GetNamespace(), o.GetName(), releasePatch(owner.GetUID(), o.GetUID()))
		if err != nil && !api.IsNotFound(err) && !api.IsInvalid(err) {
			return false, err // someone else released it, or a transient error: retry
		}
		return false, nil
	}
	// an orphan
	if owner.GetDeletionTimestamp() != nil || !match(o) || o.GetDeletionTimestamp() != nil {
		return false, nil
	}
	if owner.GetNamespace() != "" && owner.GetNamespace() != o.GetNamespace() {
		return false, nil
	}
	if err := m.canAdopt(ctx); err != nil {
		return false, fmt.Errorf("can't adopt %s %s/%s (%s): %w", o.GetKind(), o.GetNamespace(), o.GetName(), o.GetUID(), err)
	}
	ref := NewControllerRef(owner)
	if err := m.Patch(ctx, o.GetNamespace(), o.GetName(), adoptPatch(ref, o.GetUID())); err != nil {
		if api.IsNotFound(err) {
			return false, nil
		}
		return false, err // someone else adopted it first, or a transient error
	}
	return true, nil
}

// adoptPatch mirrors ownerRefControllerPatch: add the controller reference; the object's
// uid makes the patch fail on a recreated object of the same name.
func adoptPatch(ref api.OwnerReference, uid string) []byte {
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{
		"ownerReferences": []api.OwnerReference{ref},
		"uid":             uid,
	}})
	return b
}

// releasePatch mirrors GenerateDeleteOwnerRefStrategicMergeBytes.
func releasePatch(ownerUID, uid string) []byte {
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{
		"ownerReferences": []any{map[string]any{"$patch": "delete", "uid": ownerUID}},
		"uid":             uid,
	}})
	return b
}

// RecheckDeletionTimestamp mirrors controller.RecheckDeletionTimestamp: adopt only if a
// fresh read (get) of the owner is still the same object and not being deleted. The read
// goes to the server, not the cache, because a cache could hide a deletion (#42639).
func RecheckDeletionTimestamp(uid string, get func(ctx context.Context) (*api.Unstructured, error)) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		fresh, err := get(ctx)
		if err != nil {
			return err
		}
		if fresh.GetUID() != uid {
			return fmt.Errorf("original %s %s/%s is gone: got uid %s, wanted %s", fresh.GetKind(), fresh.GetNamespace(), fresh.GetName(), fresh.GetUID(), uid)
		}
		if fresh.GetDeletionTimestamp() != nil {
			return fmt.Errorf("%s %s/%s has just been deleted at %v", fresh.GetKind(), fresh.GetNamespace(), fresh.GetName(), fresh.GetDeletionTimestamp())
		}
		return nil
	}
}

// PodControllerIndex mirrors controller.PodControllerIndex: the pod informer's index by
// controller reference.
const PodControllerIndex = "podController"

// PodControllerIndexKey mirrors controller.PodControllerIndexKey: "ns/Kind/name/uid" for a
// controlled pod, "ns" for an orphan.
func PodControllerIndexKey(namespace string, ref *api.OwnerReference) string {
	if ref == nil {
		return namespace
	}
	return namespace + "/" + ref.Kind + "/" + ref.Name + "/" + ref.UID
}

// AddPodControllerIndexer mirrors controller.AddPodControllerIndexer: install the index
// once, however many controllers ask for it.
func AddPodControllerIndexer(inf informer.SharedIndexInformer) error {
	if _, ok := inf.GetIndexer().GetIndexers()[PodControllerIndex]; ok {
		return nil
	}
	return inf.AddIndexers(store.Indexers{PodControllerIndex: func(obj any) ([]string, error) {
		u, ok := AsUnstructured(obj)
		if !ok {
			return nil, nil
		}
		return []string{PodControllerIndexKey(u.GetNamespace(), GetControllerOf(u))}, nil
	}})
}

// FilterPodsByOwner mirrors controller.FilterPodsByOwner: the pods controlled by the owner
// (kind, and owner's namespace, name and uid), and the namespace's orphans if asked.
func FilterPodsByOwner(indexer store.Indexer, owner *api.Unstructured, kind string, includeOrphans bool) ([]*api.Unstructured, error) {
	ns := owner.GetNamespace()
	keys := []string{PodControllerIndexKey(ns, &api.OwnerReference{Kind: kind, Name: owner.GetName(), UID: owner.GetUID()})}
	if includeOrphans {
		keys = append(keys, PodControllerIndexKey(ns, nil))
	}
	var out []*api.Unstructured
	for _, k := range keys {
		objs, err := indexer.ByIndex(PodControllerIndex, k)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if u, ok := AsUnstructured(o); ok {
				out = append(out, u)
			}
		}
	}
	return out, nil
}
