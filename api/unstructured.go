package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Unstructured mirrors unstructured.Unstructured in apimachinery: any object as the
// map[string]any tree of its JSON. The dynamic client and the Scheme (for kinds it does not
// know) use it. Metadata accessors read and write Object["metadata"], so *Unstructured is a
// MetaObject; setting an empty value removes the member, as a typed object would omit it.
type Unstructured struct {
	Object map[string]any
}

// GetObjectKind mirrors Unstructured.GetObjectKind: the object is its own ObjectKind, reading
// the "apiVersion" and "kind" members.
func (u *Unstructured) GetObjectKind() ObjectKind { return u }

// GroupVersionKind mirrors Unstructured.GroupVersionKind.
func (u *Unstructured) GroupVersionKind() GroupVersionKind {
	g, v := ParseAPIVersion(u.GetAPIVersion())
	return GroupVersionKind{Group: g, Version: v, Kind: u.GetKind()}
}

// SetGroupVersionKind mirrors Unstructured.SetGroupVersionKind.
func (u *Unstructured) SetGroupVersionKind(gvk GroupVersionKind) {
	u.SetAPIVersion(gvk.APIVersion())
	u.SetKind(gvk.Kind)
}

// GetAPIVersion mirrors Unstructured.GetAPIVersion.
func (u *Unstructured) GetAPIVersion() string { return u.getString("apiVersion") }

// SetAPIVersion mirrors Unstructured.SetAPIVersion.
func (u *Unstructured) SetAPIVersion(v string) { u.setString(v, "apiVersion") }

// GetKind mirrors Unstructured.GetKind.
func (u *Unstructured) GetKind() string { return u.getString("kind") }

// SetKind mirrors Unstructured.SetKind.
func (u *Unstructured) SetKind(v string) { u.setString(v, "kind") }

// DeepCopyInto mirrors Unstructured.DeepCopyInto: the whole tree is copied.
func (u *Unstructured) DeepCopyInto(out *Unstructured) {
	out.Object, _ = DeepCopyJSONValue(u.Object).(map[string]any)
}

// DeepCopy mirrors Unstructured.DeepCopy.
func (u *Unstructured) DeepCopy() *Unstructured { return deepCopyOf(u) }

// DeepCopyObject mirrors Unstructured.DeepCopyObject.
func (u *Unstructured) DeepCopyObject() Object {
	if c := u.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// MarshalJSON mirrors Unstructured.MarshalJSON: the tree itself. The value receiver lets a
// plain Unstructured (an element of UnstructuredList.Items) encode the same way.
func (u Unstructured) MarshalJSON() ([]byte, error) {
	return json.Marshal(u.Object)
}

// UnmarshalJSON mirrors Unstructured.UnmarshalJSON. The data must be a JSON object; it
// replaces the whole tree. Integers decode as int64 and other numbers as float64, as
// client-go's unstructured decoder does; plain json.Unmarshal would make every number a
// float64 and lose precision above 2^53. JSON null leaves u unchanged, by convention.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	m, err := decodeJSONObject(data)
	if err != nil {
		return err
	}
	u.Object = m
	return nil
}

// decodeJSONObject decodes one JSON object with numbers kept exact (see UnmarshalJSON).
func decodeJSONObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON object")
	}
	if m == nil {
		return nil, errors.New("expected a JSON object, got null")
	}
	if err := convertNumbers(m); err != nil {
		return nil, err
	}
	return m, nil
}

