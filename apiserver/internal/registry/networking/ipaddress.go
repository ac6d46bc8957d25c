package networking

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// IPAddresses is the ipaddresses resource (pkg/registry/networking/ipaddress). Its strategy
// prepares nothing: the name is the address, and the allocator that owns it writes it whole.
func IPAddresses() rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "ipaddresses", Kind: "IPAddress", ShortNames: []string{"ip"},
		Strategy: ipAddressStrategy{rest.Base{GVK: gvk("IPAddress"), Cluster: true, Unconditional: true}}}
}

// ipAddressStrategy mirrors pkg/registry/networking/ipaddress/strategy.go.
type ipAddressStrategy struct{ rest.Base }

// ValidateName implements rest.NameValidator: ValidateIPAddressName, the name is an IP
// address in canonical form (and no DNS name check).
func (ipAddressStrategy) ValidateName(name string) []string { return validation.IsValidIP(name) }

// Validate implements rest.Strategy: validateIPAddressParentReference. spec is a struct in
// the internal type, so a missing spec is a missing parentRef.
func (ipAddressStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	ref, ok := spec["parentRef"].(map[string]any)
	if !ok {
		return []api.StatusCause{validation.Required("spec.parentRef", "")}
	}
	var causes []api.StatusCause
	if g, _ := ref["group"].(string); g != "" {
		for _, msg := range validation.IsDNS1123Subdomain(g) {
			causes = append(causes, validation.Invalid("spec.parentRef.group", g, msg))
		}
	}
	for _, f := range []string{"resource", "name"} {
		v, _ := ref[f].(string)
		if v == "" {
			causes = append(causes, validation.Required("spec.parentRef."+f, ""))
			continue
		}
		for _, msg := range validation.PathSegmentName(v) {
			causes = append(causes, validation.Invalid("spec.parentRef."+f, v, msg))
		}
	}
	if ns, _ := ref["namespace"].(string); ns != "" {
		for _, msg := range validation.PathSegmentName(ns) {
			causes = append(causes, validation.Invalid("spec.parentRef.namespace", ns, msg))
		}
	}
	return causes
}
