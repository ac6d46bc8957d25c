package discovery_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/rest"
)

var widgets = apiserver.ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget",
	Namespaced: true, ShortNames: []string{"wd"}}

// counter records the path and Accept header of every request.
type counter struct {
	mu      sync.Mutex
	next    http.RoundTripper
	seen    []string
	accepts map[string]string // path → Accept
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.seen = append(c.seen, r.URL.Path)
	if c.accepts == nil {
		c.accepts = map[string]string{}
	}
	c.accepts[r.URL.Path] = r.Header.Get("Accept")
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

func (c *counter) paths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.seen...)
}

// startServer serves deployments from the start and widgets registered after it started.
func startServer(t *testing.T) (*apiserver.Server, *counter, *discovery.DiscoveryClient) {
	t.Helper()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	require.NoError(t, srv.Register(widgets))
	cnt := &counter{next: http.DefaultTransport.(*http.Transport).Clone()}
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL(), Transport: cnt})
	require.NoError(t, err)
	return srv, cnt, dc
}

// TestCh00_DiscoveryServerVersion_K2: GET /version.
func TestCh00_DiscoveryServerVersion_K2(t *testing.T) {
	_, cnt, dc := startServer(t)
	v, err := dc.ServerVersion()
	require.NoError(t, err)
	assert.Equal(t, "1", v.Major)
	assert.Equal(t, "32", v.Minor, "K1: minor 32 pins the kubectl dispatcher to 1.32")
	assert.Equal(t, "v1.32.0", v.String())
	assert.Equal(t, []string{"/version"}, cnt.paths())
}

