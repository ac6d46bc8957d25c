package app

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// FromUnstructured mirrors runtime.DefaultUnstructuredConverter.FromUnstructured: decode u's
// JSON shape into a typed view (contract 3).
func FromUnstructured[T any](u *api.Unstructured) (*T, error) {
	b, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	return out, nil
}

// ToUnstructured mirrors runtime.DefaultUnstructuredConverter.ToUnstructured.
func ToUnstructured(v any) (*api.Unstructured, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	u := &api.Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return u, nil
}

// AsUnstructured unwraps a handler's object, a store.DeletedFinalStateUnknown included, to
// the unstructured object an informer of the dynamic factory holds.
func AsUnstructured(obj any) (*api.Unstructured, bool) {
	if t, ok := obj.(store.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if t, ok := obj.(*store.DeletedFinalStateUnknown); ok && t != nil {
		obj = t.Obj
	}
	u, ok := obj.(*api.Unstructured)
	return u, ok
}
