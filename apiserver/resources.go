package apiserver

import "github.com/informer-lab/informer-lab/apiserver/internal/registry"

// ResourceInfo describes one served resource. It mirrors what a CustomResourceDefinition (or
// a built-in registry's RESTStorage) tells k8s.io/apiserver about a resource: group, version,
// plural, kind, list kind, scope and short names, plus the per-resource switches of the
// registry strategies that the wire spec depends on. It is defined by the registry
// (internal/registry), which serves it.
type ResourceInfo = registry.ResourceInfo

// podFieldLabelAlias maps the legacy pod field label to its current name (L19).
func podFieldLabelAlias(field, value string) (string, string, error) {
	if field == "spec.host" {
		return "spec.nodeName", value, nil
	}
	return field, value, nil
}
