// Package networking holds the strategies of the networking.k8s.io/v1 kinds, one file per
// kind, on the model of kubernetes pkg/registry/networking/<kind>/strategy.go:
//
//  1. Ingresses and ServiceCIDRs have the status subresource; a create resets the status,
//     an update of the main resource keeps the stored one.
//  2. Ingresses, IngressClasses and NetworkPolicies start at generation 1, which moves on a
//     change of the spec; IPAddresses and ServiceCIDRs keep none.
//  3. Every kind accepts unconditional updates, and none returns the deleted object.
//  4. The strategies' warnings are the real ones: the deprecated kubernetes.io/ingress.class
//     annotation, and NetworkPolicy ipBlock CIDRs that are ambiguous or non-standard.
//  5. A fresh server holds the ServiceCIDR "kubernetes", made from the service range, Ready.
package networking

import "github.com/informer-lab/informer-lab/api"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: kind}
}

// spec returns obj's spec object, or nil.
func spec(obj *api.Unstructured) map[string]any {
	s, _ := obj.Object["spec"].(map[string]any)
	return s
}

// objects returns the object members of the list m[key].
func objects(m map[string]any, key string) []map[string]any {
	l, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}
