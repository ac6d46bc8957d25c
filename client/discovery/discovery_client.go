package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/rest"
)

// Accept headers of discovery requests (docs/behaviour/wire.md K3, CG2), as client-go v0.37 sends them.
const (
	// AcceptV1 mirrors discovery.AcceptV1: the legacy documents only.
	AcceptV1 = "application/json"
	// AcceptV2 mirrors discovery.AcceptV2: the aggregated document.
	AcceptV2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	// acceptDiscoveryFormats mirrors acceptDiscoveryFormats: aggregated first, legacy as the
	// fallback a server without aggregation answers with.
	acceptDiscoveryFormats = AcceptV2 + "," + AcceptV1
)

// DiscoveryInterface mirrors DiscoveryInterface in client-go discovery/discovery_client.go,
// reduced to what kubectl-style resource resolution needs (no OpenAPI, no preferred-resource
// helpers).
type DiscoveryInterface interface {
	RESTClient() *rest.RESTClient
	ServerVersion() (*api.VersionInfo, error)
	ServerGroups() (*api.APIGroupList, error)
	ServerResourcesForGroupVersion(groupVersion string) (*api.APIResourceList, error)
	ServerGroupsAndResources() ([]*api.APIGroup, []*api.APIResourceList, error)
}

// DiscoveryClient mirrors discovery.DiscoveryClient: it asks the server which groups,
// versions and resources it serves.
type DiscoveryClient struct {
	restClient *rest.RESTClient
	// LegacyPrefix mirrors DiscoveryClient.LegacyPrefix: where the core group lives ("/api").
	LegacyPrefix string
	// UseLegacyDiscovery mirrors DiscoveryClient.UseLegacyDiscovery: ask only for the legacy
	// documents, one request per group-version, as servers before 1.26 required.
	UseLegacyDiscovery bool
}

var _ DiscoveryInterface = (*DiscoveryClient)(nil)

// NewDiscoveryClientForConfig mirrors discovery.NewDiscoveryClientForConfig. cfg is copied.
func NewDiscoveryClientForConfig(cfg *rest.Config) (*DiscoveryClient, error) {
	if cfg == nil {
		return nil, errors.New("discovery: NewDiscoveryClientForConfig needs a Config")
	}
	config := *cfg
	rc, err := rest.RESTClientFor(&config)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClient(rc), nil
}

// NewDiscoveryClient mirrors discovery.NewDiscoveryClient: discovery over an existing REST
// client (only its server and transport matter; every path is absolute).
func NewDiscoveryClient(c *rest.RESTClient) *DiscoveryClient {
	return &DiscoveryClient{restClient: c, LegacyPrefix: "/api"}
}

// RESTClient mirrors DiscoveryClient.RESTClient.
func (d *DiscoveryClient) RESTClient() *rest.RESTClient { return d.restClient }

// ServerVersion mirrors DiscoveryClient.ServerVersion: GET /version.
func (d *DiscoveryClient) ServerVersion() (*api.VersionInfo, error) {
	return d.ServerVersionWithContext(context.Background())
}

// ServerVersionWithContext mirrors DiscoveryClient.ServerVersionWithContext.
func (d *DiscoveryClient) ServerVersionWithContext(ctx context.Context) (*api.VersionInfo, error) {
	body, err := d.restClient.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var info api.VersionInfo
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("unable to parse the server version: %w", err)
	}
	return &info, nil
}

