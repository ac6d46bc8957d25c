package apiserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
)

// The verbs behind both the HTTP handlers and the Go API. Each decodes and checks what the
// request says, then hands the object to the registry's generic store
// (internal/registry.Store), which runs admission, the kind's strategy and the storage:
//
//  1. dryRun=All on create, update, patch, delete and deletecollection runs everything
//     (defaulting, validation, admission, conflicts) and answers with what would be stored,
//     storing nothing: no resourceVersion is consumed and no watch sees an event. A created
//     object comes back without a resourceVersion, an updated or marked one with the stored
//     RV. Any other dryRun value, a bad fieldValidation or fieldManager, force on a non-apply
//     patch are 422s naming CreateOptions, UpdateOptions, PatchOptions or DeleteOptions
//     (internal/decode).
//  2. An update's resourceVersion "0" means none (unconditional); one that is not a number
//     is the parser's 500, as in the real server.
//  3. The status subresource (…/{name}/status, U2, U5) is served where the kind's strategy
//     has one: a PUT or PATCH there changes only the status, and one on the main resource
//     keeps the stored status whatever the body says; generation moves on spec changes only
//     (P5).

type updateOptions = registry.UpdateOptions

func errNameMismatch(body, url string) *api.Status {
	return api.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", body, url))
}

// normalize returns a private copy of obj as the server stores every object: whole, as an
// *api.Unstructured, with kind and apiVersion set (N6). A typed object (from the Go API) is
// converted through its JSON, its nulls dropped, as a typed Go struct on the real server
// never stores a null.
func (s *endpoints) normalize(res *resource, obj api.Object) (*api.Unstructured, error) {
	if obj == nil {
		return nil, api.NewBadRequest("no object provided")
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind != "" && gvk.Kind != res.Info.Kind {
		return nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s", gvk.Kind, gvk.APIVersion(), res.Info.Kind))
	}
	if gvk.Version != "" && gvk.APIVersion() != res.Info.APIVersion() {
		return nil, api.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", gvk.APIVersion(), res.Info.APIVersion()))
	}
	var out *api.Unstructured
	if u, ok := obj.(*api.Unstructured); ok {
		out = u.DeepCopy()
	} else {
		data, err := json.Marshal(obj)
		if err != nil {
			return nil, api.NewBadRequest(err.Error())
		}
		out = &api.Unstructured{}
		if err := out.UnmarshalJSON(data); err != nil {
			return nil, api.NewBadRequest(err.Error())
		}
		dropNulls(out.Object)
	}
	if out.Object == nil {
		out.Object = map[string]any{}
	}
	if md, found := out.Object["metadata"]; found {
		if _, ok := md.(map[string]any); !ok && md != nil {
			return nil, api.NewBadRequest("metadata must be an object")
		}
	}
	out.SetGroupVersionKind(res.Info.GVK())
	return out, nil
}

// dropNulls removes every null member of the tree, in place.
func dropNulls(m map[string]any) {
	for k, v := range m {
		switch v := v.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			dropNulls(v)
		case []any:
			for _, e := range v {
				if em, ok := e.(map[string]any); ok {
					dropNulls(em)
				}
			}
		}
	}
}

// get reads one object (L6): RV "" is the latest, "0" any (the latest here), N not older
// than N.
func (s *endpoints) get(ctx context.Context, res *resource, ns, name, rvText string) (*record, error) {
	rv, err := decode.ParseResourceVersion(rvText)
	if err != nil {
		return nil, err
	}
	rec, err := s.reg.Get(ctx, res, ns, name, rv)
	return s.served(res, rec), err
}
