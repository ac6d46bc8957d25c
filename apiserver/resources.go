package apiserver

import (
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// ResourceInfo describes one served resource. It mirrors what a CustomResourceDefinition (or
// a built-in registry's RESTStorage) tells k8s.io/apiserver about a resource: group, version,
// plural, kind, list kind, scope and short names, plus the per-resource switches of the
// registry strategies that the wire spec depends on.
type ResourceInfo struct {
	Group      string   // "" for the core group (served under /api/v1)
	Version    string   // e.g. "v1"
	Resource   string   // plural, lower case: "deployments"
	Kind       string   // "Deployment"
	ListKind   string   // "DeploymentList"; Kind+"List" when empty
	Namespaced bool     // namespaced or cluster-scoped
	ShortNames []string // e.g. "deploy"
	// Categories are the groups of resources kubectl get expands, e.g. "all" (discovery).
	Categories []string
	// SingularName is the singular resource name discovery reports; the lower-case Kind
	// when empty (a CRD's spec.names.singular).
	SingularName string

	// AllowUnconditionalUpdate mirrors RESTUpdateStrategy.AllowUnconditionalUpdate: a PUT
	// without metadata.resourceVersion is accepted (wire spec P3). Built-ins allow it; a
	// registered kind does not unless this is set, as for custom resources.
	AllowUnconditionalUpdate bool
	// ReturnDeletedObject makes DELETE answer with the deleted object rather than a Success
	// Status (wire spec D4). Pods, namespaces, services, serviceaccounts and PVCs do
	// (kinds.go), and so do custom resources.
	ReturnDeletedObject bool
	// FieldLabels are the field-selector labels beyond metadata.name and metadata.namespace
	// (wire spec L19); FieldSet computes their values for one object. Both may be empty.
	FieldLabels []string
	FieldSet    func(obj api.Object) fields.Set

	builtin bool
	traits  kindTraits // the strategy switches of a built-in (kinds.go)
	// crd names the CustomResourceDefinition a resource serves ("" otherwise); such a
	// resource has the status and scale subresources only where the CRD declares them.
	crd                  string
	crdStatus, crdScaled bool
}

// GVK returns the resource's group, version and kind.
func (ri *ResourceInfo) GVK() api.GroupVersionKind {
	return api.GroupVersionKind{Group: ri.Group, Version: ri.Version, Kind: ri.Kind}
}

// GroupResource returns the resource as errors name it ("pods", "deployments.apps").
func (ri *ResourceInfo) GroupResource() api.GroupResource {
	return api.GroupResource{Group: ri.Group, Resource: ri.Resource}
}

func (ri *ResourceInfo) groupKind() api.GroupKind {
	return api.GroupKind{Group: ri.Group, Kind: ri.Kind}
}

func (ri *ResourceInfo) apiVersion() string { return ri.GVK().APIVersion() }

func (ri *ResourceInfo) listKind() string {
	if ri.ListKind != "" {
		return ri.ListKind
	}
	return ri.Kind + "List"
}

// hasStatus reports whether the resource serves the status subresource (U2): the built-ins
// whose registry has one, and every registered kind.
func (ri *ResourceInfo) hasStatus() bool {
	if ri.crd != "" {
		return ri.crdStatus
	}
	return !ri.builtin || ri.traits.status
}

// hasGeneration reports whether metadata.generation is kept (P5): the built-ins whose
// strategy sets it, and every registered kind.
func (ri *ResourceInfo) hasGeneration() bool { return !ri.builtin || ri.traits.generation }

// hasScale reports whether the scale subresource is served.
func (ri *ResourceInfo) hasScale() bool { return ri.builtin && ri.traits.scale || ri.crdScaled }

// singular is the singular name discovery reports.
func (ri *ResourceInfo) singular() string {
	if ri.SingularName != "" {
		return ri.SingularName
	}
	return strings.ToLower(ri.Kind)
}

// verbs lists the verbs the resource serves, sorted as discovery sends them (K4). The
// collection DELETE of namespaces is not served.
func (ri *ResourceInfo) verbs() []string {
	if ri.builtin && ri.traits.noCollectionDelete {
		return []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	}
	return []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
}

// allowedFields lists every field label a selector on this resource may use.
func (ri *ResourceInfo) allowedFields() []string {
	out := []string{"metadata.name"}
	if ri.Namespaced {
		out = append(out, "metadata.namespace")
	}
	return append(out, ri.FieldLabels...)
}

// fieldsOf returns the field set selectors match against. An absent field is "" (L20).
func (ri *ResourceInfo) fieldsOf(obj api.Object) fields.Set {
	m, _ := api.Accessor(obj)
	set := fields.Set{}
	if ri.FieldSet != nil {
		set = ri.FieldSet(obj)
	}
	if m != nil {
		set["metadata.name"] = m.GetName()
		if ri.Namespaced {
			set["metadata.namespace"] = m.GetNamespace()
		}
	}
	return set
}

func (ri *ResourceInfo) validate() error {
	switch {
	case ri.Version == "" || ri.Resource == "" || ri.Kind == "":
		return fmt.Errorf("apiserver: resource %q needs a version, a resource name and a kind", ri.Resource)
	case strings.ToLower(ri.Resource) != ri.Resource || strings.ContainsAny(ri.Resource, "/."):
		return fmt.Errorf("apiserver: resource name %q must be lower case without '/' or '.'", ri.Resource)
	case strings.Contains(ri.Group, "/") || strings.Contains(ri.Version, "/"):
		return fmt.Errorf("apiserver: group %q and version %q must not contain '/'", ri.Group, ri.Version)
	}
	return nil
}

// podFieldLabelAlias maps the legacy pod field label to its current name (L19).
func podFieldLabelAlias(field, value string) (string, string, error) {
	if field == "spec.host" {
		return "spec.nodeName", value, nil
	}
	return field, value, nil
}
