package networking

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// NetworkPolicies is the networkpolicies resource (pkg/registry/networking/networkpolicy).
func NetworkPolicies() rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "networkpolicies", Kind: "NetworkPolicy", ShortNames: []string{"netpol"},
		Strategy: networkPolicyStrategy{rest.Base{GVK: gvk("NetworkPolicy"), Generation: true, Unconditional: true}}}
}

type networkPolicyStrategy struct{ rest.Base }

// WarningsOnCreate mirrors networkPolicyStrategy.WarningsOnCreate (networkPolicyWarnings).
func (networkPolicyStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return networkPolicyWarnings(obj)
}

// WarningsOnUpdate mirrors networkPolicyStrategy.WarningsOnUpdate: the same warnings.
func (networkPolicyStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return networkPolicyWarnings(obj)
}

// networkPolicyWarnings mirrors networkPolicyWarnings: every ipBlock's cidr and except
// entries, the ingress rules' peers first, then the egress rules'.
func networkPolicyWarnings(obj *api.Unstructured) []string {
	var warnings []string
	for _, dir := range [][2]string{{"ingress", "from"}, {"egress", "to"}} {
		for i, rule := range objects(spec(obj), dir[0]) {
			for j, peer := range objects(rule, dir[1]) {
				block, ok := peer["ipBlock"].(map[string]any)
				if !ok {
					continue
				}
				path := fmt.Sprintf("spec.%s[%d].%s[%d].ipBlock", dir[0], i, dir[1], j)
				if cidr, ok := block["cidr"].(string); ok {
					warnings = append(warnings, cidrWarnings(path+".cidr", cidr)...)
				}
				except, _ := block["except"].([]any)
				for k, e := range except {
					if s, ok := e.(string); ok {
						warnings = append(warnings, cidrWarnings(fmt.Sprintf("%s.except[%d]", path, k), s)...)
					}
				}
			}
		}
	}
	return warnings
}
