package networking

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// IngressClasses is the ingressclasses resource (pkg/registry/networking/ingressclass). The
// default-class annotation matters only to the DefaultIngressClass admission plugin.
func IngressClasses() rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "ingressclasses", Kind: "IngressClass",
		Strategy: rest.Base{GVK: gvk("IngressClass"), Cluster: true, Generation: true, Unconditional: true}}
}
