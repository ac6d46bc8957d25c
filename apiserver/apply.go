package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldmanager"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// Field management in the request path, as the create, update and patch handlers of
// k8s.io/apiserver pkg/endpoints/handlers drive their FieldManager:
//
//  1. Every create, update, non-apply patch and scale write records its manager: the
//     fieldManager parameter, else the User-Agent up to its first "/" (managerOrUserAgent).
//     The store records it after defaulting and the strategy's preparation
//     (registry.Store.recordUpdate), so what a subresource or the strategy resets is no
//     change of the writer's.
//  2. An apply patch (applyPatcher) merges its configuration into the live object by
//     ownership: conflicts are 409s, force takes the fields over, fields the applier alone
//     owned and no longer applies go. A missing object is created from it; the status and
//     scale subresources apply only their part.

// managerOrUserAgent mirrors managerOrUserAgent in the handlers: the fieldManager parameter,
// else the User-Agent up to its first "/".
func managerOrUserAgent(manager, userAgent string) string {
	return fieldmanager.ManagerOrUserAgent(manager, userAgent)
}

// goAPIManager is the manager of an apply through the Go API (Server.Patch).
const goAPIManager = "apiserver-go-api"

// withOwner is ctx carrying the writer of r, for the store to record at the request's
// version.
func withOwner(ctx context.Context, r *http.Request, wo decode.WriteOptions, info requestInfo) context.Context {
	o := registry.Owner{Manager: managerOrUserAgent(wo.FieldManager, r.UserAgent())}
	o.APIVersion, o.View = requestVersion(info.res, info.conv, info.version)
	return registry.WithOwner(ctx, o)
}

// requestVersion returns the apiVersion a write to res was sent at and the conversion of
// a stored object to it, when that is not the stored form (the handlers run the field
// manager at the request's version): a built-in at another version of its group (conv),
// a kind stored as another (events.k8s.io/v1 Events), a custom resource at another served
// version whose conversion is None (only apiVersion differs). ("", nil): the stored form.
// A custom resource converted by a webhook keeps the stored version's terms.
func requestVersion(res *resource, conv *conversion, version string) (string, func(map[string]any) map[string]any) {
	switch {
	case conv != nil:
		return conv.asked.APIVersion(), func(m map[string]any) map[string]any {
			conv.FromStorage(m)
			m["apiVersion"], m["kind"] = conv.asked.APIVersion(), conv.asked.Kind
			return m
		}
	case res.FromStorage != nil:
		return res.Info.APIVersion(), res.FromStorage
	case res.CRDName != "" && version != "":
		cs := res.CRD.Load()
		asked := res.Info.Group + "/" + version
		if cs == nil || cs.Spec.Strategy() == "Webhook" || asked == storedAPIVersion(res, cs) {
			return "", nil
		}
		return asked, func(m map[string]any) map[string]any {
			m["apiVersion"] = asked
			return m
		}
	}
	return "", nil
}

