package restmapper_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/restmapper"
	"github.com/informer-lab/informer-lab/rest"
)

func gvr(g, v, r string) api.GroupVersionResource {
	return api.GroupVersionResource{Group: g, Version: v, Resource: r}
}

// serverMapper builds the mapper from the simulator's discovery, with a kind registered at
// run time.
func serverMapper(t *testing.T) *restmapper.DiscoveryRESTMapper {
	t.Helper()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	require.NoError(t, srv.Register(apiserver.ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets",
		Kind: "Widget", ShortNames: []string{"wd"}}))
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	m, err := restmapper.NewDiscoveryRESTMapperForClient(context.Background(), dc)
	require.NoError(t, err)
	return m
}

// TestCh00_RESTMapperNames: what `kubectl get <arg>` resolves, from the server's discovery.
func TestCh00_RESTMapperNames(t *testing.T) {
	m := serverMapper(t)
	tests := []struct {
		arg   string
		want  api.GroupVersionResource
		kind  string
		scope restmapper.RESTScopeName
	}{
		{"po", gvr("", "v1", "pods"), "Pod", restmapper.RESTScopeNameNamespace},
		{"pods", gvr("", "v1", "pods"), "Pod", restmapper.RESTScopeNameNamespace},
		{"pod", gvr("", "v1", "pods"), "Pod", restmapper.RESTScopeNameNamespace},
		{"Pod", gvr("", "v1", "pods"), "Pod", restmapper.RESTScopeNameNamespace},
		{"cm", gvr("", "v1", "configmaps"), "ConfigMap", restmapper.RESTScopeNameNamespace},
		{"ConfigMap", gvr("", "v1", "configmaps"), "ConfigMap", restmapper.RESTScopeNameNamespace},
		{"ns", gvr("", "v1", "namespaces"), "Namespace", restmapper.RESTScopeNameRoot},
		{"deploy", gvr("apps", "v1", "deployments"), "Deployment", restmapper.RESTScopeNameNamespace},
		{"deployments.apps", gvr("apps", "v1", "deployments"), "Deployment", restmapper.RESTScopeNameNamespace},
		{"deployments.v1.apps", gvr("apps", "v1", "deployments"), "Deployment", restmapper.RESTScopeNameNamespace},
		{"Deployment.apps", gvr("apps", "v1", "deployments"), "Deployment", restmapper.RESTScopeNameNamespace},
		{"wd", gvr("example.dev", "v1", "widgets"), "Widget", restmapper.RESTScopeNameRoot},
		{"widget", gvr("example.dev", "v1", "widgets"), "Widget", restmapper.RESTScopeNameRoot},
		{"widgets.example.dev", gvr("example.dev", "v1", "widgets"), "Widget", restmapper.RESTScopeNameRoot},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			mapping, err := m.MappingFor(tt.arg)
			require.NoError(t, err)
			assert.Equal(t, tt.want, mapping.Resource)
			assert.Equal(t, api.GroupVersionKind{Group: tt.want.Group, Version: tt.want.Version, Kind: tt.kind}, mapping.GroupVersionKind)
			assert.Equal(t, tt.scope, mapping.Scope)
		})
	}
	for _, bad := range []string{"nope", "pods/status", "po.nothing.dev", "", "Deployment.v2.apps"} {
		_, err := m.MappingFor(bad)
		assert.Error(t, err, bad)
	}
	_, err := m.ResourceFor(api.GroupVersionResource{Resource: "nope"})
	assert.True(t, restmapper.IsNoMatchError(err), "%v", err)
	assert.Equal(t, "no matches for /, Resource=nope", err.Error())
}

