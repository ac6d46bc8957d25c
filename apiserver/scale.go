package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// The scale subresource of deployments, replicasets and statefulsets (the ScaleREST of
// pkg/registry/apps/…/storage): an autoscaling/v1 Scale view of spec.replicas and
// status.replicas. A GET answers the view; a PUT or PATCH of the view writes spec.replicas
// of the object, through the same update as any other write (so generation moves).

var scaleGVK = api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// scaleOf builds the Scale view of a stored object.
func scaleOf(res *resource, obj *api.Unstructured) map[string]any {
	md := map[string]any{"name": obj.GetName(), "uid": obj.GetUID(), "resourceVersion": obj.GetResourceVersion()}
	if ns := obj.GetNamespace(); ns != "" {
		md["namespace"] = ns
	}
	if ts, ok, _ := api.NestedString(obj.Object, "metadata", "creationTimestamp"); ok {
		md["creationTimestamp"] = ts
	}
	replicas, _ := nestedInt(obj.Object, "spec", "replicas")
	status := map[string]any{"replicas": int64(0)}
	if n, ok := nestedInt(obj.Object, "status", "replicas"); ok {
		status["replicas"] = n
	}
	sel := ""
	if sc := crdScale(res); sc != nil {
		var n int64
		replicas, n, sel = customScaleOf(sc, obj)
		status["replicas"] = n
	} else if res.Builtin && res.Info.Group == "" && res.Info.Kind == "ReplicationController" {
		// A ReplicationController's selector is a plain map (SelectorFromSet).
		ml, _, _ := api.NestedMap(obj.Object, "spec", "selector")
		sel = selectorText(map[string]any{"spec": map[string]any{"selector": map[string]any{"matchLabels": ml}}})
	} else {
		sel = selectorText(obj.Object)
	}
	if sel != "" {
		status["selector"] = sel
	}
	return map[string]any{
		"kind": scaleGVK.Kind, "apiVersion": scaleGVK.APIVersion(), "metadata": md,
		"spec": map[string]any{"replicas": replicas}, "status": status,
	}
}

func nestedInt(obj map[string]any, fields ...string) (int64, bool) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return 0, false
		}
		cur = m[f]
	}
	switch v := cur.(type) {
	case int64:
		return v, true
	case float64:
		return int64(v), true
	}
	return 0, false
}

// selectorText prints spec.selector as metav1.LabelSelectorAsSelector does: matchLabels
// as key=value, matchExpressions as "key in (a,b)", "key notin (a)", "key", "!key",
// sorted by key.
func selectorText(obj map[string]any) string {
	sel, _, _ := api.NestedMap(obj, "spec", "selector")
	type req struct{ key, text string }
	var reqs []req
	if ml, ok := sel["matchLabels"].(map[string]any); ok {
		for k, v := range ml {
			s, _ := v.(string)
			reqs = append(reqs, req{k, k + "=" + s})
		}
	}
	if exprs, ok := sel["matchExpressions"].([]any); ok {
		for _, e := range exprs {
			m, _ := e.(map[string]any)
			key, _ := m["key"].(string)
			op, _ := m["operator"].(string)
			var vals []string
			if vs, ok := m["values"].([]any); ok {
				for _, v := range vs {
					s, _ := v.(string)
					vals = append(vals, s)
				}
			}
			slices.Sort(vals)
			switch op {
			case "In":
				reqs = append(reqs, req{key, key + " in (" + strings.Join(vals, ",") + ")"})
			case "NotIn":
				reqs = append(reqs, req{key, key + " notin (" + strings.Join(vals, ",") + ")"})
			case "Exists":
				reqs = append(reqs, req{key, key})
			case "DoesNotExist":
				reqs = append(reqs, req{key, "!" + key})
			}
		}
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return strings.Compare(a.key, b.key) })
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = r.text
	}
	return strings.Join(parts, ",")
}

