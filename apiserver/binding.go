package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The bindings of pods to nodes: pods/binding (BindingREST of
// pkg/registry/core/pod/storage) and the legacy bindings resource (LegacyBindingREST),
// which takes the pod's name from the body. Both write the pod straight to storage, past
// the pod strategy, as the real one does: spec.nodeName, the PodScheduled condition, the
// binding's annotations and labels, and no generation bump.

var bindingGVK = api.GroupVersionKind{Version: "v1", Kind: "Binding"}

// serveBinding serves POST …/pods/{name}/binding.
func serveBinding(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	s.bind(w, r, info, true)
}

// serveLegacyBinding serves POST /api/v1/namespaces/{ns}/bindings.
func serveLegacyBinding(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	s.bind(w, r, info, false)
}

func (s *endpoints) bind(w http.ResponseWriter, r *http.Request, info requestInfo, named bool) {
	b, wo, ok := s.decodeKindBody(w, r, bindingGVK, bindingGVK)
	if !ok {
		return
	}
	if ns := b.GetNamespace(); ns != "" && ns != info.namespace {
		writeError(w, api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request"))
		return
	}
	name := b.GetName()
	if named && name != info.name {
		writeError(w, api.NewBadRequest("name in URL does not match name in Binding object"))
		return
	}
	if err := validateBinding(b); err != nil {
		writeError(w, err)
		return
	}
	if name == "" {
		writeError(w, api.NewBadRequest("Name parameter required."))
		return
	}
	if err := s.assignPod(r.Context(), info.namespace, b, wo.DryRun); err != nil {
		writeError(w, err)
		return
	}
	writeCreatedStatus(w)
}

// validateBinding mirrors ValidatePodBinding, whose errors the REST returns as a plain
// aggregate: a 500 without a reason.
func validateBinding(b *api.Unstructured) error {
	var msgs []string
	if kind, _, _ := api.NestedString(b.Object, "target", "kind"); kind != "" && kind != "Node" {
		msgs = append(msgs, fmt.Sprintf(`target.kind: Unsupported value: %q: supported values: "Node", "<empty>"`, kind))
	}
	if node, _, _ := api.NestedString(b.Object, "target", "name"); node == "" {
		msgs = append(msgs, "target.name: Required value")
	}
	return aggregateError(msgs)
}

// aggregateError is a plain error as utilerrors.Aggregate prints it, answered as the real
// server answers an error that is not a Status: 500, no reason.
func aggregateError(msgs []string) error {
	if len(msgs) == 0 {
		return nil
	}
	msg := msgs[0]
	if len(msgs) > 1 {
		msg = "[" + strings.Join(msgs, ", ") + "]"
	}
	return &api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
		Code: http.StatusInternalServerError, Message: msg}
}

// assignPod mirrors BindingREST.setPodNodeAndMetadata and assignPod: a guaranteed update of
// the stored pod under the binding's uid and resourceVersion preconditions.
func (s *endpoints) assignPod(ctx context.Context, ns string, b *api.Unstructured, dryRun bool) error {
	pods := s.table.Get("", "pods")
	name := b.GetName()
	node, _, _ := api.NestedString(b.Object, "target", "name")
	var pre *storage.Preconditions
	if uid, rv := b.GetUID(), b.GetResourceVersion(); uid != "" || rv != "" {
		pre = &storage.Preconditions{}
		if uid != "" {
			pre.UID = &uid
		}
		if rv != "" {
			pre.ResourceVersion = &rv
		}
	}
	now := s.reg.Now()
	_, _, err := s.store.GuaranteedUpdate(ctx, pods.Coll, objectKey(ns, name), pre, func(_ *storage.Tx, old *record) (*api.Unstructured, error) {
		pod := old.Obj.DeepCopy()
		switch {
		case pod.GetDeletionTimestamp() != nil:
			return nil, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", name)
		case nestedText(pod.Object, "spec", "nodeName") != "":
			return nil, fmt.Errorf("pod %s is already assigned to node %q", name, nestedText(pod.Object, "spec", "nodeName"))
		}
		if gates, _ := nestedValue(pod.Object, "spec", "schedulingGates").([]any); len(gates) > 0 {
			return nil, fmt.Errorf("pod %s has non-empty .spec.schedulingGates", name)
		}
		_ = api.SetNestedField(pod.Object, node, "spec", "nodeName")
		if st, _ := pod.Object["status"].(map[string]any); st != nil {
			delete(st, "nominatedNodeName") // ClearingNominatedNodeNameAfterBinding, beta and on
		}
		if ann := b.GetAnnotations(); len(ann) > 0 {
			all := pod.GetAnnotations()
			if all == nil {
				all = map[string]string{}
			}
			for k, v := range ann {
				all[k] = v
			}
			pod.SetAnnotations(all)
		}
		if labels := b.GetLabels(); len(labels) > 0 { // PodTopologyLabelsAdmission, beta and on
			all := pod.GetLabels()
			if all == nil {
				all = map[string]string{}
			}
			for k, v := range labels {
				all[k] = v
			}
			pod.SetLabels(all)
		}
		setPodCondition(pod.Object, map[string]any{"type": "PodScheduled", "status": "True"}, now)
		return pod, nil
	}, storage.UpdateOptions{DryRun: dryRun})
	var inv *storage.InvalidObjError
	switch {
	case errors.Is(err, storage.ErrKeyNotFound):
		return api.NewNotFound(api.GroupResource{Resource: "pods"}, name)
	case errors.As(err, &inv):
		// A guaranteed update's precondition fails as the etcd store's StorageError.
		return api.NewConflict(api.GroupResource{Resource: "pods"}, name, fmt.Errorf(
			"StorageError: invalid object, Code: 4, Key: /registry/pods/%s/%s, ResourceVersion: 0, AdditionalErrorMsg: %w", ns, name, err))
	case err != nil && !isStatus(err):
		return api.NewConflict(api.GroupResource{Resource: "pods/binding"}, name, err)
	}
	return err
}

// setPodCondition mirrors UpdatePodCondition: the condition replaces the one of its type,
// keeping its transition time when the status is the same; lastProbeTime is written null,
// as the typed condition is.
func setPodCondition(pod map[string]any, cond map[string]any, now api.Time) {
	cond["lastProbeTime"] = nil
	cond["lastTransitionTime"] = now.UTC().Format("2006-01-02T15:04:05Z")
	st, _ := pod["status"].(map[string]any)
	if st == nil {
		st = map[string]any{}
		pod["status"] = st
	}
	conds, _ := st["conditions"].([]any)
	for i, c := range conds {
		old, _ := c.(map[string]any)
		if old["type"] != cond["type"] {
			continue
		}
		if old["status"] == cond["status"] {
			cond["lastTransitionTime"] = old["lastTransitionTime"]
		}
		conds[i] = cond
		return
	}
	st["conditions"] = append(conds, cond)
}

func isStatus(err error) bool {
	var st *api.Status
	return errors.As(err, &st)
}

func nestedValue(obj map[string]any, fields ...string) any {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[f]
	}
	return cur
}

