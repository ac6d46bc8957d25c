package fieldmanager

import (
	"encoding/json"
	"time"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
)

// IgnoreManagedFieldsTimestamps mirrors IgnoreManagedFieldsTimestampsTransformer in
// k8s.io/apiserver pkg/endpoints/handlers/fieldmanager/equality.go: a write that changes
// nothing but the times of managedFields entries (a no-op update or apply) keeps the old
// times, so it stays a no-op for storage and watchers. newObj is changed in place and
// returned.
func IgnoreManagedFieldsTimestamps(newObj, oldObj *api.Unstructured) *api.Unstructured {
	newEntries, _ := managedFieldsOf(newObj)
	oldEntries, _ := managedFieldsOf(oldObj)
	if len(newEntries) != len(oldEntries) || len(newEntries) == 0 {
		return newObj
	}
	changed := false
	for i := range newEntries {
		if !sameTime(entryTime(newEntries[i]), entryTime(oldEntries[i])) {
			changed = true
			break
		}
	}
	if !changed {
		return newObj
	}
	for i := range newEntries {
		if !fp.EqualValues(comparableEntry(newEntries[i]), comparableEntry(oldEntries[i])) {
			return newObj
		}
	}
	if !equalIgnoringManagedFields(newObj.Object, oldObj.Object) {
		return newObj
	}
	out := make([]any, len(newEntries))
	for i, e := range newEntries {
		m, _ := e.(map[string]any)
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		if t, ok := oldEntries[i].(map[string]any)["time"]; ok {
			c["time"] = t
		} else {
			delete(c, "time")
		}
		out[i] = c
	}
	newObj.Object["metadata"].(map[string]any)["managedFields"] = out
	return newObj
}

func entryTime(e any) *time.Time {
	m, _ := e.(map[string]any)
	s, _ := m["time"].(string)
	if s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	return &t
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// comparableEntry is an entry without its time, FieldsV1 as a JSON tree whatever form it
// is held in.
func comparableEntry(e any) any {
	m, ok := e.(map[string]any)
	if !ok {
		return e
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		switch {
		case k == "time":
		case k == "fieldsV1":
			if raw, ok := v.(json.RawMessage); ok {
				var tree any
				if json.Unmarshal(raw, &tree) == nil {
					v = tree
				}
			}
			c[k] = v
		default:
			c[k] = v
		}
	}
	return c
}

// equalIgnoringManagedFields mirrors equalIgnoringValueAtPath for metadata.managedFields.
func equalIgnoringManagedFields(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			return false
		}
		if k != "metadata" {
			if !fp.EqualValues(av, bv) {
				return false
			}
			continue
		}
		am, aok := av.(map[string]any)
		bm, bok := bv.(map[string]any)
		if !aok || !bok {
			continue
		}
		if len(am) != len(bm) {
			return false
		}
		for mk, x := range am {
			y, ok := bm[mk]
			if !ok {
				return false
			}
			if mk != "managedFields" && !fp.EqualValues(x, y) {
				return false
			}
		}
	}
	return true
}
