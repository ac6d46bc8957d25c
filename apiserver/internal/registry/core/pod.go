package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// podFields are the Pod labels. The values are those of the internal Pod the v1 object
// converts to: status.podIP is podIP, else podIPs[0]; spec.serviceAccountName falls back
// to the deprecated spec.serviceAccount.
var podFields = map[string]rest.FieldRead{
	"spec.nodeName": rest.TextField("spec.nodeName"), "spec.restartPolicy": rest.TextField("spec.restartPolicy"),
	"spec.schedulerName":      rest.TextField("spec.schedulerName"),
	"spec.serviceAccountName": rest.TextField("spec.serviceAccountName", "spec.serviceAccount"),
	"spec.hostNetwork":        rest.BoolField("spec.hostNetwork"), "status.phase": rest.TextField("status.phase"),
	"status.podIP": rest.TextField("status.podIP", "status.podIPs.0.ip"), "status.nominatedNodeName": rest.TextField("status.nominatedNodeName"),
	// Surprising: the conversion function accepts status.podIPs but ToSelectableFields never
	// sets it, so it is always "": status.podIPs= matches every pod, any other value none.
	"status.podIPs": {},
}

// podStrategy mirrors pkg/registry/core/pod/strategy.go.
type podStrategy struct{ rest.Base }

// PrepareForCreate implements rest.Strategy. The real one replaces the whole status with
// {phase: Pending, qosClass}; here only phase Pending is set where the body has none (the
// QoS class comes in PrepareAfterAdmission).
func (podStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	if p, _, _ := api.NestedString(obj.Object, "status", "phase"); p == "" {
		_ = api.SetNestedField(obj.Object, string(api.PodPending), "status", "phase")
	}
}

// PrepareAfterAdmission implements rest.LatePreparer: the QoS class of PrepareForCreate,
// from the defaulted and admitted resources.
func (podStrategy) PrepareAfterAdmission(obj *api.Unstructured) {
	_ = api.SetNestedField(obj.Object, PodQOSClass(obj.Object), "status", "qosClass")
}

// Validate implements rest.Strategy: ValidatePodCreate's container checks, then presence.
func (s podStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return rest.RequiredCauses(s.GVK, obj, validation.PodSpecCauses(obj.Object, "spec"), "")
}

// Pods is the pods resource.
func Pods() rest.Kind {
	return rest.Kind{Resource: "pods", Kind: "Pod", ShortNames: []string{"po"}, Categories: []string{"all"},
		Fields: podFields, ReturnDeletedObject: true,
		Subresources: []rest.Subresource{
			{Name: "attach", Kind: gvk("PodAttachOptions"), Verbs: createGet},
			{Name: "binding", Kind: gvk("Binding"), Verbs: createOnly},
			{Name: "ephemeralcontainers", Kind: gvk("Pod"), Verbs: rest.StatusVerbs},
			{Name: "eviction", Kind: api.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}, Verbs: createOnly},
			{Name: "exec", Kind: gvk("PodExecOptions"), Verbs: createGet},
			{Name: "log", Kind: gvk("Pod"), Verbs: []string{"get"}},
			{Name: "portforward", Kind: gvk("PodPortForwardOptions"), Verbs: createGet},
			{Name: "proxy", Kind: gvk("PodProxyOptions"), Verbs: rest.ProxyVerbs},
			{Name: "resize", Kind: gvk("Pod"), Verbs: rest.StatusVerbs},
		},
		Strategy: podStrategy{rest.Base{GVK: gvk("Pod"), Status: true, Generation: true, Unconditional: true}}}
}

// The verb sets of pods' further subresources.
var (
	createGet  = []string{"create", "get"}
	createOnly = []string{"create"}
)