func nestedText(obj map[string]any, fields ...string) string {
	s, _ := nestedValue(obj, fields...).(string)
	return s
}

// decodeKindBody reads the body of a POST whose kind is not the resource's (a Binding, an
// Eviction): JSON or protobuf, decoded as want with the create options of the query.
// accept is the kind a protobuf body must be; an empty version accepts any.
func (s *endpoints) decodeKindBody(w http.ResponseWriter, r *http.Request, want, accept api.GroupVersionKind) (*api.Unstructured, decode.WriteOptions, bool) {
	fail := func(err error) (*api.Unstructured, decode.WriteOptions, bool) {
		writeError(w, err)
		return nil, decode.WriteOptions{}, false
	}
	if err := checkBodyType(r, true); err != nil {
		return fail(err)
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return fail(err)
	}
	if isProtobufType(r.Header.Get("Content-Type")) {
		if body, err = protobufBodyToJSON(body, accept); err != nil {
			return fail(err)
		}
	}
	wo, err := decode.ParseWriteOptions(decode.CreateOptionsKind, r.URL.Query(), "")
	if err != nil {
		return fail(err)
	}
	sch, ok := schema.ForKind(want)
	if !ok {
		sch, ok = schema.ForKindIn("v1", want) // policy/v1 Eviction, which pods/eviction defines
	}
	if !ok {
		return fail(api.NewInternalError(fmt.Errorf("no schema for %s", want)))
	}
	obj, warnings, err := decode.ObjectForStorage(body, sch, want, wo.FieldValidation)
	if err != nil {
		return fail(err)
	}
	writeWarnings(w, warnings)
	return obj, wo, true
}

// writeCreatedStatus answers a create that made nothing to return, as BindingREST and
// EvictionREST do: a Success Status with code 201.
func writeCreatedStatus(w http.ResponseWriter) {
	writeStatusBody(w, http.StatusCreated, &api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status: api.StatusSuccess, Code: http.StatusCreated})
}