// serveScale serves GET, PUT and PATCH of …/{name}/scale.
func (s *endpoints) serveScale(w http.ResponseWriter, r *http.Request, info requestInfo) {
	res := info.res
	rec, err := s.get(r.Context(), res, info.namespace, info.name, "")
	if err != nil {
		writeError(w, err)
		return
	}
	if info.verb == "get" {
		writeScale(w, info, scaleOf(res, rec.Obj))
		return
	}
	optionsKind, pt := decode.UpdateOptionsKind, api.PatchType("")
	if info.verb == "patch" {
		if pt, err = patch.TypeFromContentType(r.Header.Get("Content-Type")); err != nil {
			writeError(w, err)
			return
		}
		optionsKind = decode.PatchOptionsKind
	} else if err := checkBodyType(r, true); err != nil {
		writeError(w, err)
		return
	}
	wo, err := decode.ParseWriteOptions(optionsKind, r.URL.Query(), pt)
	if err != nil {
		writeError(w, err)
		return
	}
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if info.verb == "update" && isProtobufType(r.Header.Get("Content-Type")) {
		if body, err = protobufBodyToJSON(body, scaleGVK); err != nil {
			writeError(w, err)
			return
		}
	}
	replicasPath := []string{"spec", "replicas"}
	if sc := crdScale(res); sc != nil {
		replicasPath = scalePath(sc.SpecReplicasPath)
	}
	ctx := registry.WithOwner(context.Background(), registry.Owner{Manager: managerOrUserAgent(wo.FieldManager, r.UserAgent()), Subresource: "scale", ReplicasPath: replicasPath})
	if pt == api.ApplyPatchType {
		cfg, err := scaleApplied(res, body, info.name, replicasPath)
		if err != nil {
			writeError(w, err)
			return
		}
		wo.FieldManager = managerOrUserAgent(wo.FieldManager, r.UserAgent())
		updated, _, _, err := s.apply(ctx, res, info.namespace, info.name, "scale", cfg, wo, func(data []byte) (*api.Unstructured, []string, error) {
			return s.decodeObject(res, data, wo.FieldValidation)
		}, nil)
		if err != nil {
			writeError(w, err)
			return
		}
		writeScale(w, info, scaleOf(res, updated.Obj))
		return
	}
	for attempt := 0; ; attempt++ {
		cur := scaleOf(res, rec.Obj)
		data := body
		if info.verb == "patch" {
			curJSON, _ := json.Marshal(cur)
			if data, err = patch.ApplyFor(pt, curJSON, body, scaleGVK, true); err != nil {
				writeError(w, err)
				return
			}
		}
		replicas, rv, err := readScale(data, info.name)
		if err != nil {
			writeError(w, err)
			return
		}
		obj := rec.Obj.DeepCopy()
		_ = api.SetNestedField(obj.Object, replicas, replicasPath...)
		expect := strconv.FormatUint(rec.RV, 10)
		obj.SetResourceVersion(rv)
		updated, err := s.reg.Update(ctx, res, info.namespace, obj, updateOptions{ExpectRV: expect, DryRun: wo.DryRun})
		if err != nil && api.IsConflict(err) && rv == "" && attempt < 5 {
			if rec, err = s.get(r.Context(), res, info.namespace, info.name, ""); err != nil {
				writeError(w, err)
				return
			}
			continue
		}
		if err != nil {
			writeError(w, err)
			return
		}
		writeScale(w, info, scaleOf(res, updated.Obj))
		return
	}
}

// readScale decodes a Scale body and validates it as ValidateScale does.
func readScale(data []byte, name string) (int64, string, error) {
	var sc struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
		Spec struct {
			Replicas *int64 `json:"replicas"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		return 0, "", api.NewBadRequest(fmt.Sprintf("Scale in version \"v1\" cannot be handled as a Scale: %v", err))
	}
	if sc.Kind != "" && sc.Kind != scaleGVK.Kind {
		return 0, "", api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a Scale", sc.Kind, sc.APIVersion))
	}
	if sc.Metadata.Name != "" && sc.Metadata.Name != name {
		return 0, "", errNameMismatch(sc.Metadata.Name, name)
	}
	var replicas int64
	if sc.Spec.Replicas != nil {
		replicas = *sc.Spec.Replicas
	}
	if replicas < 0 {
		return 0, "", api.NewInvalid(api.GroupKind{Group: scaleGVK.Group, Kind: scaleGVK.Kind}, name, []api.StatusCause{
			validation.Invalid("spec.replicas", replicas, "must be greater than or equal to 0")})
	}
	return replicas, sc.Metadata.ResourceVersion, nil
}

// writeScale answers with a Scale in the negotiated encoding.
func writeScale(w http.ResponseWriter, info requestInfo, sc map[string]any) {
	if info.out.Protobuf {
		data, err := iprotobuf.Codec().Encode(scaleGVK, sc)
		if err != nil {
			writeError(w, api.NewInternalError(err))
			return
		}
		writeRawType(w, http.StatusOK, negotiation.ProtobufType, data)
		return
	}
	writeJSON(w, http.StatusOK, sc)
}
