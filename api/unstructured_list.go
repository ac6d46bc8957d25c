package api

import (
	"encoding/json"
	"fmt"
	"strings"
)

// UnstructuredList mirrors unstructured.UnstructuredList in apimachinery: a list of a kind
// the Scheme does not know. Object holds apiVersion, kind and metadata; the items live in
// Items, never in Object. JSON: {"apiVersion":…,"kind":…,"metadata":{…},"items":[…]}.
type UnstructuredList struct {
	Object map[string]any
	Items  []Unstructured
}

// reader and writer wrap Object so that the Unstructured accessors serve the list's own
// apiVersion, kind and metadata. writer first gives a nil Object a map the list keeps.
func (l *UnstructuredList) reader() *Unstructured { return &Unstructured{Object: l.Object} }

func (l *UnstructuredList) writer() *Unstructured {
	if l.Object == nil {
		l.Object = map[string]any{}
	}
	return &Unstructured{Object: l.Object}
}

// GetObjectKind mirrors UnstructuredList.GetObjectKind: the list is its own ObjectKind.
func (l *UnstructuredList) GetObjectKind() ObjectKind { return l }

// GroupVersionKind mirrors UnstructuredList.GroupVersionKind.
func (l *UnstructuredList) GroupVersionKind() GroupVersionKind {
	return l.reader().GroupVersionKind()
}

// SetGroupVersionKind mirrors UnstructuredList.SetGroupVersionKind.
func (l *UnstructuredList) SetGroupVersionKind(gvk GroupVersionKind) {
	l.writer().SetGroupVersionKind(gvk)
}

// GetResourceVersion mirrors UnstructuredList.GetResourceVersion.
func (l *UnstructuredList) GetResourceVersion() string { return l.reader().GetResourceVersion() }

// SetResourceVersion mirrors UnstructuredList.SetResourceVersion.
func (l *UnstructuredList) SetResourceVersion(v string) { l.writer().SetResourceVersion(v) }

// GetContinue mirrors UnstructuredList.GetContinue.
func (l *UnstructuredList) GetContinue() string { return l.reader().GetContinue() }

// SetContinue mirrors UnstructuredList.SetContinue.
func (l *UnstructuredList) SetContinue(v string) { l.writer().SetContinue(v) }

// GetRemainingItemCount mirrors UnstructuredList.GetRemainingItemCount.
func (l *UnstructuredList) GetRemainingItemCount() *int64 {
	return l.reader().GetRemainingItemCount()
}

// SetRemainingItemCount mirrors UnstructuredList.SetRemainingItemCount.
func (l *UnstructuredList) SetRemainingItemCount(v *int64) { l.writer().SetRemainingItemCount(v) }

// DeepCopyInto mirrors UnstructuredList.DeepCopyInto.
func (l *UnstructuredList) DeepCopyInto(out *UnstructuredList) {
	out.Object, _ = DeepCopyJSONValue(l.Object).(map[string]any)
	out.Items = deepCopySlice(l.Items)
}

// DeepCopy mirrors UnstructuredList.DeepCopy.
func (l *UnstructuredList) DeepCopy() *UnstructuredList { return deepCopyOf(l) }

// DeepCopyObject mirrors UnstructuredList.DeepCopyObject.
func (l *UnstructuredList) DeepCopyObject() Object {
	if c := l.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// MarshalJSON mirrors UnstructuredList.MarshalJSON. items is always an array, [] when empty
// (docs/behaviour/wire.md L1).
func (l UnstructuredList) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(l.Object)+1)
	for k, v := range l.Object {
		out[k] = v
	}
	items := l.Items
	if items == nil {
		items = []Unstructured{}
	}
	out["items"] = items
	return json.Marshal(out)
}

// UnmarshalJSON mirrors UnstructuredList.UnmarshalJSON. A typed list from a real server
// omits kind and apiVersion on its items (docs/behaviour/wire.md N7); they are filled in from the list,
// e.g. kind "Widget" for a "WidgetList", so every item is a complete object.
func (l *UnstructuredList) UnmarshalJSON(data []byte) error {
	m, err := decodeJSONObject(data)
	if err != nil {
		return err
	}
	raw, _ := m["items"].([]any)
	if m["items"] != nil && raw == nil {
		return fmt.Errorf("items is %T, not an array", m["items"])
	}
	delete(m, "items")

	list := UnstructuredList{Object: m, Items: make([]Unstructured, 0, len(raw))}
	apiVersion, _, _ := NestedString(m, "apiVersion")
	kind, _, _ := NestedString(m, "kind")
	itemKind := strings.TrimSuffix(kind, "List")
	for i, r := range raw {
		obj, ok := r.(map[string]any)
		if !ok {
			return fmt.Errorf("items[%d] is %T, not an object", i, r)
		}
		item := Unstructured{Object: obj}
		if item.GetKind() == "" && itemKind != "" {
			item.SetKind(itemKind)
		}
		if item.GetAPIVersion() == "" && apiVersion != "" {
			item.SetAPIVersion(apiVersion)
		}
		list.Items = append(list.Items, item)
	}
	*l = list
	return nil
}
