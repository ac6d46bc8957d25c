package restmapper

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
)

// RESTScopeName mirrors meta.RESTScopeName: where a resource lives.
type RESTScopeName string

// The two scopes.
const (
	// RESTScopeNameNamespace mirrors meta.RESTScopeNameNamespace: requests name a namespace.
	RESTScopeNameNamespace RESTScopeName = "namespace"
	// RESTScopeNameRoot mirrors meta.RESTScopeNameRoot: cluster-scoped.
	RESTScopeNameRoot RESTScopeName = "root"
)

// RESTMapping mirrors meta.RESTMapping: everything a client needs to reach a kind.
type RESTMapping struct {
	// Resource is what the URL names, e.g. {"", "v1", "pods"}.
	Resource api.GroupVersionResource
	// GroupVersionKind is what the objects say they are, e.g. {"", "v1", "Pod"}.
	GroupVersionKind api.GroupVersionKind
	// Scope says whether requests need a namespace.
	Scope RESTScopeName
}

// RESTMapper mirrors meta.RESTMapper in apimachinery pkg/api/meta/interfaces.go, without the
// plural forms (KindsFor, ResourcesFor, RESTMappings).
type RESTMapper interface {
	KindFor(resource api.GroupVersionResource) (api.GroupVersionKind, error)
	ResourceFor(input api.GroupVersionResource) (api.GroupVersionResource, error)
	RESTMapping(gk api.GroupKind, versions ...string) (*RESTMapping, error)
	ResourceSingularizer(resource string) (string, error)
}

// APIGroupResources mirrors restmapper.APIGroupResources: a group and the resources of each
// of its versions.
type APIGroupResources struct {
	Group api.APIGroup
	// VersionedResources maps a version ("v1") to its resources.
	VersionedResources map[string][]api.APIResource
}

// GetAPIGroupResources mirrors restmapper.GetAPIGroupResources: one discovery round trip
// (ServerGroupsAndResources) turned into the mapper's input. A partial answer is used as
// long as there is one.
func GetAPIGroupResources(cl discovery.DiscoveryInterface) ([]*APIGroupResources, error) {
	if cl == nil {
		return nil, errors.New("restmapper: GetAPIGroupResources needs a discovery client")
	}
	groups, lists, err := cl.ServerGroupsAndResources()
	return groupResources(groups, lists, err)
}

// groupResources turns one discovery answer into the mapper's input.
func groupResources(groups []*api.APIGroup, lists []*api.APIResourceList, err error) ([]*APIGroupResources, error) {
	if groups == nil || lists == nil {
		if err == nil {
			err = errors.New("restmapper: discovery returned no groups")
		}
		return nil, err
	}
	byGV := map[string]*api.APIResourceList{}
	for _, l := range lists {
		byGV[l.GroupVersion] = l
	}
	var out []*APIGroupResources
	for _, g := range groups {
		gr := &APIGroupResources{Group: *g, VersionedResources: map[string][]api.APIResource{}}
		for _, v := range g.Versions {
			if l, ok := byGV[v.GroupVersion]; ok {
				gr.VersionedResources[v.Version] = l.APIResources
			}
		}
		out = append(out, gr)
	}
	return out, nil
}

// entry is one resource of one group-version, with every name it answers to.
type entry struct {
	mapping    RESTMapping
	singular   string
	kindLower  string // the kind as kubectl users type it, computed once
	shortNames []string
}

// DiscoveryRESTMapper maps the names a user types to what the server serves. It mirrors what
// client-go builds from restmapper.NewDiscoveryRESTMapper (a PriorityRESTMapper over one
// DefaultRESTMapper per group-version) wrapped in restmapper.NewShortcutExpander, in one
// type: plural ("pods"), singular ("pod"), kind in any case ("Pod") and short names ("po")
// all resolve. Where several groups serve a name, the core group wins, then the groups in
// discovery order, and within a group the preferred version.
type DiscoveryRESTMapper struct {
	entries []entry // in priority order
}

var _ RESTMapper = (*DiscoveryRESTMapper)(nil)