// convertNumbers replaces every json.Number in the tree by an int64 or a float64, in place.
func convertNumbers(v any) error {
	convert := func(n json.Number) (any, error) {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return nil, fmt.Errorf("number %s does not fit in int64 or float64", n)
		}
		return f, nil
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if n, ok := e.(json.Number); ok {
				c, err := convert(n)
				if err != nil {
					return err
				}
				v[k] = c
			} else if err := convertNumbers(e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range v {
			if n, ok := e.(json.Number); ok {
				c, err := convert(n)
				if err != nil {
					return err
				}
				v[i] = c
			} else if err := convertNumbers(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// getString and setString read and write a string member; "" removes it.
func (u *Unstructured) getString(fields ...string) string {
	s, _, _ := NestedString(u.Object, fields...)
	return s
}

func (u *Unstructured) setString(v string, fields ...string) {
	if v == "" {
		RemoveNestedField(u.Object, fields...)
		return
	}
	if cur, _, _ := nestedField(u.Object, fields...); cur == any(v) {
		return // already so: the write path sets kind, apiVersion and namespace again and again
	}
	u.setField(v, fields...)
}

// setField stores value at path. Like upstream, a metadata member that holds something other
// than an object is left alone rather than overwritten.
func (u *Unstructured) setField(value any, fields ...string) {
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	_ = SetNestedField(u.Object, value, fields...)
}

// GetName mirrors Unstructured.GetName.
func (u *Unstructured) GetName() string { return u.getString("metadata", "name") }

// SetName mirrors Unstructured.SetName.
func (u *Unstructured) SetName(v string) { u.setString(v, "metadata", "name") }

// GetGenerateName mirrors Unstructured.GetGenerateName.
func (u *Unstructured) GetGenerateName() string { return u.getString("metadata", "generateName") }

// SetGenerateName mirrors Unstructured.SetGenerateName.
func (u *Unstructured) SetGenerateName(v string) { u.setString(v, "metadata", "generateName") }

// GetNamespace mirrors Unstructured.GetNamespace.
func (u *Unstructured) GetNamespace() string { return u.getString("metadata", "namespace") }

// SetNamespace mirrors Unstructured.SetNamespace.
func (u *Unstructured) SetNamespace(v string) { u.setString(v, "metadata", "namespace") }

// GetUID mirrors Unstructured.GetUID.
func (u *Unstructured) GetUID() string { return u.getString("metadata", "uid") }

// SetUID mirrors Unstructured.SetUID.
func (u *Unstructured) SetUID(v string) { u.setString(v, "metadata", "uid") }

// GetResourceVersion mirrors Unstructured.GetResourceVersion.
func (u *Unstructured) GetResourceVersion() string {
	return u.getString("metadata", "resourceVersion")
}

// SetResourceVersion mirrors Unstructured.SetResourceVersion.
func (u *Unstructured) SetResourceVersion(v string) {
	u.setString(v, "metadata", "resourceVersion")
}

// GetGeneration mirrors Unstructured.GetGeneration; it accepts int64 and float64 numbers.
func (u *Unstructured) GetGeneration() int64 {
	n, _ := nestedInt64(u.Object, "metadata", "generation")
	return n
}

// SetGeneration mirrors Unstructured.SetGeneration; 0 removes the member.
func (u *Unstructured) SetGeneration(v int64) {
	if v == 0 {
		RemoveNestedField(u.Object, "metadata", "generation")
		return
	}
	u.setField(v, "metadata", "generation")
}

// getTime parses an RFC 3339 member; a missing or malformed one is the zero time.
func (u *Unstructured) getTime(fields ...string) (Time, bool) {
	s := u.getString(fields...)
	if s == "" {
		return Time{}, false // absent: time.Parse would fail too, after allocating its error
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return Time{}, false
	}
	return NewTime(t.UTC()), true
}

// setTime writes t the way Time.MarshalJSON does; the zero time removes the member.
func (u *Unstructured) setTime(t Time, fields ...string) {
	if t.IsZero() {
		RemoveNestedField(u.Object, fields...)
		return
	}
	u.setField(t.UTC().Format(time.RFC3339), fields...)
}

// GetCreationTimestamp mirrors Unstructured.GetCreationTimestamp.
func (u *Unstructured) GetCreationTimestamp() Time {
	t, _ := u.getTime("metadata", "creationTimestamp")
	return t
}

// SetCreationTimestamp mirrors Unstructured.SetCreationTimestamp.
func (u *Unstructured) SetCreationTimestamp(v Time) {
	u.setTime(v, "metadata", "creationTimestamp")
}

// GetDeletionTimestamp mirrors Unstructured.GetDeletionTimestamp: nil when absent.
func (u *Unstructured) GetDeletionTimestamp() *Time {
	if t, ok := u.getTime("metadata", "deletionTimestamp"); ok {
		return &t
	}
	return nil
}

// SetDeletionTimestamp mirrors Unstructured.SetDeletionTimestamp; nil removes the member.
func (u *Unstructured) SetDeletionTimestamp(v *Time) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "deletionTimestamp")
		return
	}
	u.setTime(*v, "metadata", "deletionTimestamp")
}

// GetDeletionGracePeriodSeconds mirrors Unstructured.GetDeletionGracePeriodSeconds.
func (u *Unstructured) GetDeletionGracePeriodSeconds() *int64 {
	if n, ok := nestedInt64(u.Object, "metadata", "deletionGracePeriodSeconds"); ok {
		return &n
	}
	return nil
}

// SetDeletionGracePeriodSeconds mirrors Unstructured.SetDeletionGracePeriodSeconds.
func (u *Unstructured) SetDeletionGracePeriodSeconds(v *int64) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "deletionGracePeriodSeconds")
		return
	}
	u.setField(*v, "metadata", "deletionGracePeriodSeconds")
}

