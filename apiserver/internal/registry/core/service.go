package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// serviceStrategy mirrors pkg/registry/core/service/strategy.go with the allocation of its
// REST storage (pkg/registry/core/service/storage/alloc.go).
type serviceStrategy struct {
	rest.Base
	ips *ClusterIPAllocator
}

// BeginCreate implements rest.Hooks: the cluster IP, under the storage's write lock.
func (s serviceStrategy) BeginCreate(ctx rest.Context, obj *api.Unstructured) error {
	return s.ips.AllocateService(obj.Object, ctx.DryRun)
}

// AfterDelete implements rest.Hooks: the cluster IP goes back to the range.
func (s serviceStrategy) AfterDelete(obj *api.Unstructured) { s.ips.ReleaseService(obj.Object) }

// KeepAllocated implements rest.UpdateHooks: an update that leaves the cluster IPs out
// keeps the stored ones, as the service REST's patchAllocatedValues does, so a PUT of a
// manifest without clusterIP keeps the address.
func (serviceStrategy) KeepAllocated(obj, old *api.Unstructured) {
	spec := child(obj.Object, "spec")
	oldSpec := child(old.Object, "spec")
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

// Services is the services resource, allocating from ips.
func Services(ips *ClusterIPAllocator) rest.Kind {
	return rest.Kind{Resource: "services", Kind: "Service", ShortNames: []string{"svc"}, Categories: []string{"all"}, ReturnDeletedObject: true,
		Fields:       map[string]rest.FieldRead{"spec.clusterIP": rest.TextField("spec.clusterIP"), "spec.type": rest.TextField("spec.type")},
		Subresources: []rest.Subresource{{Name: "proxy", Kind: gvk("ServiceProxyOptions"), Verbs: rest.ProxyVerbs}},
		Strategy: serviceStrategy{rest.Base{GVK: gvk("Service"), Status: true, Unconditional: true,
			ResetStatus: func() map[string]any { return map[string]any{"loadBalancer": map[string]any{}} }}, ips}}
}
