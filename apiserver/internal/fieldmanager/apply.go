package fieldmanager

import (
	"errors"
	"fmt"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// Apply mirrors FieldManager.Apply: applied (a server-side apply patch) merges into live
// (nil when the object does not exist yet) as manager. A conflict is a 409 *api.Status
// with upstream's message; force takes the fields over. Fields the manager owned alone and
// no longer applies are removed. Other failures are *api.Status 400 (a wrong kind or
// version, managedFields in the patch) or plain errors (a patch the type rejects, such
// as a duplicate key) the caller reports as upstream does.
func (f *FieldManager) Apply(live, applied *api.Unstructured, manager, subresource string, force bool, now api.Time) (*api.Unstructured, error) {
	liveObj, _ := typed.JSONTree(objectOf(live)).(map[string]any)
	if liveObj == nil {
		liveObj = f.emptyObject()
	}
	appliedObj, _ := typed.JSONTree(applied.Object).(map[string]any)
	if appliedObj == nil {
		appliedObj = map[string]any{}
	}
	m, err := decodeManaged(live)
	if err != nil {
		return nil, fmt.Errorf("failed to decode managed fields: %v", err)
	}
	// versionCheckManager
	if gvk := applied.GroupVersionKind(); gvk != f.gvk {
		return nil, api.NewBadRequest(fmt.Sprintf("invalid object type: %v", gvkString(gvk)))
	}
	out, m, err := f.applyLastApplied(liveObj, appliedObj, m, manager, subresource, force, now.Time)
	if err != nil {
		var c *conflictError
		if errors.As(err, &c) {
			return nil, conflictStatus(c.list())
		}
		return nil, err
	}
	entries, err := encodeManaged(m)
	if err != nil {
		return nil, fmt.Errorf("failed to encode managed fields: %v", err)
	}
	result := &api.Unstructured{Object: out}
	setManagedFields(result, entries)
	return result, nil
}

// applyLastApplied runs lastAppliedUpdater and lastAppliedManager around the rest of the
// chain: for kubectl, conflicts on fields its last-applied annotation still describes are
// forced, and the annotation is rewritten when the object carries one.
func (f *FieldManager) applyLastApplied(live, applied map[string]any, m *managed, manager, subresource string, force bool, now time.Time) (map[string]any, *managed, error) {
	snapshot := m.copy()
	out, m2, err := f.applySkipNonApplied(live, applied, m, manager, subresource, force, now)
	if err != nil && manager == kubectlManagerName {
		var c *conflictError
		if errors.As(err, &c) {
			allowed, aerr := f.allowedConflictsFromLastApplied(live)
			if aerr == nil {
				rest := c.without(allowed)
				if len(rest.managers) > 0 {
					return nil, nil, rest
				}
				out, m2, err = f.applySkipNonApplied(live, applied, snapshot, manager, subresource, true, now)
			}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if manager == kubectlManagerName && hasLastApplied(out) {
		value, err := buildLastApplied(applied)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to build last-applied annotation: %v", err)
		}
		out = setLastApplied(out, value)
	}
	return out, m2, nil
}

// applySkipNonApplied mirrors skipNonAppliedManager.Apply: the first apply to an object
// nobody manages gives what is there to "before-first-apply", so it keeps what the
// configuration does not name.
func (f *FieldManager) applySkipNonApplied(live, applied map[string]any, m *managed, manager, subresource string, force bool, now time.Time) (map[string]any, *managed, error) {
	if len(m.fields) == 0 {
		if err := f.update(f.emptyObject(), live, m, beforeFirstApply, subresource, now, true); err != nil {
			return nil, nil, fmt.Errorf("failed to create manager for existing fields: %v", err)
		}
	}
	id := f.identifier(manager, OperationApply, subresource)
	out, err := f.structuredApply(live, applied, m, id, subresource, force)
	if err != nil {
		return nil, nil, err
	}
	// managedFieldsUpdater: a change stamps the manager's time; a no-op returns live.
	if out != nil {
		t := now.UTC()
		m.times[id] = &t
	} else {
		out = withoutManagedFields(live)
	}
	stripMeta(m, id)
	return out, m, nil
}

// structuredApply mirrors structuredMergeManager.Apply.
func (f *FieldManager) structuredApply(live, applied map[string]any, m *managed, id, subresource string, force bool) (map[string]any, error) {
	patch := &api.Unstructured{Object: applied}
	if gv := patch.GetAPIVersion(); gv != f.gvk.APIVersion() {
		return nil, api.NewBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", gv, f.gvk.APIVersion()))
	}
	if md, ok := applied["metadata"].(map[string]any); ok {
		if v, has := md["managedFields"]; has && v != nil {
			return nil, api.NewBadRequest("metadata.managedFields must be nil")
		}
	}
	liveObj := withoutManagedFields(live)
	f.dropUnknownVersions(m)
	if err := typed.Validate(applied, f.typ, false); err != nil {
		return nil, fmt.Errorf("failed to create typed patch object (%s): %v", f.describe(applied), err)
	}
	if err := typed.Validate(liveObj, f.typ, true); err != nil {
		return nil, fmt.Errorf("failed to create typed live object (%s): %v", f.describe(liveObj), err)
	}
	out, err := f.updater(subresource).Apply(liveObj, applied, f.gvk.APIVersion(), m.fields, id, force)
	if err != nil {
		return nil, err
	}
	if out == nil {
		return nil, nil
	}
	obj, _ := out.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	return api.DeepCopyJSONValue(obj).(map[string]any), nil
}

func (m *managed) copy() *managed {
	out := newManaged()
	for k, v := range m.fields {
		out.fields[k] = v
	}
	for k, v := range m.times {
		out.times[k] = v
	}
	return out
}