// ServerGroups mirrors DiscoveryClient.ServerGroups: the core group first, then the groups
// of /apis, each with its versions and preferred version.
func (d *DiscoveryClient) ServerGroups() (*api.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerGroupsWithContext mirrors DiscoveryClient.ServerGroupsWithContext.
func (d *DiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*api.APIGroupList, error) {
	groups, _, _, err := d.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	return groups, nil
}

// ServerResourcesForGroupVersion mirrors DiscoveryClient.ServerResourcesForGroupVersion:
// GET /api/v1 for "v1", /apis/{group}/{version} otherwise. A 404 on /api/v1 gives an empty
// list, as upstream tolerates it.
func (d *DiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (*api.APIResourceList, error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerResourcesForGroupVersionWithContext mirrors
// DiscoveryClient.ServerResourcesForGroupVersionWithContext.
func (d *DiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*api.APIResourceList, error) {
	if groupVersion == "" {
		return nil, errors.New("groupVersion shouldn't be empty")
	}
	p := "/apis/" + groupVersion
	if d.LegacyPrefix != "" && groupVersion == "v1" {
		p = d.LegacyPrefix + "/v1"
	}
	resources := &api.APIResourceList{GroupVersion: groupVersion}
	body, err := d.restClient.Get().AbsPath(p).Do(ctx).Raw()
	if err != nil {
		if groupVersion == "v1" && api.IsNotFound(err) {
			return resources, nil
		}
		return nil, err
	}
	if err := json.Unmarshal(body, resources); err != nil {
		return nil, fmt.Errorf("unable to parse the resources of %s: %w", groupVersion, err)
	}
	return resources, nil
}

// ServerGroupsAndResources mirrors DiscoveryClient.ServerGroupsAndResources: every group
// and the resources of each of its versions. With aggregated discovery that takes two
// requests (/api, /apis); with legacy discovery one more per group-version. Group-versions
// that fail are reported in an *ErrGroupDiscoveryFailed next to the partial result.
func (d *DiscoveryClient) ServerGroupsAndResources() ([]*api.APIGroup, []*api.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroupsAndResourcesWithContext mirrors ServerGroupsAndResourcesWithContext. Unlike
// client-go, the per-group-version requests of legacy discovery go one after another, and
// the result is always in discovery order.
func (d *DiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*api.APIGroup, []*api.APIResourceList, error) {
	groups, byGV, failed, err := d.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	resultGroups := make([]*api.APIGroup, 0, len(groups.Groups))
	for i := range groups.Groups {
		resultGroups = append(resultGroups, &groups.Groups[i])
	}
	if byGV == nil { // legacy: ask each group-version
		byGV = map[string]*api.APIResourceList{}
		for _, g := range groups.Groups {
			for _, v := range g.Versions {
				rl, err := d.ServerResourcesForGroupVersionWithContext(ctx, v.GroupVersion)
				if err != nil {
					failed[v.GroupVersion] = err
					continue
				}
				byGV[v.GroupVersion] = rl
			}
		}
	}
	var result []*api.APIResourceList
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			if rl, ok := byGV[v.GroupVersion]; ok {
				result = append(result, rl)
			}
		}
	}
	if len(failed) > 0 {
		return resultGroups, result, &ErrGroupDiscoveryFailed{Groups: failed}
	}
	return resultGroups, result, nil
}

// GroupsAndMaybeResources mirrors DiscoveryClient.GroupsAndMaybeResources.
func (d *DiscoveryClient) GroupsAndMaybeResources() (*api.APIGroupList, map[string]*api.APIResourceList, map[string]error, error) {
	return d.GroupsAndMaybeResourcesWithContext(context.Background())
}

// GroupsAndMaybeResourcesWithContext mirrors DiscoveryClient.GroupsAndMaybeResourcesWithContext:
// the groups of /api (first) and /apis and, when both answered in the aggregated format, the
// resources of every group-version, keyed by group-version ("v1", "apps/v1"). The third
// result holds the group-versions an aggregated answer marked stale.
func (d *DiscoveryClient) GroupsAndMaybeResourcesWithContext(ctx context.Context) (*api.APIGroupList, map[string]*api.APIResourceList, map[string]error, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	groups, resources, failed, err := d.download(ctx, d.LegacyPrefix, true)
	if err != nil {
		return nil, nil, nil, err
	}
	apiGroups, apiResources, apiFailed, err := d.download(ctx, "/apis", false)
	if err != nil {
		return nil, nil, nil, err
	}
	groups.Groups = append(groups.Groups, apiGroups.Groups...)
	// Resources count only when both documents carried them.
	if resources != nil && apiResources != nil {
		for gv, rl := range apiResources {
			resources[gv] = rl
		}
	} else {
		resources = nil
	}
	for gv, e := range apiFailed {
		failed[gv] = e
	}
	return groups, resources, failed, nil
}

// download mirrors downloadLegacy (legacy true: /api, where a 404 is tolerated and the answer
// is an APIVersions) and downloadAPIs (/apis): the response's Content-Type says which format
// the server chose.
func (d *DiscoveryClient) download(ctx context.Context, path string, legacy bool) (*api.APIGroupList, map[string]*api.APIResourceList, map[string]error, error) {
	accept := acceptDiscoveryFormats
	if d.UseLegacyDiscovery {
		accept = AcceptV1
	}
	var contentType string
	body, err := d.restClient.Get().AbsPath(path).SetHeader("Accept", accept).Do(ctx).ContentType(&contentType).Raw()
	failed := map[string]error{}
	if err != nil {
		if legacy && api.IsNotFound(err) {
			return &api.APIGroupList{}, map[string]*api.APIResourceList{}, failed, nil
		}
		return nil, nil, nil, err
	}
	if aggregated, _ := ContentTypeIsGVK(contentType, "apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList"); aggregated {
		var list api.APIGroupDiscoveryList
		if err := json.Unmarshal(body, &list); err != nil {
			return nil, nil, nil, fmt.Errorf("unable to parse the aggregated discovery of %s: %w", path, err)
		}
		groups, resources, failed := SplitGroupsAndResources(list)
		return groups, resources, failed, nil
	}
	if !legacy {
		groups := &api.APIGroupList{}
		if err := json.Unmarshal(body, groups); err != nil {
			return nil, nil, nil, fmt.Errorf("unable to parse the groups of %s: %w", path, err)
		}
		return groups, nil, failed, nil
	}
	var v api.APIVersions
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, nil, nil, fmt.Errorf("unable to parse the versions of %s: %w", path, err)
	}
	groups := &api.APIGroupList{Groups: []api.APIGroup{{}}}
	if len(v.Versions) > 0 {
		groups.Groups[0] = apiVersionsToAPIGroup(&v)
	}
	return groups, nil, failed, nil
}

// apiVersionsToAPIGroup mirrors apiVersionsToAPIGroup: /api lists bare versions of the core
// group; the first is the preferred one.
func apiVersionsToAPIGroup(v *api.APIVersions) api.APIGroup {
	g := api.APIGroup{}
	for _, ver := range v.Versions {
		g.Versions = append(g.Versions, api.GroupVersionForDiscovery{GroupVersion: ver, Version: ver})
	}
	g.PreferredVersion = g.Versions[0]
	return g
}

// ContentTypeIsGVK mirrors discovery.ContentTypeIsGVK: whether contentType is application/json
// carrying the parameters g, v and as of the given kind, in any order (K5).
func ContentTypeIsGVK(contentType, group, version, kind string) (bool, error) {
	base, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false, err
	}
	return base == "application/json" && params["g"] == group && params["v"] == version && params["as"] == kind, nil
}

// ErrGroupDiscoveryFailed mirrors discovery.ErrGroupDiscoveryFailed: some group-versions
// could not be read; the rest of the answer is still good.
type ErrGroupDiscoveryFailed struct {
	// Groups maps each failed group-version ("apps/v1") to its error.
	Groups map[string]error
}

// Error mirrors ErrGroupDiscoveryFailed.Error.
func (e *ErrGroupDiscoveryFailed) Error() string {
	var parts []string
	for gv, err := range e.Groups {
		parts = append(parts, fmt.Sprintf("%s: %v", gv, err))
	}
	sort.Strings(parts)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
}

// IsGroupDiscoveryFailedError mirrors discovery.IsGroupDiscoveryFailedError.
func IsGroupDiscoveryFailedError(err error) bool {
	var e *ErrGroupDiscoveryFailed
	return errors.As(err, &e)
}
