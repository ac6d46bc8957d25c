// Package apiregistration holds the strategy of apiregistration.k8s.io/v1 APIServices, on
// the model of k8s.io/kube-aggregator pkg/registry/apiservice/strategy.go and
// pkg/apis/apiregistration/validation, and the APIServices a fresh kube-apiserver and its
// CRDs register (the autoregister and crd-autoregister controllers). Nothing is proxied.
//
//  1. An APIService is cluster-scoped with a status subresource. A create resets the
//     status; one without a service (a local group-version) is Available at once, with
//     reason Local, as the real strategy writes it.
//  2. Its name must be spec.version + "." + spec.group (so "v1." for the core group); the
//     group, version, priorities, service and TLS settings are checked as the real
//     validation does; a status write checks the conditions' status values.
//  3. Builtin lists the APIServices of a default v1.36 server, one per built-in
//     group-version, with their real priorities, labelled
//     kube-aggregator.kubernetes.io/automanaged=onstart; ForCRD the ones a CRD's served
//     versions get (priority 1000 and 100, automanaged=true).
package apiregistration

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Group is the API group of APIServices.
const Group = "apiregistration.k8s.io"

func gvk() api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: "v1", Kind: "APIService"}
}

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// clusterScopedFields are the field labels of a store without its own GetAttrs
// (DefaultClusterScopedAttr): metadata.namespace, always empty, beside metadata.name.
func clusterScopedFields() map[string]rest.FieldRead {
	return map[string]rest.FieldRead{"metadata.namespace": rest.TextField("metadata.namespace")}
}
