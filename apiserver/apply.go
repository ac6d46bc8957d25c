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

// withOwner is ctx carrying the writer of r, for the store to record.
func withOwner(ctx context.Context, r *http.Request, wo decode.WriteOptions) context.Context {
	return registry.WithOwner(ctx, registry.Owner{Manager: managerOrUserAgent(wo.FieldManager, r.UserAgent())})
}

// apply serves an apply patch (applyPatcher in patch.go): the configuration, read as YAML or
// JSON and decoded as the kind's, is merged into the live object by the kind's field manager,
// then stored as an update (or a create, X4) that records nothing more.
func (s *endpoints) apply(ctx context.Context, res *resource, ns, name, sub string, body []byte, wo decode.WriteOptions,
	decodeAt func([]byte) (*api.Unstructured, []string, error)) (*record, bool, []string, error) {
	fm, err := s.reg.FieldManagerOf(res)
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
	actx := registry.WithOwner(ctx, registry.Owner{Manager: manager, Applied: true})
	appliedRV := applied.GetResourceVersion()
	for attempt := 0; ; attempt++ {
		cur, _ := s.store.Get(context.Background(), res.Coll, objectKey(ns, name), storage.GetOptions{})
		var live *api.Unstructured
		if cur != nil {
			live = cur.Obj.DeepCopy()
		} else if sub != "" {
			return nil, false, nil, api.NewNotFound(res.Info.GroupResource(), name)
		}
		out, err := fm.Apply(live, applied.DeepCopy(), manager, sub, wo.Force, s.reg.Now())
		if err != nil {
			return nil, false, nil, err
		}
		if sub == "scale" {
			registry.UntimeScaleEntry(out, manager)
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