// NewDiscoveryRESTMapper mirrors restmapper.NewDiscoveryRESTMapper. Subresources
// ("pods/status") are not mapped.
func NewDiscoveryRESTMapper(groupResources []*APIGroupResources) *DiscoveryRESTMapper {
	m := &DiscoveryRESTMapper{}
	add := func(g *APIGroupResources, version string) {
		for _, r := range g.VersionedResources[version] {
			if strings.Contains(r.Name, "/") {
				continue
			}
			scope := RESTScopeNameNamespace
			if !r.Namespaced {
				scope = RESTScopeNameRoot
			}
			singular := r.SingularName
			if singular == "" {
				singular = strings.ToLower(r.Kind) // servers that omit it: guess, as upstream
			}
			m.entries = append(m.entries, entry{
				mapping: RESTMapping{
					Resource:         api.GroupVersionResource{Group: g.Group.Name, Version: version, Resource: r.Name},
					GroupVersionKind: api.GroupVersionKind{Group: g.Group.Name, Version: version, Kind: r.Kind},
					Scope:            scope,
				},
				singular:   singular,
				kindLower:  strings.ToLower(r.Kind),
				shortNames: r.ShortNames,
			})
		}
	}
	// The core group first, whatever the order it came in.
	ordered := make([]*APIGroupResources, 0, len(groupResources))
	for _, g := range groupResources {
		if g != nil && g.Group.Name == "" {
			ordered = append(ordered, g)
		}
	}
	for _, g := range groupResources {
		if g != nil && g.Group.Name != "" {
			ordered = append(ordered, g)
		}
	}
	for _, g := range ordered {
		preferred := g.Group.PreferredVersion.Version
		if _, ok := g.VersionedResources[preferred]; ok {
			add(g, preferred)
		}
		for _, v := range g.Group.Versions {
			if v.Version != preferred {
				add(g, v.Version)
			}
		}
	}
	return m
}

// NewDiscoveryRESTMapperForClient runs GetAPIGroupResources and NewDiscoveryRESTMapper, the
// two steps kubectl takes (through a cached discovery client) before resolving a name. A
// client that can take ctx runs its discovery under it, so a cancelled caller does not wait
// for a server that does not answer.
func NewDiscoveryRESTMapperForClient(ctx context.Context, cl discovery.DiscoveryInterface) (*DiscoveryRESTMapper, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var grs []*APIGroupResources
	var err error
	if wc, ok := cl.(interface {
		ServerGroupsAndResourcesWithContext(context.Context) ([]*api.APIGroup, []*api.APIResourceList, error)
	}); ok {
		grs, err = groupResources(wc.ServerGroupsAndResourcesWithContext(ctx))
	} else {
		grs, err = GetAPIGroupResources(cl)
	}
	if err != nil {
		return nil, err
	}
	return NewDiscoveryRESTMapper(grs), nil
}

// find returns the first entry, in priority order, that input names.
func (m *DiscoveryRESTMapper) find(input api.GroupVersionResource) (*entry, error) {
	name := strings.ToLower(strings.TrimSpace(input.Resource))
	if name == "" {
		return nil, &NoResourceMatchError{PartialResource: input}
	}
	for i := range m.entries {
		e := &m.entries[i]
		r := e.mapping.Resource
		if (input.Group != "" && input.Group != r.Group) || (input.Version != "" && input.Version != r.Version) {
			continue
		}
		if name == r.Resource || name == e.singular || name == e.kindLower {
			return e, nil
		}
	}
	// Short names count only where no full name matched, as the shortcut expander runs
	// first but yields to real resource names.
	for i := range m.entries {
		e := &m.entries[i]
		r := e.mapping.Resource
		if (input.Group != "" && input.Group != r.Group) || (input.Version != "" && input.Version != r.Version) {
			continue
		}
		for _, sn := range e.shortNames {
			if name == sn {
				return e, nil
			}
		}
	}
	return nil, &NoResourceMatchError{PartialResource: input}
}

// ResourceFor mirrors RESTMapper.ResourceFor: the full GroupVersionResource for a partial
// one, e.g. {Resource: "po"} → {"", "v1", "pods"}.
func (m *DiscoveryRESTMapper) ResourceFor(input api.GroupVersionResource) (api.GroupVersionResource, error) {
	e, err := m.find(input)
	if err != nil {
		return api.GroupVersionResource{}, err
	}
	return e.mapping.Resource, nil
}

// KindFor mirrors RESTMapper.KindFor: the kind a (partial) resource serves.
func (m *DiscoveryRESTMapper) KindFor(resource api.GroupVersionResource) (api.GroupVersionKind, error) {
	e, err := m.find(resource)
	if err != nil {
		return api.GroupVersionKind{}, err
	}
	return e.mapping.GroupVersionKind, nil
}

// RESTMapping mirrors RESTMapper.RESTMapping: the mapping of a kind, in the first of versions
// that serves it, or in the preferred version when none is given.
func (m *DiscoveryRESTMapper) RESTMapping(gk api.GroupKind, versions ...string) (*RESTMapping, error) {
	match := func(version string) *RESTMapping {
		for i := range m.entries {
			e := &m.entries[i]
			gvk := e.mapping.GroupVersionKind
			if gvk.Group == gk.Group && gvk.Kind == gk.Kind && (version == "" || gvk.Version == version) {
				mapping := e.mapping
				return &mapping
			}
		}
		return nil
	}
	var wanted []string
	for _, v := range versions {
		if v != "" {
			wanted = append(wanted, v)
		}
	}
	if len(wanted) == 0 {
		wanted = []string{""} // any version, preferred first
	}
	for _, v := range wanted {
		if mapping := match(v); mapping != nil {
			return mapping, nil
		}
	}
	return nil, &NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
}