// TestCh00_DiscoveryGroupsAndResources_K3_K4_K5_CG2 checks K3–K5 and CG2 both ways: aggregated discovery answers
// everything in two requests, legacy discovery needs one more per group-version, and both
// describe the same resources, the core group first.
func TestCh00_DiscoveryGroupsAndResources_K3_K4_K5_CG2(t *testing.T) {
	tests := []struct {
		legacy     bool
		wantPaths  []string
		wantAccept string
	}{
		{false, []string{"/api", "/apis"}, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"},
		{true, nil, "application/json"}, // /api, /apis, then one request per group-version
	}
	seen := map[bool]map[string]string{}
	for _, tt := range tests {
		name := "aggregated"
		if tt.legacy {
			name = "legacy"
		}
		t.Run(name, func(t *testing.T) {
			_, cnt, dc := startServer(t)
			dc.UseLegacyDiscovery = tt.legacy
			groups, lists, err := dc.ServerGroupsAndResources()
			require.NoError(t, err)
			var names, gvPaths []string
			for _, g := range groups {
				names = append(names, g.Name+"="+g.PreferredVersion.GroupVersion)
				for _, v := range g.Versions {
					if g.Name == "" {
						gvPaths = append(gvPaths, "/api/"+v.GroupVersion)
					} else {
						gvPaths = append(gvPaths, "/apis/"+v.GroupVersion)
					}
				}
			}
			if tt.legacy {
				tt.wantPaths = append([]string{"/api", "/apis"}, gvPaths...)
			}
			assert.Equal(t, tt.wantPaths, cnt.paths())
			assert.Equal(t, tt.wantAccept, cnt.accepts["/api"], "CG2")
			assert.Equal(t, tt.wantAccept, cnt.accepts["/apis"], "CG2")

			// The core group first, then the built-in groups in the real server's order
			// (apiregistration.k8s.io, apps, …); a custom resource's group, priority 1000, comes last.
			require.GreaterOrEqual(t, len(names), 4)
			assert.Equal(t, []string{"=v1", "apiregistration.k8s.io=apiregistration.k8s.io/v1", "apps=apps/v1"}, names[:3])
			assert.Equal(t, "example.dev=example.dev/v1", names[len(names)-1])

			got := map[string]string{} // "gv resource" → "Kind singular scope shortNames"
			for _, l := range lists {
				parent := ""
				for _, r := range l.APIResources {
					singular := r.SingularName
					if !strings.Contains(r.Name, "/") {
						parent = singular
					} else if singular == "" {
						// Legacy discovery sends subresources without a singular name; the
						// aggregated conversion copies the parent's, as client-go's does.
						singular = parent
					}
					scope := "cluster"
					if r.Namespaced {
						scope = "ns"
					}
					got[l.GroupVersion+" "+r.Name] = strings.Join([]string{r.Kind, singular, scope, strings.Join(r.ShortNames, ",")}, " ")
				}
			}
			want := map[string]string{
				"v1 pods":                       "Pod pod ns po",
				"v1 pods/status":                "Pod pod ns ",
				"v1 configmaps":                 "ConfigMap configmap ns cm",
				"v1 namespaces":                 "Namespace namespace cluster ns",
				"v1 namespaces/status":          "Namespace namespace cluster ",
				"apps/v1 deployments":           "Deployment deployment ns deploy",
				"apps/v1 deployments/status":    "Deployment deployment ns ",
				"example.dev/v1 widgets":        "Widget widget ns wd",
				"example.dev/v1 widgets/status": "Widget widget ns ",
			}
			for k, v := range want {
				assert.Equal(t, v, got[k], k)
			}
			seen[tt.legacy] = got
		})
	}
	// Both ways describe the same resources and subresources.
	if diff := cmp.Diff(seen[false], seen[true]); diff != "" {
		t.Errorf("aggregated vs legacy (-aggregated +legacy):\n%s", diff)
	}
}

// TestCh00_DiscoveryServerResourcesForGroupVersion: one group-version at a time; an unknown
// one is a NotFound API error.
func TestCh00_DiscoveryServerResourcesForGroupVersion(t *testing.T) {
	_, cnt, dc := startServer(t)
	core, err := dc.ServerResourcesForGroupVersion("v1")
	require.NoError(t, err)
	assert.Equal(t, "v1", core.GroupVersion)
	require.NotEmpty(t, core.APIResources)
	byName := map[string]api.APIResource{}
	for _, r := range core.APIResources {
		byName[r.Name] = r
	}
	require.Contains(t, byName, "configmaps")
	assert.Equal(t, []string{"cm"}, byName["configmaps"].ShortNames)

	apps, err := dc.ServerResourcesForGroupVersion("apps/v1")
	require.NoError(t, err)
	var appsNames []string
	for _, r := range apps.APIResources {
		appsNames = append(appsNames, r.Name)
	}
	assert.Contains(t, appsNames, "daemonsets")

	_, err = dc.ServerResourcesForGroupVersion("nothing.dev/v1")
	assert.True(t, api.IsNotFound(err), "%v", err)
	_, err = dc.ServerResourcesForGroupVersion("")
	assert.Error(t, err)
	assert.Equal(t, []string{"/api/v1", "/apis/apps/v1", "/apis/nothing.dev/v1"}, cnt.paths())
}

// TestCh00_DiscoveryGroups: ServerGroups alone.
func TestCh00_DiscoveryGroups(t *testing.T) {
	_, _, dc := startServer(t)
	gl, err := dc.ServerGroups()
	require.NoError(t, err)
	// The core group first, the built-in groups, and the registered example.dev last.
	require.Greater(t, len(gl.Groups), 2)
	assert.Equal(t, "", gl.Groups[0].Name)
	assert.Equal(t, "example.dev", gl.Groups[len(gl.Groups)-1].Name)
	seen := map[string]bool{}
	for _, g := range gl.Groups {
		assert.False(t, seen[g.Name], "%s listed twice", g.Name)
		seen[g.Name] = true
	}
	assert.Equal(t, []api.GroupVersionForDiscovery{{GroupVersion: "v1", Version: "v1"}}, gl.Groups[0].Versions)
}

// fakeDiscovery serves fixed discovery documents, for shapes the simulator does not produce.
func fakeDiscovery(t *testing.T, routes map[string]struct {
	status            int
	contentType, body string
}) *discovery.DiscoveryClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", route.contentType)
		w.WriteHeader(route.status)
		_, _ = w.Write([]byte(route.body))
	}))
	t.Cleanup(srv.Close)
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL})
	require.NoError(t, err)
	return dc
}

const aggregatedCT = "application/json; as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io"