// TestCh00_RESTMapperInterface: the RESTMapper methods on their own.
func TestCh00_RESTMapperInterface(t *testing.T) {
	m := serverMapper(t)
	got, err := m.ResourceFor(api.GroupVersionResource{Resource: "po"})
	require.NoError(t, err)
	assert.Equal(t, gvr("", "v1", "pods"), got)
	gvk, err := m.KindFor(api.GroupVersionResource{Group: "apps", Resource: "deploy"})
	require.NoError(t, err)
	assert.Equal(t, api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, gvk)
	mapping, err := m.RESTMapping(api.GroupKind{Group: "apps", Kind: "Deployment"})
	require.NoError(t, err)
	assert.Equal(t, gvr("apps", "v1", "deployments"), mapping.Resource)
	_, err = m.RESTMapping(api.GroupKind{Group: "apps", Kind: "Deployment"}, "v2")
	assert.True(t, restmapper.IsNoMatchError(err), "%v", err)
	assert.Equal(t, `no matches for kind "Deployment" in version "apps/v2"`, err.Error())
	singular, err := m.ResourceSingularizer("configmaps")
	require.NoError(t, err)
	assert.Equal(t, "configmap", singular)
}

// TestCh00_RESTMapperPriority: the core group beats other groups, the preferred version beats
// the others, a full name beats a short name, and a version can be asked for.
func TestCh00_RESTMapperPriority(t *testing.T) {
	res := func(name, kind string, short ...string) api.APIResource {
		return api.APIResource{Name: name, Kind: kind, Namespaced: true, ShortNames: short}
	}
	groups := []*restmapper.APIGroupResources{
		{ // listed first, but the core group still wins
			Group: api.APIGroup{Name: "events.k8s.io",
				Versions:         []api.GroupVersionForDiscovery{{GroupVersion: "events.k8s.io/v1", Version: "v1"}},
				PreferredVersion: api.GroupVersionForDiscovery{GroupVersion: "events.k8s.io/v1", Version: "v1"}},
			VersionedResources: map[string][]api.APIResource{"v1": {res("events", "Event", "ev")}},
		},
		{
			Group: api.APIGroup{Name: "",
				Versions:         []api.GroupVersionForDiscovery{{GroupVersion: "v1", Version: "v1"}},
				PreferredVersion: api.GroupVersionForDiscovery{GroupVersion: "v1", Version: "v1"}},
			VersionedResources: map[string][]api.APIResource{"v1": {res("events", "Event", "ev"), res("pods", "Pod", "cronjobs")}},
		},
		{
			Group: api.APIGroup{Name: "batch",
				Versions: []api.GroupVersionForDiscovery{
					{GroupVersion: "batch/v1beta1", Version: "v1beta1"}, {GroupVersion: "batch/v1", Version: "v1"}},
				PreferredVersion: api.GroupVersionForDiscovery{GroupVersion: "batch/v1", Version: "v1"}},
			VersionedResources: map[string][]api.APIResource{
				"v1beta1": {res("cronjobs", "CronJob", "cj")},
				"v1":      {res("cronjobs", "CronJob", "cj")},
			},
		},
	}
	m := restmapper.NewDiscoveryRESTMapper(groups)
	tests := []struct {
		in   api.GroupVersionResource
		want api.GroupVersionResource
	}{
		{gvr("", "", "events"), gvr("", "v1", "events")},
		{gvr("events.k8s.io", "", "events"), gvr("events.k8s.io", "v1", "events")},
		{gvr("", "", "ev"), gvr("", "v1", "events")},
		{gvr("", "", "cj"), gvr("batch", "v1", "cronjobs")},
		{gvr("", "v1beta1", "cronjobs"), gvr("batch", "v1beta1", "cronjobs")},
		{gvr("", "", "cronjobs"), gvr("batch", "v1", "cronjobs")}, // the full name, not pods' odd short name
	}
	for _, tt := range tests {
		got, err := m.ResourceFor(tt.in)
		require.NoError(t, err, "%+v", tt.in)
		assert.Equal(t, tt.want, got, "%+v", tt.in)
	}
	mapping, err := m.RESTMapping(api.GroupKind{Group: "batch", Kind: "CronJob"}, "v1beta1", "v1")
	require.NoError(t, err)
	assert.Equal(t, "v1beta1", mapping.Resource.Version, "the first version asked for that serves it")
}