// ResourceSingularizer mirrors RESTMapper.ResourceSingularizer: "pods" → "pod".
func (m *DiscoveryRESTMapper) ResourceSingularizer(resource string) (string, error) {
	e, err := m.find(api.GroupVersionResource{Resource: resource})
	if err != nil {
		return resource, err
	}
	return e.singular, nil
}

// MappingFor mirrors resource.Builder.mappingFor in k8s.io/cli-runtime, the way kubectl reads
// the first argument of `kubectl get`: a resource ("po", "pods", "deploy.apps",
// "deployments.v1.apps") or else a kind ("Pod", "Deployment.apps", "Deployment.v1.apps").
func (m *DiscoveryRESTMapper) MappingFor(resourceOrKindArg string) (*RESTMapping, error) {
	arg := strings.TrimSpace(resourceOrKindArg)
	if arg == "" {
		return nil, errors.New("restmapper: a resource or kind name is required")
	}
	fullGVR, gr := parseResourceArg(arg)
	var e *entry
	var err error
	if fullGVR != nil {
		e, err = m.find(*fullGVR)
	}
	if e == nil {
		e, err = m.find(api.GroupVersionResource{Group: gr.Group, Resource: gr.Resource})
	}
	if e != nil {
		mapping := e.mapping
		return &mapping, nil
	}
	fullGVK, gk := parseKindArg(arg)
	if fullGVK != nil {
		if mapping, kerr := m.RESTMapping(api.GroupKind{Group: fullGVK.Group, Kind: fullGVK.Kind}, fullGVK.Version); kerr == nil {
			return mapping, nil
		}
	}
	if mapping, kerr := m.RESTMapping(gk); kerr == nil {
		return mapping, nil
	}
	return nil, fmt.Errorf("the server doesn't have a resource type %q: %w", gr.Resource, err)
}

// parseResourceArg mirrors schema.ParseResourceArg: "a.b.c…" may be resource.version.group,
// and "a.b…" is resource.group.
func parseResourceArg(arg string) (*api.GroupVersionResource, api.GroupResource) {
	var full *api.GroupVersionResource
	if parts := strings.SplitN(arg, ".", 3); len(parts) == 3 {
		full = &api.GroupVersionResource{Resource: parts[0], Version: parts[1], Group: parts[2]}
	}
	if i := strings.IndexByte(arg, '.'); i >= 0 {
		return full, api.GroupResource{Resource: arg[:i], Group: arg[i+1:]}
	}
	return full, api.GroupResource{Resource: arg}
}

// parseKindArg mirrors schema.ParseKindArg: "Kind.version.group…" or "Kind.group".
func parseKindArg(arg string) (*api.GroupVersionKind, api.GroupKind) {
	var full *api.GroupVersionKind
	if parts := strings.SplitN(arg, ".", 3); len(parts) == 3 {
		full = &api.GroupVersionKind{Kind: parts[0], Version: parts[1], Group: parts[2]}
	}
	if i := strings.IndexByte(arg, '.'); i >= 0 {
		return full, api.GroupKind{Kind: arg[:i], Group: arg[i+1:]}
	}
	return full, api.GroupKind{Kind: arg}
}

// NoResourceMatchError mirrors meta.NoResourceMatchError: no served resource has that name.
type NoResourceMatchError struct {
	PartialResource api.GroupVersionResource
}

// Error mirrors NoResourceMatchError.Error.
func (e *NoResourceMatchError) Error() string {
	return fmt.Sprintf("no matches for %s", describeGVR(e.PartialResource))
}

// NoKindMatchError mirrors meta.NoKindMatchError: no served resource has that kind.
type NoKindMatchError struct {
	GroupKind        api.GroupKind
	SearchedVersions []string
}

// Error mirrors NoKindMatchError.Error.
func (e *NoKindMatchError) Error() string {
	if len(e.SearchedVersions) == 0 {
		return fmt.Sprintf("no matches for kind %q in group %q", e.GroupKind.Kind, e.GroupKind.Group)
	}
	return fmt.Sprintf("no matches for kind %q in version %q", e.GroupKind.Kind,
		e.GroupKind.Group+"/"+strings.Join(e.SearchedVersions, ","))
}

// IsNoMatchError mirrors meta.IsNoMatchError.
func IsNoMatchError(err error) bool {
	var r *NoResourceMatchError
	var k *NoKindMatchError
	return errors.As(err, &r) || errors.As(err, &k)
}

func describeGVR(g api.GroupVersionResource) string {
	return fmt.Sprintf("%s/%s, Resource=%s", g.Group, g.Version, g.Resource)
}