// TestCh00_DiscoveryEdgeCases_K4_K5: parameters in any order (K5), a stale group-version, a 404 on
// /api (tolerated) and on /apis (an error).
func TestCh00_DiscoveryEdgeCases_K4_K5(t *testing.T) {
	type route = struct {
		status            int
		contentType, body string
	}
	t.Run("stale group-version is reported next to the rest", func(t *testing.T) {
		dc := fakeDiscovery(t, map[string]route{
			"/api":  {200, aggregatedCT, `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{},"versions":[{"version":"v1","resources":[{"resource":"pods","responseKind":{"group":"","version":"v1","kind":"Pod"},"scope":"Namespaced","singularResource":"pod","verbs":["get"]}]}]}]}`},
			"/apis": {200, aggregatedCT, `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{"name":"metrics.k8s.io"},"versions":[{"version":"v1beta1","freshness":"Stale"}]},{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[{"resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment","verbs":["get"]}]}]}]}`},
		})
		groups, lists, err := dc.ServerGroupsAndResources()
		require.Error(t, err)
		assert.True(t, discovery.IsGroupDiscoveryFailedError(err))
		assert.Contains(t, err.Error(), "metrics.k8s.io/v1beta1: stale GroupVersion discovery")
		assert.Len(t, groups, 3)
		require.Len(t, lists, 2)
		assert.Equal(t, "apps/v1", lists[1].GroupVersion)
	})
	t.Run("404 on /api: no core group", func(t *testing.T) {
		dc := fakeDiscovery(t, map[string]route{
			"/apis": {200, "application/json", `{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`},
		})
		gl, err := dc.ServerGroups()
		require.NoError(t, err)
		assert.Empty(t, gl.Groups)
	})
	t.Run("404 on /apis is an error", func(t *testing.T) {
		dc := fakeDiscovery(t, map[string]route{
			"/api": {200, "application/json", `{"kind":"APIVersions","versions":["v1"]}`},
		})
		_, err := dc.ServerGroups()
		assert.True(t, api.IsNotFound(err), "%v", err)
	})
	t.Run("a server error is a typed API error", func(t *testing.T) {
		dc := fakeDiscovery(t, map[string]route{
			"/api":  {200, "application/json", `{"kind":"APIVersions","versions":["v1"]}`},
			"/apis": {503, "application/json", `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"aggregator down","reason":"ServiceUnavailable","code":503}`},
		})
		_, err := dc.ServerGroups()
		assert.True(t, api.IsServiceUnavailable(err), "%v", err)
		assert.Equal(t, "aggregator down", err.Error())
	})
	t.Run("garbage is a clear error", func(t *testing.T) {
		dc := fakeDiscovery(t, map[string]route{
			"/api":     {200, "application/json", `{"kind":"APIVersions","versions":["v1"]}`},
			"/apis":    {200, "application/json", `<html>`},
			"/version": {200, "application/json", `[]`},
		})
		_, err := dc.ServerGroups()
		assert.ErrorContains(t, err, "unable to parse the groups of /apis")
		_, err = dc.ServerVersion()
		assert.ErrorContains(t, err, "unable to parse the server version")
	})
}

// TestCh00_ContentTypeIsGVK_K5 checks the detection rule of K5.
func TestCh00_ContentTypeIsGVK_K5(t *testing.T) {
	tests := []struct {
		ct      string
		want    bool
		wantErr bool
	}{
		{"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", true, false},
		{aggregatedCT, true, false},
		{aggregatedCT + ";charset=utf-8", true, false},
		{"application/json", false, false},
		{"application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", false, false},
		{"application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", false, false},
		{"not a media type;;", false, true},
	}
	for _, tt := range tests {
		got, err := discovery.ContentTypeIsGVK(tt.ct, "apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList")
		assert.Equal(t, tt.want, got, tt.ct)
		assert.Equal(t, tt.wantErr, err != nil, tt.ct)
	}
}

// TestCh00_DiscoveryTransportErrors: an unreachable server and a cancelled context are
// plain errors, as in client-go.
func TestCh00_DiscoveryTransportErrors(t *testing.T) {
	srv, _, dc := startServer(t)
	srv.Close()
	_, err := dc.ServerVersion()
	require.Error(t, err, "a closed server")
	_, _, err = dc.ServerGroupsAndResourcesWithContext(canceled())
	assert.ErrorIs(t, err, context.Canceled)
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