// getStringMap reads an object of strings; members that are not strings are skipped.
func (u *Unstructured) getStringMap(fields ...string) map[string]string {
	val, _, _ := nestedField(u.Object, fields...)
	m, ok := val.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// setStringMap writes an object of strings; nil removes the member.
func (u *Unstructured) setStringMap(v map[string]string, fields ...string) {
	if v == nil {
		RemoveNestedField(u.Object, fields...)
		return
	}
	u.setField(v, fields...) // DeepCopyJSONValue turns it into map[string]any
}

// GetLabels mirrors Unstructured.GetLabels.
func (u *Unstructured) GetLabels() map[string]string {
	return u.getStringMap("metadata", "labels")
}

// SetLabels mirrors Unstructured.SetLabels.
func (u *Unstructured) SetLabels(v map[string]string) { u.setStringMap(v, "metadata", "labels") }

// GetAnnotations mirrors Unstructured.GetAnnotations.
func (u *Unstructured) GetAnnotations() map[string]string {
	return u.getStringMap("metadata", "annotations")
}

// SetAnnotations mirrors Unstructured.SetAnnotations.
func (u *Unstructured) SetAnnotations(v map[string]string) {
	u.setStringMap(v, "metadata", "annotations")
}

// GetOwnerReferences mirrors Unstructured.GetOwnerReferences; entries that are not objects
// are skipped.
func (u *Unstructured) GetOwnerReferences() []OwnerReference {
	val, _, _ := nestedField(u.Object, "metadata", "ownerReferences")
	list, ok := val.([]any)
	if !ok {
		return nil
	}
	out := make([]OwnerReference, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		ref := OwnerReference{}
		ref.APIVersion, _, _ = NestedString(m, "apiVersion")
		ref.Kind, _, _ = NestedString(m, "kind")
		ref.Name, _, _ = NestedString(m, "name")
		ref.UID, _, _ = NestedString(m, "uid")
		if b, ok := m["controller"].(bool); ok {
			ref.Controller = &b
		}
		if b, ok := m["blockOwnerDeletion"].(bool); ok {
			ref.BlockOwnerDeletion = &b
		}
		out = append(out, ref)
	}
	return out
}

// SetOwnerReferences mirrors Unstructured.SetOwnerReferences; nil removes the member. The
// four string members are always written, as the typed JSON has no omitempty on them.
func (u *Unstructured) SetOwnerReferences(refs []OwnerReference) {
	if refs == nil {
		RemoveNestedField(u.Object, "metadata", "ownerReferences")
		return
	}
	list := make([]any, len(refs))
	for i, ref := range refs {
		m := map[string]any{
			"apiVersion": ref.APIVersion,
			"kind":       ref.Kind,
			"name":       ref.Name,
			"uid":        ref.UID,
		}
		if ref.Controller != nil {
			m["controller"] = *ref.Controller
		}
		if ref.BlockOwnerDeletion != nil {
			m["blockOwnerDeletion"] = *ref.BlockOwnerDeletion
		}
		list[i] = m
	}
	u.setField(list, "metadata", "ownerReferences")
}

// GetFinalizers mirrors Unstructured.GetFinalizers; entries that are not strings are skipped.
func (u *Unstructured) GetFinalizers() []string {
	val, _, _ := nestedField(u.Object, "metadata", "finalizers")
	list, ok := val.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// SetFinalizers mirrors Unstructured.SetFinalizers; nil removes the member.
func (u *Unstructured) SetFinalizers(v []string) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "finalizers")
		return
	}
	u.setField(v, "metadata", "finalizers") // DeepCopyJSONValue turns it into []any
}

// GetContinue mirrors Unstructured.GetContinue: with the three accessors below it makes an
// Unstructured that holds a list usable through ListAccessor.
func (u *Unstructured) GetContinue() string { return u.getString("metadata", "continue") }

// SetContinue mirrors Unstructured.SetContinue.
func (u *Unstructured) SetContinue(v string) { u.setString(v, "metadata", "continue") }

// GetRemainingItemCount mirrors Unstructured.GetRemainingItemCount.
func (u *Unstructured) GetRemainingItemCount() *int64 {
	if n, ok := nestedInt64(u.Object, "metadata", "remainingItemCount"); ok {
		return &n
	}
	return nil
}

// SetRemainingItemCount mirrors Unstructured.SetRemainingItemCount; nil removes the member.
func (u *Unstructured) SetRemainingItemCount(v *int64) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "remainingItemCount")
		return
	}
	u.setField(*v, "metadata", "remainingItemCount")
}
