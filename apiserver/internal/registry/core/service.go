package core

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// serviceStrategy mirrors pkg/registry/core/service/strategy.go with the allocation of its
// REST storage (pkg/registry/core/service/storage).
type serviceStrategy struct {
	rest.Base
	alloc ServiceAllocators
}

// AllocateCreate implements rest.Allocator: the IP family fields, cluster IPs and node
// ports (the REST storage's beginCreate).
func (s serviceStrategy) AllocateCreate(ctx rest.Context, obj *api.Unstructured) (func(bool), error) {
	return s.alloc.AllocateCreate(obj.Object, ctx.DryRun)
}

// AllocateUpdate implements rest.Allocator (the REST storage's beginUpdate).
func (s serviceStrategy) AllocateUpdate(ctx rest.Context, obj, old *api.Unstructured) (func(bool), error) {
	return s.alloc.AllocateUpdate(obj.Object, old.Object, ctx.DryRun)
}

// BeginCreate implements rest.Hooks: nothing, the allocation is AllocateCreate's.
func (serviceStrategy) BeginCreate(rest.Context, *api.Unstructured) error { return nil }

// AfterDelete implements rest.Hooks: the cluster IPs and node ports go back.
func (s serviceStrategy) AfterDelete(obj *api.Unstructured) { s.alloc.Release(obj.Object) }

// PrepareForUpdate implements rest.Strategy: the stored status, then
// dropTypeDependentFields.
func (s serviceStrategy) PrepareForUpdate(ctx rest.Context, obj, old *api.Unstructured) {
	s.Base.PrepareForUpdate(ctx, obj, old)
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	if spec != nil && oldSpec != nil {
		dropTypeDependentFields(spec, oldSpec, child(obj.Object, "status"))
	}
}

// KeepAllocated implements rest.UpdateHooks: patchAllocatedValues, so a PUT of a manifest
// without clusterIP or nodePort keeps the allocated ones.
func (serviceStrategy) KeepAllocated(obj, old *api.Unstructured) {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	if spec != nil && oldSpec != nil {
		patchAllocatedValues(spec, oldSpec)
	}
}

// Canonicalize implements rest.Strategy: an ExternalName service has no
// internalTrafficPolicy (the REST storage drops it on every read,
// defaultOnReadInternalTrafficPolicy; the defaults may have set it).
func (serviceStrategy) Canonicalize(obj *api.Unstructured) {
	if spec := child(obj.Object, "spec"); str(spec, "type") == "ExternalName" {
		delete(spec, "internalTrafficPolicy")
	}
}

// Validate implements rest.Strategy: ValidateService's rules, then presence.
func (s serviceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec := child(obj.Object, "spec")
	causes := append(serviceSpecCauses(spec), nodePortCauses(spec)...)
	return rest.RequiredCauses(s.GVK, obj, append(causes, serviceTrafficCauses(spec)...), "")
}

// nodePortCauses mirrors the node port checks of ValidateService: none on a ClusterIP
// service, no (protocol, nodePort) twice, and a health check node port exactly where one
// is needed.
func nodePortCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	type key struct {
		protocol string
		port     int
	}
	seen := map[key]bool{}
	for i, p := range ports(spec) {
		np := intOf(p["nodePort"])
		if np == 0 {
			continue
		}
		path := fmt.Sprintf("spec.ports[%d].nodePort", i)
		if str(spec, "type") == "ClusterIP" {
			causes = append(causes, validation.Forbidden(path, "may not be used when `type` is 'ClusterIP'"))
		}
		k := key{str(p, "protocol"), np}
		if seen[k] {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: fmt.Sprintf("Duplicate value: %d", np)})
		}
		seen[k] = true
	}
	hc := intOf(spec["healthCheckNodePort"])
	switch {
	case !needsHealthCheck(spec) && hc != 0:
		causes = append(causes, validation.Invalid("spec.healthCheckNodePort", hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
	case needsHealthCheck(spec) && hc == 0:
		causes = append(causes, validation.Required("spec.healthCheckNodePort", ""))
	case needsHealthCheck(spec) && (hc < 1 || hc > 65535):
		causes = append(causes, validation.Invalid("spec.healthCheckNodePort", hc, "must be between 1 and 65535, inclusive"))
	}
	return causes
}

// Services is the services resource, allocating cluster IPs from ips and node ports from
// DefaultNodePortRange.
func Services(ips *ClusterIPAllocator) rest.Kind {
	return rest.Kind{Resource: "services", Kind: "Service", ShortNames: []string{"svc"}, Categories: []string{"all"}, ReturnDeletedObject: true,
		Fields:       map[string]rest.FieldRead{"spec.clusterIP": rest.TextField("spec.clusterIP"), "spec.type": rest.TextField("spec.type")},
		Subresources: []rest.Subresource{{Name: "proxy", Kind: gvk("ServiceProxyOptions"), Verbs: rest.ProxyVerbs}},
		Strategy: serviceStrategy{rest.Base{GVK: gvk("Service"), Status: true, Unconditional: true,
			ResetStatus: func() map[string]any { return map[string]any{"loadBalancer": map[string]any{}} }},
			ServiceAllocators{IPs: ips, Ports: NewNodePortAllocator(DefaultNodePortRange)}}}
}
