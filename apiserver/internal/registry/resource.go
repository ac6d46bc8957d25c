package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
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
	// without metadata.resourceVersion is accepted (docs/behaviour/wire.md P3). Built-ins allow it; a
	// registered kind does not unless this is set, as for custom resources.
	AllowUnconditionalUpdate bool
	// ReturnDeletedObject makes DELETE answer with the deleted object rather than a Success
	// Status (docs/behaviour/wire.md D4). Pods, namespaces, services, serviceaccounts and PVCs do
	// (kinds.go), and so do custom resources.
	ReturnDeletedObject bool
	// FieldLabels are the field-selector labels beyond metadata.name and metadata.namespace
	// (docs/behaviour/wire.md L19); FieldSet computes their values for one object. Both may be empty.
	FieldLabels []string
	FieldSet    func(obj api.Object) fields.Set
}

// GVK returns the resource's group, version and kind.
func (ri *ResourceInfo) GVK() api.GroupVersionKind {
	return api.GroupVersionKind{Group: ri.Group, Version: ri.Version, Kind: ri.Kind}
}

// GroupResource returns the resource as errors name it ("pods", "deployments.apps").
func (ri *ResourceInfo) GroupResource() api.GroupResource {
	return api.GroupResource{Group: ri.Group, Resource: ri.Resource}
}

// GroupKind returns the resource's group and kind, as Invalid errors name it.
func (ri *ResourceInfo) GroupKind() api.GroupKind {
	return api.GroupKind{Group: ri.Group, Kind: ri.Kind}
}

// APIVersion returns "group/version", or "version" for the core group.
func (ri *ResourceInfo) APIVersion() string { return ri.GVK().APIVersion() }

// ListKindName returns ListKind, or Kind+"List" when it is empty.
func (ri *ResourceInfo) ListKindName() string {
	if ri.ListKind != "" {
		return ri.ListKind
	}
	return ri.Kind + "List"
}

// Singular is the singular name discovery reports.
func (ri *ResourceInfo) Singular() string {
	if ri.SingularName != "" {
		return ri.SingularName
	}
	return strings.ToLower(ri.Kind)
}

// AllowedFields lists every field label a selector on this resource may use. A kind with
// no field labels of its own converts them with DefaultMetaV1FieldSelectorConversion, which
// knows metadata.namespace even on a cluster-scoped kind (where it is always ""); the kinds
// with their own conversion (namespaces, nodes, resourceslices, …) list it only when
// namespaced.
func (ri *ResourceInfo) AllowedFields() []string {
	out := []string{"metadata.name"}
	if ri.Namespaced || len(ri.FieldLabels) == 0 {
		out = append(out, "metadata.namespace")
	}
	return append(out, ri.FieldLabels...)
}

// FieldsOf returns the field set selectors match against. An absent field is "" (L20).
func (ri *ResourceInfo) FieldsOf(obj api.Object) fields.Set {
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

// Validate checks that the info can be served.
func (ri *ResourceInfo) Validate() error {
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

// Resource is one served resource as the registry keeps it: what it is, how its writes are
// prepared and checked, and the collection that stores it. It mirrors the pair of a
// genericregistry.Store and its strategy in a kube-apiserver's REST storage map.
type Resource struct {
	Info     ResourceInfo
	Builtin  bool          // one of the kinds of the registry's table
	Strategy rest.Strategy // never nil
	Coll     *storage.Collection
	// NoCollectionDelete: the resource has no collection DELETE (namespaces).
	NoCollectionDelete bool
	// CRDName names the CustomResourceDefinition a custom resource serves ("" otherwise);
	// CRD holds what that CRD says now, swapped whole by its updates.
	CRDName string
	CRD     atomic.Pointer[apiextensions.Serving]
	// Terminating: the CRD's Terminating condition holds (it is being deleted); creates are
	// refused and discovery lists only the verbs that read and delete.
	Terminating atomic.Bool
	// OnlyVerbs, when set, are the verbs served (rest.Kind.Verbs); Subresources are the
	// subresources beyond status, scale and finalize (rest.Kind.Subresources).
	OnlyVerbs    []string
	Subresources []rest.Subresource
	// Deprecated is the warning every request to the resource gets (rest.Kind.Deprecated).
	Deprecated string
	// Storage is the kind objects are stored as, when it is not Info's (rest.Kind.Storage).
	// Such a resource shares the collection of the resource serving Storage.
	Storage api.GroupVersionKind
	// ToStorage and FromStorage convert to and from the stored form (rest.Kind.ToStorage).
	ToStorage, FromStorage func(obj map[string]any) map[string]any
	// Bootstrap returns the objects a fresh server creates of this kind (rest.Kind.Bootstrap).
	Bootstrap func() []map[string]any
	// Conversions are the further versions the kind is served at (rest.Kind.Conversions).
	Conversions []rest.Conversion
	// fields caches the kind's field manager (Store.FieldManagerOf).
	fields fieldManagerCache
}

// Conversion returns the conversion of a further served version, if the kind has one.
func (r *Resource) Conversion(version string) (rest.Conversion, bool) {
	for _, c := range r.Conversions {
		if c.Version == version {
			return c, true
		}
	}
	return rest.Conversion{}, false
}

// StorageGVK is the group, version and kind the resource's objects are stored as.
func (r *Resource) StorageGVK() api.GroupVersionKind {
	if r.Storage.Kind != "" {
		return r.Storage
	}
	return r.Info.GVK()
}

// Verbs lists the verbs the resource serves, sorted as discovery sends them.
func (r *Resource) Verbs() []string {
	if r.OnlyVerbs != nil {
		return r.OnlyVerbs
	}
	if r.NoCollectionDelete {
		return []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	}
	return []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
}

// terminatingVerbs are the verbs discovery lists for the resource of a terminating CRD
// (the apiextensions DiscoveryController's).
var terminatingVerbs = []string{"delete", "deletecollection", "get", "list", "watch"}

// DiscoveryVerbs lists the verbs discovery advertises: Verbs, or fewer while the resource's
// CRD is terminating (DiscoveryController.sync). Requests are routed on Verbs: a create
// then meets its 403 rather than a 405.
func (r *Resource) DiscoveryVerbs() []string {
	if r.Terminating.Load() {
		return terminatingVerbs
	}
	return r.Verbs()
}

// Serves reports whether the resource serves verb on itself (not on a subresource).
func (r *Resource) Serves(verb string) bool {
	return slices.Contains(r.Verbs(), verb)
}

// Subresource returns the further subresource called name, if the resource has one.
func (r *Resource) Subresource(name string) (rest.Subresource, bool) {
	for _, sr := range r.Subresources {
		if sr.Name == name {
			return sr, true
		}
	}
	return rest.Subresource{}, false
}

func isNamespaces(res *Resource) bool {
	return res.Builtin && res.Info.Group == "" && res.Info.Kind == "Namespace"
}

func isCRDs(res *Resource) bool {
	return res.Builtin && res.Info.Group == apiextensions.Group && res.Info.Kind == "CustomResourceDefinition"
}
