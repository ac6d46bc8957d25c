package garbagecollector

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
)

// ignoredResources mirrors the garbage collector's default ignored resources: events take no
// part (their registry refuses the collector's finalizers too).
var ignoredResources = map[api.GroupResource]bool{
	{Group: "", Resource: "events"}:              true,
	{Group: "events.k8s.io", Resource: "events"}: true,
}

// mapping is what the collector knows of one kind: where it is served and its scope.
type mapping struct {
	gvr        api.GroupVersionResource
	namespaced bool
}

// restMapper maps the kinds of owner references to resources; resync refreshes it, so kinds
// of CRDs created later resolve.
type restMapper struct {
	mu    sync.RWMutex
	kinds map[api.GroupVersionKind]mapping
}

func (m *restMapper) lookup(apiVersion, kind string) (mapping, error) {
	g, v := splitAPIVersion(apiVersion)
	m.mu.RLock()
	defer m.mu.RUnlock()
	mp, ok := m.kinds[api.GroupVersionKind{Group: g, Version: v, Kind: kind}]
	if !ok {
		return mapping{}, fmt.Errorf("no matches for kind %q in version %q", kind, apiVersion)
	}
	return mp, nil
}

// deletableResources mirrors GetDeletableResources of garbagecollector.go: the preferred
// version of every resource that supports delete, list and watch (subresources excluded),
// and the kind mapping of every served version.
func deletableResources(ctx context.Context, dc *discovery.DiscoveryClient) ([]mapping, map[api.GroupVersionKind]mapping, error) {
	groups, lists, err := dc.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return nil, nil, err
	}
	preferred := map[string]bool{}
	for _, g := range groups {
		preferred[g.PreferredVersion.GroupVersion] = true
	}
	var out []mapping
	kinds := map[api.GroupVersionKind]mapping{}
	for _, rl := range lists {
		g, v := splitAPIVersion(rl.GroupVersion)
		for _, r := range rl.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			mp := mapping{gvr: api.GroupVersionResource{Group: g, Version: v, Resource: r.Name}, namespaced: r.Namespaced}
			kinds[api.GroupVersionKind{Group: g, Version: v, Kind: r.Kind}] = mp
			if !preferred[rl.GroupVersion] || ignoredResources[api.GroupResource{Group: g, Resource: r.Name}] {
				continue
			}
			if slices.Contains(r.Verbs, "delete") && slices.Contains(r.Verbs, "list") && slices.Contains(r.Verbs, "watch") {
				out = append(out, mp)
			}
		}
	}
	return out, kinds, err
}

// splitAPIVersion splits "apps/v1" into its group and version ("v1" is the core group).
func splitAPIVersion(s string) (group, version string) {
	if g, v, ok := strings.Cut(s, "/"); ok {
		return g, v
	}
	return "", s
}
