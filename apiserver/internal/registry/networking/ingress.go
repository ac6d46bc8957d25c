package networking

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// ingressClassAnnotation is the annotation spec.ingressClassName replaced.
const ingressClassAnnotation = "kubernetes.io/ingress.class"

// Ingresses is the ingresses resource (pkg/registry/networking/ingress).
func Ingresses() rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "ingresses", Kind: "Ingress", ShortNames: []string{"ing"},
		Strategy: ingressStrategy{rest.Base{GVK: gvk("Ingress"), Status: true, Generation: true, Unconditional: true,
			// IngressStatus{} written out: loadBalancer is a struct, so it is never omitted.
			ResetStatus: func() map[string]any { return map[string]any{"loadBalancer": map[string]any{}} }}}}
}

type ingressStrategy struct{ rest.Base }

// WarningsOnCreate mirrors ingressStrategy.WarningsOnCreate: the class annotation is
// deprecated when spec.ingressClassName does not replace it.
func (ingressStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	if _, set := obj.GetAnnotations()[ingressClassAnnotation]; !set || spec(obj)["ingressClassName"] != nil {
		return nil
	}
	return []string{fmt.Sprintf("annotation %q is deprecated, please use 'spec.ingressClassName' instead", ingressClassAnnotation)}
}
