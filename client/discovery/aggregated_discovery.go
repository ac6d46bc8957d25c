package discovery

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// StaleGroupVersionError mirrors discovery.StaleGroupVersionError: an aggregated document
// marked this group-version stale.
type StaleGroupVersionError struct{ GroupVersion string }

// Error mirrors StaleGroupVersionError.Error.
func (e StaleGroupVersionError) Error() string {
	return fmt.Sprintf("stale GroupVersion discovery: %v", e.GroupVersion)
}

// SplitGroupsAndResources mirrors discovery.SplitGroupsAndResources in client-go
// discovery/aggregated_discovery.go: it turns one aggregated document into the legacy shapes,
// groups on one side and the resources of each group-version on the other, with subresources
// becoming "parent/sub" entries as legacy discovery lists them.
func SplitGroupsAndResources(list api.APIGroupDiscoveryList) (*api.APIGroupList, map[string]*api.APIResourceList, map[string]error) {
	groups := &api.APIGroupList{Groups: make([]api.APIGroup, 0, len(list.Items))}
	resources := map[string]*api.APIResourceList{}
	failed := map[string]error{}
	for _, ag := range list.Items {
		g := api.APIGroup{Name: ag.Metadata.Name}
		for _, v := range ag.Versions {
			gv := v.Version
			if g.Name != "" {
				gv = g.Name + "/" + v.Version
			}
			if v.Freshness == api.DiscoveryFreshnessStale {
				failed[gv] = StaleGroupVersionError{GroupVersion: gv}
				continue
			}
			ver := api.GroupVersionForDiscovery{GroupVersion: gv, Version: v.Version}
			g.Versions = append(g.Versions, ver)
			if g.PreferredVersion == (api.GroupVersionForDiscovery{}) {
				g.PreferredVersion = ver // the first version that is not stale
			}
			rl := &api.APIResourceList{GroupVersion: gv}
			for _, r := range v.Resources {
				parent, ok := convertAPIResource(r)
				if ok {
					rl.APIResources = append(rl.APIResources, parent)
				}
				for _, sub := range r.Subresources {
					if s, ok := convertAPISubresource(parent, sub); ok {
						rl.APIResources = append(rl.APIResources, s)
					}
				}
			}
			resources[gv] = rl
		}
		groups.Groups = append(groups.Groups, g)
	}
	return groups, resources, failed
}

// convertAPIResource mirrors convertAPIResource: ok is false when the resource has no
// responseKind; the partial result still names the parent of its subresources.
func convertAPIResource(in api.APIResourceDiscovery) (api.APIResource, bool) {
	out := api.APIResource{
		Name:         in.Resource,
		SingularName: in.SingularResource,
		Namespaced:   in.Scope == api.ScopeNamespace,
		Verbs:        in.Verbs,
		ShortNames:   in.ShortNames,
		Categories:   in.Categories,
	}
	if in.ResponseKind == nil || *in.ResponseKind == (api.GroupVersionKind{}) {
		return out, false
	}
	out.Group, out.Version, out.Kind = in.ResponseKind.Group, in.ResponseKind.Version, in.ResponseKind.Kind
	return out, true
}

// convertAPISubresource mirrors convertAPISubresource.
func convertAPISubresource(parent api.APIResource, in api.APISubresourceDiscovery) (api.APIResource, bool) {
	if in.ResponseKind == nil || *in.ResponseKind == (api.GroupVersionKind{}) {
		return api.APIResource{}, false
	}
	return api.APIResource{
		Name:         parent.Name + "/" + in.Subresource,
		SingularName: parent.SingularName,
		Namespaced:   parent.Namespaced,
		Group:        in.ResponseKind.Group,
		Version:      in.ResponseKind.Version,
		Kind:         in.ResponseKind.Kind,
		Verbs:        in.Verbs,
	}, true
}