// apply serves an apply patch (applyPatcher in patch.go): the configuration, read as YAML or
// JSON and decoded as the kind's, is merged into the live object by the kind's field manager,
// then stored as an update (or a create, X4) that records nothing more.
func (s *endpoints) apply(ctx context.Context, res *resource, ns, name, sub string, body []byte, wo decode.WriteOptions,
	decodeAt func([]byte) (*api.Unstructured, []string, error), conv *conversion) (*record, bool, []string, error) {
	// The field manager runs at the request's version (the owner's), on the live object and
	// the configuration as that version shows them; the result goes back to the stored form.
	owner, _ := registry.OwnerFrom(ctx)
	view := func(u *api.Unstructured) *api.Unstructured {
		if owner.View == nil || u == nil {
			return u
		}
		return &api.Unstructured{Object: owner.View(u.DeepCopy().Object)}
	}
	fm, err := s.reg.FieldManagerAt(res, owner.APIVersion)
	if err != nil {
		return nil, false, nil, api.NewInternalError(err)
	}
	if fm == nil {
		return nil, false, nil, api.NewInternalError(errNoFieldManager)
	}
	cfg, err := patch.AppliedConfiguration(body)
	if err != nil {
		return nil, false, nil, err
	}
	applied, warnings, err := decodeAt(cfg)
	if err != nil {
		return nil, false, nil, err
	}
	if owner.View != nil {
		if applied, err = appliedAtRequest(res, conv, owner.APIVersion, cfg, applied, wo.FieldValidation); err != nil {
			return nil, false, nil, err
		}
	}
	var raw map[string]any
	if json.Unmarshal(cfg, &raw) == nil {
		restoreNulls(applied.Object, raw)
	}
	if applied.GetName() != name {
		return nil, false, nil, errNameMismatch(applied.GetName(), name)
	}
	if md, _ := applied.Object["metadata"].(map[string]any); md != nil {
		if _, set := md["managedFields"]; set {
			return nil, false, nil, api.NewBadRequest("metadata.managedFields must be nil")
		}
	}
	onlyOwnPart(res, sub, applied)
	manager := wo.FieldManager // required for apply: never the User-Agent's
	storeSub := sub
	if sub == "scale" {
		storeSub = "" // the scale subresource writes the main resource
	}
	actx := registry.WithOwner(ctx, registry.Owner{Manager: manager, Applied: true, APIVersion: owner.APIVersion, View: owner.View})
	appliedRV := applied.GetResourceVersion()
	for attempt := 0; ; attempt++ {
		cur, _ := s.store.Get(context.Background(), res.Coll, objectKey(ns, name), storage.GetOptions{})
		var live *api.Unstructured
		if cur != nil {
			live = view(cur.Obj)
			if live == cur.Obj {
				live = cur.Obj.DeepCopy()
			}
		} else if sub != "" {
			return nil, false, nil, api.NewNotFound(res.Info.GroupResource(), name)
		}
		var out *api.Unstructured
		if sub == "scale" { // the Scale's field manager, through the ScaleHandler
			out, err = s.reg.ApplyScale(live, scalePathOf(owner), appliedScale(applied, scalePathOf(owner)), manager, wo.Force)
		} else {
			out, err = fm.Apply(live, applied.DeepCopy(), manager, sub, wo.Force, s.reg.Now())
		}
		if err != nil {
			return nil, false, nil, err
		}
		if owner.View != nil {
			out = &api.Unstructured{Object: backToStorage(res, conv, out.Object)}
		}
		if cur == nil {
			out.SetResourceVersion("")
			rec, err := s.reg.Create(actx, res, ns, out, wo.DryRun)
			if err != nil && api.IsAlreadyExists(err) && attempt < 5 {
				continue // created in between: apply to it
			}
			return rec, err == nil, warnings, err
		}
		curRV := strconv.FormatUint(cur.RV, 10)
		fromPatch := appliedRV != "" && appliedRV != curRV
		out.SetResourceVersion("")
		if fromPatch {
			out.SetResourceVersion(appliedRV)
		}
		rec, err := s.reg.Update(actx, res, ns, out, updateOptions{Subresource: storeSub, ExpectRV: curRV, DryRun: wo.DryRun})
		if err != nil && api.IsConflict(err) && !fromPatch && attempt < 5 {
			continue // someone wrote in between: apply to the new state
		}
		return rec, false, warnings, err
	}
}

