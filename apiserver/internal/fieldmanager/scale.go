package fieldmanager

import (
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// scaleGroupVersion and replicasPathInScale are where a Scale object keeps its replicas.
const scaleGroupVersion = "autoscaling/v1"

var replicasPathInScale = fp.MakePath("spec", "replicas")

// ScaleHandler mirrors managedfields.ScaleHandler: the scale subresource has its own
// object (autoscaling/v1 Scale) and so its own field manager, and this moves ownership of
// the replicas between the parent's managedFields and the Scale's. mappings gives, per
// apiVersion of the parent, the path of its replicas (apps/v1: .spec.replicas).
type ScaleHandler struct {
	parentEntries []any
	groupVersion  string
	mappings      map[string]fp.Path
}

// NewScaleHandler mirrors managedfields.NewScaleHandler: parentEntries are the parent's
// metadata.managedFields, groupVersion its version ("apps/v1").
func NewScaleHandler(parentEntries []any, groupVersion string, mappings map[string]fp.Path) *ScaleHandler {
	return &ScaleHandler{parentEntries: parentEntries, groupVersion: groupVersion, mappings: mappings}
}

// ToSubresource mirrors ScaleHandler.ToSubresource: the Scale's entries, one per parent
// manager that owns the replicas, owning the Scale's .spec.replicas.
func (h *ScaleHandler) ToSubresource() ([]any, error) {
	parent, err := decodeEntries(h.parentEntries)
	if err != nil {
		return nil, err
	}
	out := newManaged()
	for id, vs := range parent.fields {
		path, ok := h.mappings[vs.apiVersion]
		if !ok || path == nil || !vs.set.Has(path) {
			continue
		}
		out.fields[id] = &versionedSet{set: fp.NewSet(replicasPathInScale), apiVersion: scaleGroupVersion, applied: vs.applied}
		out.times[id] = parent.times[id]
	}
	return encodeManaged(out)
}

// ToParent mirrors ScaleHandler.ToParent: the parent's entries after a write through the
// scale subresource. A parent manager no longer in the Scale's entries loses the replicas;
// a new Scale manager owns the parent's replicas (with no time, as upstream leaves it).
func (h *ScaleHandler) ToParent(scaleEntries []any) ([]any, error) {
	parent, err := decodeEntries(h.parentEntries)
	if err != nil {
		return nil, err
	}
	scale, err := decodeEntries(scaleEntries)
	if err != nil {
		return nil, err
	}
	out := newManaged()
	for id, vs := range parent.fields {
		path, ok := h.mappings[vs.apiVersion]
		if !ok {
			continue
		}
		if path == nil || !vs.set.Has(path) {
			out.fields[id], out.times[id] = vs, parent.times[id]
			continue
		}
		if _, ok := scale.fields[id]; !ok {
			if rest := vs.set.Difference(fp.NewSet(path)); !rest.Empty() {
				out.fields[id] = &versionedSet{set: rest, apiVersion: vs.apiVersion, applied: vs.applied}
				out.times[id] = parent.times[id]
			}
			continue
		}
		out.fields[id], out.times[id] = vs, parent.times[id]
		delete(scale.fields, id)
	}
	for id, vs := range scale.fields {
		if !vs.set.Has(replicasPathInScale) {
			continue
		}
		out.fields[id] = &versionedSet{set: fp.NewSet(h.mappings[h.groupVersion]), apiVersion: h.groupVersion, applied: vs.applied}
		out.times[id] = parent.times[id]
	}
	return encodeManaged(out)
}
