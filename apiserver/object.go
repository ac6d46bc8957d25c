package apiserver

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// How an object travels through the server (rest.BeforeCreate and BeforeUpdate, over the
// generic registry): decode the body, default it, validate it (schema, then semantics),
// store it whole, and encode what was stored. The Go API enters at the same place with a
// typed object and leaves with the typed view of what was stored (view).

// decodeObject reads a request body as the resource's kind, the way the real server's
// decoder does (unknown, duplicate and mistyped fields follow fieldValidation), and returns
// it as stored objects are kept: whole.
func (s *Server) decodeObject(res *resource, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	if cs := res.crd.Load(); cs != nil {
		return s.decodeCustom(res, cs, body, fieldValidation)
	}
	if res.info.builtin {
		if sch, ok := schema.ForKind(res.info.GVK()); ok {
			u, warnings, err := decode.ObjectForStorage(body, sch, res.info.GVK(), fieldValidation)
			if err != nil {
				return nil, nil, err
			}
			u.SetGroupVersionKind(res.info.GVK())
			return u, warnings, nil
		}
	}
	obj, warnings, err := decode.Body(s.scheme, body, res.info.GVK(), fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	u, err := s.normalize(res, obj)
	return u, warnings, err
}

// fromGo turns an object handed to the Go API into what a request body would become: a
// built-in kind goes through the same schema decoding as JSON from the wire (unknown fields
// dropped, types and required fields checked), a registered kind is taken whole.
func (s *Server) fromGo(res *resource, obj api.Object) (*api.Unstructured, error) {
	if obj == nil {
		return nil, api.NewBadRequest("no object provided")
	}
	if res.crd.Load() != nil {
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
	if res.info.builtin {
		if _, ok := schema.ForKind(res.info.GVK()); ok {
			gvk := obj.GetObjectKind().GroupVersionKind()
			if gvk.Kind != "" && gvk.Kind != res.info.Kind {
				return nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s", gvk.Kind, gvk.APIVersion(), res.info.Kind))
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
func (s *Server) view(rec *record) api.Object {
	typed, _ := rec.Decoded(s.decodeView).(api.Object)
	if typed == nil {
		return rec.Obj.DeepCopy()
	}
	return typed.DeepCopyObject()
}

// decodeView decodes a record into its kind's Go struct, or nil when the scheme has none.
func (s *Server) decodeView(rec *record) any {
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

// nestedSlice reads a list member.
func nestedSlice(obj map[string]any, fields ...string) ([]any, bool) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[f]
	}
	l, ok := cur.([]any)
	return l, ok
}

// prepareForCreate is the kind's PrepareForCreate: the status a new object starts with.
func (s *Server) prepareForCreate(res *resource, obj *api.Unstructured) {
	switch {
	case isNamespaces(res):
		prepareNamespaceForCreate(obj)
	case isCRDs(res):
		obj.Object["status"] = crdStatus(readCRDSpec(obj), s.now())
	case res.info.crd != "" && res.info.crdStatus:
		// The custom resource strategy: only the status subresource writes a status.
		delete(obj.Object, "status")
	case res.info.builtin && res.info.traits.resetStatus != nil:
		obj.Object["status"] = res.info.traits.resetStatus()
	case res.info.builtin && res.info.Group == "" && res.info.Kind == "Pod":
		if p, _, _ := api.NestedString(obj.Object, "status", "phase"); p == "" {
			_ = api.SetNestedField(obj.Object, string(api.PodPending), "status", "phase")
		}
	}
}

// applyDefaults fills in what kube-apiserver's defaulting functions fill in for a built-in
// kind (internal/defaulting; chapter 01 lists them). It runs on every write, after the
// strategy has prepared the object, so a reset status is defaulted too.
func applyDefaults(res *resource, obj *api.Unstructured) {
	if res.info.builtin {
		defaulting.Default(res.info.Group, res.info.Version, res.info.Kind, obj.Object)
	}
}

func isServices(res *resource) bool {
	return res.info.builtin && res.info.Group == "" && res.info.Kind == "Service"
}

// keepAllocatedIPs gives an updated Service the cluster IPs of the stored one when the
// update leaves them out, as the service REST's patchAllocatedValues does, so a PUT of a
// manifest without clusterIP keeps the address.
func keepAllocatedIPs(obj, old *api.Unstructured) {
	spec, _ := obj.Object["spec"].(map[string]any)
	oldSpec, _ := old.Object["spec"].(map[string]any)
	if spec == nil || oldSpec == nil {
		return
	}
	if ip, _ := spec["clusterIP"].(string); ip == "" {
		for _, f := range []string{"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"} {
			if v, ok := oldSpec[f]; ok {
				if _, set := spec[f]; !set || f == "clusterIP" || f == "clusterIPs" {
					spec[f] = api.DeepCopyJSONValue(v)
				}
			}
		}
	}
}