// appliedAtRequest is an applied configuration as the version it was sent at reads it:
// the body decoded by that version's schema (decoded, its stored form, is what validated
// it), not converted there and back, which would add the fields the conversion fills in.
func appliedAtRequest(res *resource, conv *conversion, apiVersion string, cfg []byte, decoded *api.Unstructured, fieldValidation string) (*api.Unstructured, error) {
	gvk := res.Info.GVK()
	switch {
	case conv != nil:
		gvk = conv.asked
	case res.ToStorage == nil: // a custom resource: only apiVersion differs
		out := decoded.DeepCopy()
		out.SetAPIVersion(apiVersion)
		return out, nil
	}
	sch, ok := schema.ForKind(gvk)
	if !ok {
		return decoded, nil
	}
	u, _, err := decode.ObjectForStorage(cfg, sch, gvk, fieldValidation)
	if err != nil {
		return nil, err
	}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// scalePathOf is where the parent of a scale write keeps its replicas.
func scalePathOf(o registry.Owner) []string {
	if o.ReplicasPath != nil {
		return o.ReplicasPath
	}
	return []string{"spec", "replicas"}
}

// appliedScale is the Scale a scale apply sent, from its parent's configuration
// (scaleApplied): its name and, if applied, spec.replicas.
func appliedScale(parentCfg *api.Unstructured, path []string) *api.Unstructured {
	scale := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": parentCfg.GetName()}}
	var cur any = parentCfg.Object
	for _, p := range path {
		m, _ := cur.(map[string]any)
		cur = m[p]
	}
	if cur != nil {
		scale["spec"] = map[string]any{"replicas": cur}
	}
	return &api.Unstructured{Object: scale}
}

// backToStorage converts an object at the request's version (requestVersion) to the form
// res stores.
func backToStorage(res *resource, conv *conversion, m map[string]any) map[string]any {
	switch {
	case conv != nil:
		conv.ToStorage(m)
		m["apiVersion"], m["kind"] = conv.stored.APIVersion(), conv.stored.Kind
	case res.ToStorage != nil:
		return res.ToStorage(m)
	case res.CRDName != "":
		if cs := res.CRD.Load(); cs != nil {
			m["apiVersion"] = storedAPIVersion(res, cs)
		}
	}
	return m
}

// onlyOwnPart drops from an applied configuration what the request's path resets (the
// strategies' GetResetFields): the main resource of a kind with a status subresource keeps
// the stored status, the status subresource changes nothing but status.
func onlyOwnPart(res *resource, sub string, applied *api.Unstructured) {
	switch sub {
	case "":
		if res.Strategy.HasStatus() {
			delete(applied.Object, "status")
		}
	case "status":
		for k := range applied.Object {
			switch k {
			case "apiVersion", "kind", "metadata", "status":
			default:
				delete(applied.Object, k)
			}
		}
		// The store's status update keeps the stored metadata too.
		if md, _ := applied.Object["metadata"].(map[string]any); md != nil {
			delete(md, "labels")
			delete(md, "annotations")
		}
	}
}

var errNoFieldManager = errors.New("the server has no field manager for apply")

// scaleApplied turns an applied Scale into the configuration of the object it scales: its
// name and the replicas at the kind's replicas path (the ScaleHandler's conversion of
// ownership between a Scale and its parent).
func scaleApplied(res *resource, body []byte, name string, replicasPath []string) ([]byte, error) {
	cfg, err := patch.AppliedConfiguration(body)
	if err != nil {
		return nil, err
	}
	replicas, rv, err := readScale(cfg, name)
	if err != nil {
		return nil, err
	}
	md := map[string]any{"name": name}
	if rv != "" {
		md["resourceVersion"] = rv
	}
	obj := map[string]any{"apiVersion": res.Info.APIVersion(), "kind": res.Info.Kind, "metadata": md}
	_ = api.SetNestedField(obj, replicas, replicasPath...)
	return json.Marshal(obj)
}

// restoreNulls puts back the nulls of an applied configuration that decoding dropped: the
// real apply patcher reads the body as it is, and an applied null is a field the applier
// claims while leaving it empty.
func restoreNulls(decoded, raw map[string]any) {
	for k, v := range raw {
		switch v := v.(type) {
		case nil:
			if _, has := decoded[k]; !has {
				decoded[k] = nil
			}
		case map[string]any:
			if d, ok := decoded[k].(map[string]any); ok {
				restoreNulls(d, v)
			}
		}
	}
}
