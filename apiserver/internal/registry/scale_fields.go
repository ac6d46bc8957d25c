package registry

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldmanager"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// Field management of the scale subresource, as the scale REST of a kind drives it: the
// write is recorded by the field manager of the Scale (autoscaling/v1) on a Scale whose
// managedFields the ScaleHandler derives from the parent's, and the ScaleHandler maps the
// result back onto the parent (a new scale writer's entry owns the parent's replicas, with
// no time).

var scaleGVK = api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// scaleFieldManager is the Scale's field manager; its type is the Scale of the parent's
// document when it has one (apps/v1), else the autoscaling/v1 one, else deduced.
func scaleFieldManager(parentAPIVersion string) *fieldmanager.FieldManager {
	model, err := typed.ForBuiltin(scaleGVK, parentAPIVersion)
	if err != nil {
		if model, err = typed.ForBuiltin(scaleGVK, ""); err != nil {
			model = typed.Deduced()
		}
	}
	return fieldmanager.New(model, scaleGVK)
}

func replicasPathOf(o Owner) []string {
	if o.ReplicasPath != nil {
		return o.ReplicasPath
	}
	return []string{"spec", "replicas"}
}

// scaleHandler is the ScaleHandler of parent's managedFields: every apiVersion its entries
// are at keeps its replicas at path.
func scaleHandler(parent *api.Unstructured, path []string) (*fieldmanager.ScaleHandler, []any) {
	md, _ := parent.Object["metadata"].(map[string]any)
	entries, _ := md["managedFields"].([]any)
	gv := parent.GetAPIVersion()
	mappings := map[string]fp.Path{gv: fp.MakePath(toAny(path)...)}
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			if v, ok := m["apiVersion"].(string); ok {
				mappings[v] = mappings[gv]
			}
		}
	}
	return fieldmanager.NewScaleHandler(entries, gv, mappings), entries
}

func toAny(path []string) []any {
	out := make([]any, len(path))
	for i, p := range path {
		out[i] = p
	}
	return out
}

// scaleOfParent is the Scale the scale subresource shows of parent, as far as field
// management sees it: its identity and spec.replicas, with managedFields entries.
func scaleOfParent(parent *api.Unstructured, path []string, entries []any) *api.Unstructured {
	md := map[string]any{"name": parent.GetName()}
	if ns := parent.GetNamespace(); ns != "" {
		md["namespace"] = ns
	}
	if uid := parent.GetUID(); uid != "" {
		md["uid"] = uid
	}
	if entries != nil {
		md["managedFields"] = entries
	}
	scale := map[string]any{"apiVersion": scaleGVK.APIVersion(), "kind": scaleGVK.Kind, "metadata": md}
	if v, ok := nestedValue(parent.Object, path...); ok && v != nil {
		scale["spec"] = map[string]any{"replicas": v}
	}
	return &api.Unstructured{Object: api.DeepCopyJSONValue(scale).(map[string]any)}
}

// setEntries sets obj's metadata.managedFields (none when entries is empty).
func setEntries(obj *api.Unstructured, entries []any) {
	md, _ := obj.Object["metadata"].(map[string]any)
	if md == nil {
		return
	}
	if len(entries) == 0 {
		delete(md, "managedFields")
		return
	}
	md["managedFields"] = entries
}

// recordScale records a non-apply write through the scale subresource: obj is the parent
// as the write leaves it, live as it was.
func (s *Store) recordScale(live, obj *api.Unstructured, o Owner) error {
	if live == nil {
		return nil
	}
	path := replicasPathOf(o)
	h, _ := scaleHandler(live, path)
	scaleEntries, err := h.ToSubresource()
	if err != nil {
		setEntries(obj, nil) // UpdateNoErrors: nothing half right
		return nil
	}
	oldScale := scaleOfParent(live, path, scaleEntries)
	newScale := scaleOfParent(obj, path, nil)
	out, err := scaleFieldManager(live.GetAPIVersion()).Update(oldScale, newScale, o.Manager, "scale", s.Now())
	if err != nil {
		setEntries(obj, nil)
		return nil
	}
	md, _ := out.Object["metadata"].(map[string]any)
	after, _ := md["managedFields"].([]any)
	parentEntries, err := h.ToParent(after)
	if err != nil {
		setEntries(obj, nil)
		return nil
	}
	setEntries(obj, parentEntries)
	return nil
}

// ApplyScale applies a Scale configuration (its spec.replicas, if any) to parent through the
// scale subresource: the Scale's field manager merges it by ownership (conflicts are the
// Scale's paths) and the parent gets the replicas and the mapped entries. It returns the
// parent to store, or nil when nothing changed.
func (s *Store) ApplyScale(parent *api.Unstructured, path []string, applied *api.Unstructured, manager string, force bool) (*api.Unstructured, error) {
	h, _ := scaleHandler(parent, path)
	scaleEntries, err := h.ToSubresource()
	if err != nil {
		return nil, err
	}
	live := scaleOfParent(parent, path, scaleEntries)
	out, err := scaleFieldManager(parent.GetAPIVersion()).Apply(live, applied, manager, "scale", force, s.Now())
	if err != nil {
		return nil, err
	}
	next := parent.DeepCopy()
	if v, ok := nestedValue(out.Object, "spec", "replicas"); ok {
		_ = api.SetNestedField(next.Object, v, path...)
	}
	md, _ := out.Object["metadata"].(map[string]any)
	after, _ := md["managedFields"].([]any)
	parentEntries, err := h.ToParent(after)
	if err != nil {
		return nil, err
	}
	setEntries(next, parentEntries)
	return next, nil
}

// nestedValue is the value at path in obj.
func nestedValue(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}
