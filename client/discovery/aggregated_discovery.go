package discovery

import "fmt"

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
func SplitGroupsAndResources(list APIGroupDiscoveryList) (*APIGroupList, map[string]*APIResourceList, map[string]error) {
	groups := &APIGroupList{Groups: make([]APIGroup, 0, len(list.Items))}
	resources := map[string]*APIResourceList{}
	failed := map[string]error{}
	for _, ag := range list.Items {
		g := APIGroup{Name: ag.Metadata.Name}
		for _, v := range ag.Versions {
			gv := v.Version
			if g.Name != "" {
				gv = g.Name + "/" + v.Version
			}
			if v.Freshness == DiscoveryFreshnessStale {
				failed[gv] = StaleGroupVersionError{GroupVersion: gv}
				continue
			}
			ver := GroupVersionForDiscovery{GroupVersion: gv, Version: v.Version}
			g.Versions = append(g.Versions, ver)
			if g.PreferredVersion == (GroupVersionForDiscovery{}) {
				g.PreferredVersion = ver // the first version that is not stale
			}
			rl := &APIResourceList{GroupVersion: gv}
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
func convertAPIResource(in APIResourceDiscovery) (APIResource, bool) {
	out := APIResource{
		Name:         in.Resource,
		SingularName: in.SingularResource,
		Namespaced:   in.Scope == ScopeNamespace,
		Verbs:        in.Verbs,
		ShortNames:   in.ShortNames,
		Categories:   in.Categories,
	}
	if in.ResponseKind == nil || *in.ResponseKind == (GroupVersionKind{}) {
		return out, false
	}
	out.Group, out.Version, out.Kind = in.ResponseKind.Group, in.ResponseKind.Version, in.ResponseKind.Kind
	return out, true
}

// convertAPISubresource mirrors convertAPISubresource.
func convertAPISubresource(parent APIResource, in APISubresourceDiscovery) (APIResource, bool) {
	if in.ResponseKind == nil || *in.ResponseKind == (GroupVersionKind{}) {
		return APIResource{}, false
	}
	return APIResource{
		Name:         parent.Name + "/" + in.Subresource,
		SingularName: parent.SingularName,
		Namespaced:   parent.Namespaced,
		Group:        in.ResponseKind.Group,
		Version:      in.ResponseKind.Version,
		Kind:         in.ResponseKind.Kind,
		Verbs:        in.Verbs,
	}, true
}
