package apiserver

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// How an object travels through the server (rest.BeforeCreate and BeforeUpdate, over the
// generic registry): decode the body, default it, validate it (schema, then semantics),
// store it whole, and encode what was stored. The Go API enters at the same place with a
// typed object and leaves with the typed view of what was stored (view).

// decodeObject reads a request body as the resource's kind, the way the real server's
// decoder does (unknown, duplicate and mistyped fields follow fieldValidation), and returns
// it as stored objects are kept: whole.
func (s *endpoints) decodeObject(res *resource, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	return s.decodeObjectAt(res, "", body, fieldValidation)
}

// decodeObjectAt is decodeObject for a request at a version of a custom resource ("": the
// version the body's apiVersion names, for a patched object).
func (s *endpoints) decodeObjectAt(res *resource, version string, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	if cs := res.CRD.Load(); cs != nil {
		return s.decodeCustom(res, cs, version, body, fieldValidation)
	}
	if res.Builtin {
		if sch, ok := schema.ForKind(res.Info.GVK()); ok {
			u, warnings, err := decode.ObjectForStorage(body, sch, res.Info.GVK(), fieldValidation)
			if err != nil {
				return nil, nil, err
			}
			u.SetGroupVersionKind(res.Info.GVK())
			return toStorage(res, u), warnings, nil
		}
	}
	obj, warnings, err := decode.Body(s.scheme, body, res.Info.GVK(), fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	u, err := s.normalize(res, obj)
	return u, warnings, err
}

// objectFromTree is decodeObjectAt for a built-in kind's protobuf body, read into its tree:
// the same object without the JSON in between, for the ordinary body that needs no warning
// or error (decode.ObjectFromTree). It reports false for anything else, which then goes
// through decodeObjectAt as JSON.
func (s *endpoints) objectFromTree(res *resource, tree map[string]any) (*api.Unstructured, bool) {
	if !res.Builtin || res.CRD.Load() != nil {
		return nil, false
	}
	sch, ok := schema.ForKind(res.Info.GVK())
	if !ok {
		return nil, false
	}
	u, ok := decode.ObjectFromTree(tree, sch, res.Info.GVK())
	if !ok {
		return nil, false
	}
	return toStorage(res, u), true
}

// fromGo turns an object handed to the Go API into what a request body would become: a
// built-in kind goes through the same schema decoding as JSON from the wire (unknown fields
// dropped, types and required fields checked), a registered kind is taken whole.
func (s *endpoints) fromGo(res *resource, obj api.Object) (*api.Unstructured, error) {
	if obj == nil {
		return nil, api.NewBadRequest("no object provided")
	}
	if res.CRD.Load() != nil {
		// A custom object from Go is pruned and defaulted as its JSON would be.
		u, err := s.normalize(res, obj)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(u)
		if err != nil {
			return nil, api.NewBadRequest(err.Error())
		}
		u, _, err = s.decodeObject(res, data, api.FieldValidationIgnore)
		return u, err
	}
	if res.Builtin {
		if _, ok := schema.ForKind(res.Info.GVK()); ok {
			gvk := obj.GetObjectKind().GroupVersionKind()
			if gvk.Kind != "" && gvk.Kind != res.Info.Kind {
				return nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s", gvk.Kind, gvk.APIVersion(), res.Info.Kind))
			}
			data, err := json.Marshal(obj)
			if err != nil {
				return nil, api.NewBadRequest(err.Error())
			}
			u, _, err := s.decodeObject(res, data, api.FieldValidationIgnore)
			return u, err
		}
	}
	return s.normalize(res, obj)
}

// view returns the Go API's copy of a stored record: the kind's typed Go struct where the
// scheme has one (decoded once per record and deep-copied per caller), else the whole
// Unstructured. Typed views show only the fields their structs model; storage keeps all.
func (s *endpoints) view(rec *record) api.Object {
	typed, _ := rec.Decoded(s.decodeView).(api.Object)
	if typed == nil {
		return rec.Obj.DeepCopy()
	}
	return typed.DeepCopyObject()
}

// decodeView decodes a record into its kind's Go struct, or nil when the scheme has none.
func (s *endpoints) decodeView(rec *record) any {
	gvk := rec.Obj.GroupVersionKind()
	typed, err := s.scheme.New(gvk)
	if err != nil {
		return nil
	}
	if _, isU := typed.(*api.Unstructured); isU {
		return nil
	}
	if err := s.scheme.DecodeInto(jsonOf(rec), typed); err != nil {
		return nil
	}
	typed.GetObjectKind().SetGroupVersionKind(gvk)
	return typed
}
