package apiserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// kubectlDiscoveryAccept is what kubectl 1.32 sends to /api and /apis (K3).
const kubectlDiscoveryAccept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"

// TestCh01_K2_Version checks K1 and K2: /version reports minor 32 by default, which pins the
// kubectl dispatcher to kubectl 1.32, and any configured version otherwise.
func TestCh01_K2_Version(t *testing.T) {
	for _, tc := range []struct{ version, major, minor string }{
		{"", "1", "32"},
		{"v1.30.2", "1", "30"},
		{"v1.33.0-rc.1", "1", "33"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			_, c := newServer(t, Options{Version: tc.version})
			r := c.get("/version?timeout=5s")
			require.Equal(t, 200, r.code)
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			var v api.VersionInfo
			r.decode(t, &v)
			assert.Equal(t, []string{tc.major, tc.minor}, []string{v.Major, v.Minor}, tc.version)
			assert.True(t, strings.HasPrefix(v.GitVersion, "v1."+tc.minor+"."))
			assert.NotEmpty(t, v.Platform)
		})
	}
}

// TestCh01_OptionsValidate checks that bad options are clear errors, not panics.
func TestCh01_OptionsValidate(t *testing.T) {
	assert.NoError(t, Options{}.Validate())
	assert.NoError(t, Options{Version: "v1.29.3+k3s1", BearerToken: "abc"}.Validate())
	assert.NoError(t, Options{NamespaceDeletion: NamespaceDeletionInServer}.Validate())
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"version", Options{Version: "1.32"}, `version "1.32" is not of the form v1.32.0`},
		{"token", Options{BearerToken: "a b"}, "must not contain white space"},
		{"resource", Options{Resources: []ResourceInfo{{Resource: "Bad", Version: "v1", Kind: "B"}}}, "must be lower case"},
		{"negative", Options{HistorySize: -1}, "must not be negative"},
		{"namespace deletion", Options{NamespaceDeletion: "later"}, `unknown namespace deletion "later"`},
	} {
		err := tc.opts.Validate()
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
	// newVersionInfo reports a version it cannot parse as given (New refuses one with Validate).
	assert.Equal(t, "", newVersionInfo("banana").Minor)
}

// TestCh01_K4_LegacyDiscovery checks K4: /api, /apis (200 even with no groups),
// /api/v1 and /apis/{g}/{v} resource lists with verbs, kinds, scope, short names,
// categories and the status subresources; /apis/{g} is the APIGroup.
func TestCh01_K4_LegacyDiscovery(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.get("/api?timeout=32s")
	require.Equal(t, 200, r.code)
	var versions api.APIVersions
	r.decode(t, &versions)
	assert.Equal(t, "APIVersions", versions.Kind)
	assert.Equal(t, []string{"v1"}, versions.Versions)
	require.Len(t, versions.ServerAddressByClientCIDRs, 1)
	assert.Equal(t, strings.TrimPrefix(c.base, "http://"), versions.ServerAddressByClientCIDRs[0].ServerAddress)

	r = c.get("/apis")
	require.Equal(t, 200, r.code)
	var groupList api.APIGroupList
	r.decode(t, &groupList)
	var names []string
	for _, g := range groupList.Groups {
		names = append(names, g.Name)
	}
	// The built-in groups in the real server's order (priority), as its /apis lists them.
	var refOrder []string
	for _, g := range readReference(t, "apis.json")["items"].([]any) {
		if n := g.(map[string]any)["metadata"].(map[string]any)["name"].(string); slices.Contains(names, n) {
			refOrder = append(refOrder, n)
		}
	}
	assert.Equal(t, refOrder, names)
	assert.Contains(t, names, "apps")

	r = c.get("/api/v1")
	require.Equal(t, 200, r.code)
	var list api.APIResourceList
	r.decode(t, &list)
	// Every entry is pinned against the real server by TestCh01_LegacyDiscoveryMatchesReference.
	assert.Equal(t, "APIResourceList", list.Kind)
	assert.Equal(t, "v1", list.GroupVersion)
	assert.Contains(t, list.APIResources, api.APIResource{Name: "namespaces/finalize", Kind: "Namespace", Verbs: []string{"update"}})
	assert.Contains(t, list.APIResources, api.APIResource{Name: "pods/status", Namespaced: true, Kind: "Pod", Verbs: statusVerbs})
	assert.NotContains(t, string(r.body), `"apiVersion"`, "the core list has no apiVersion")
	assert.Equal(t, 200, c.get("/api/v1/").code)

}

// TestCh01_K4_LegacyDiscoveryGroups checks K4 for the apps group and a registered one: they
// show up in /apis, /apis/{g} and /apis/{g}/{v}; unknown groups and versions are 404.
func TestCh01_K4_LegacyDiscoveryGroups(t *testing.T) {
	_, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	r := c.get("/apis")
	assert.Contains(t, string(r.body), `{"name":"samplecontroller.k8s.io","versions":[{"groupVersion":"samplecontroller.k8s.io/v1alpha1","version":"v1alpha1"}],"preferredVersion":{"groupVersion":"samplecontroller.k8s.io/v1alpha1","version":"v1alpha1"}}`)
	r = c.get("/apis/apps")
	assert.JSONEq(t, `{"kind":"APIGroup","apiVersion":"v1","name":"apps",
		"versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}`, string(r.body))
	all := `["create","delete","deletecollection","get","list","patch","update","watch"]`
	sub := func(name, kind string) string {
		return `{"name":"` + name + `","singularName":"","namespaced":true,"kind":"` + kind + `","verbs":["get","patch","update"]}`
	}
	r = c.get("/apis/samplecontroller.k8s.io/v1alpha1")
	assert.JSONEq(t, `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"samplecontroller.k8s.io/v1alpha1","resources":[
		{"name":"foos","singularName":"foo","namespaced":true,"kind":"Foo","verbs":`+all+`,"shortNames":["fo"],"storageVersionHash":"H8mNWb07qhE="},
		`+sub("foos/status", "Foo")+`]}`, string(r.body))

	// Unknown groups and versions are Go's plain 404 (U9).
	for _, p := range []string{"/apis/example.com", "/apis/example.com/v1", "/apis/apps/v2", "/api/v2", "/apis/apps/v1/x/y/z/w"} {
		r := c.get(p)
		assert.Equal(t, 404, r.code, p)
	}
	// Discovery is read-only.
	assert.Equal(t, http.StatusMethodNotAllowed, c.do("POST", "/apis", "{}").code)
}

// TestCh01_K5_AggregatedDiscovery checks K5: kubectl's Accept gets an APIGroupDiscoveryList
// with the matching Content-Type, v2 or v2beta1 as asked; plain JSON still gets the legacy
// documents (the fallback).
func TestCh01_K5_AggregatedDiscovery(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("GET", "/api?timeout=32s", nil, "Accept", kubectlDiscoveryAccept)
	require.Equal(t, 200, r.code)
	assert.Equal(t, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", r.header.Get("Content-Type"))
	var core api.APIGroupDiscoveryList
	r.decode(t, &core)
	assert.Equal(t, "apidiscovery.k8s.io/v2", core.APIVersion)
	require.Len(t, core.Items, 1)
	assert.Empty(t, core.Items[0].Metadata.Name, "the core group has no name")
	require.Len(t, core.Items[0].Versions, 1)
	v1 := core.Items[0].Versions[0]
	assert.Equal(t, "Current", v1.Freshness)
	// Every resource is pinned against the real server by TestCh01_DiscoveryMatchesReference;
	// here, the shape. A built-in's own group-version is left empty in responseKind.
	byName := map[string]api.APIResourceDiscovery{}
	for _, r := range v1.Resources {
		byName[r.Resource] = r
	}
	pods := byName["pods"]
	assert.Equal(t, &api.GroupVersionKind{Kind: "Pod"}, pods.ResponseKind)
	assert.Equal(t, "Namespaced", pods.Scope)
	assert.Contains(t, pods.Subresources, api.APISubresourceDiscovery{Subresource: "status", ResponseKind: &api.GroupVersionKind{Kind: "Pod"}, Verbs: statusVerbs})
	assert.Contains(t, pods.Subresources, api.APISubresourceDiscovery{Subresource: "eviction",
		ResponseKind: &api.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"}, Verbs: []string{"create"}})
	assert.Equal(t, "Cluster", byName["namespaces"].Scope)
	assert.Empty(t, byName["configmaps"].Subresources, "configmaps have no status")

	r = c.do("GET", "/apis", nil, "Accept", kubectlDiscoveryAccept)
	var groups api.APIGroupDiscoveryList
	r.decode(t, &groups)
	require.NotEmpty(t, groups.Items)
	var apps api.APIGroupDiscovery
	for _, g := range groups.Items {
		if g.Metadata.Name == "apps" {
			apps = g
		}
	}
	var deploy api.APIResourceDiscovery
	for _, r := range apps.Versions[0].Resources {
		if r.Resource == "deployments" {
			deploy = r
		}
	}
	assert.Equal(t, []api.APISubresourceDiscovery{
		{Subresource: "scale", ResponseKind: &api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, Verbs: statusVerbs},
		{Subresource: "status", ResponseKind: &api.GroupVersionKind{Kind: "Deployment"}, Verbs: statusVerbs},
	}, deploy.Subresources)

	r = c.do("GET", "/apis", nil, "Accept", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")
	assert.Equal(t, "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", r.header.Get("Content-Type"))
	assert.Contains(t, string(r.body), `"apiVersion":"apidiscovery.k8s.io/v2beta1"`)

}

// TestCh01_N3_Negotiation checks N2–N4 and CG1 for responses: a built-in kind answers
// protobuf when the Accept header prefers it; a custom resource, a Table and discovery skip
// a protobuf clause (406 when it is alone); YAML alone is 406; wildcards and quality values
// are honoured.
func TestCh01_N3_Negotiation(t *testing.T) {
	s, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	const pb, pbWatch = "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf;stream=watch"
	builtinOnly := "only the following media types are accepted: application/json, application/vnd.kubernetes.protobuf"
	jsonOnly := "only the following media types are accepted: application/json"
	foos := "/apis/samplecontroller.k8s.io/v1alpha1/foos"
	for _, tc := range []struct {
		path, accept string
		code         int
		contentType  string
		message      string
	}{
		{"/api/v1/pods", "application/vnd.kubernetes.protobuf,application/json", 200, pb, ""},
		{"/api/v1/pods", "application/vnd.kubernetes.protobuf", 200, pb, ""},
		{"/api/v1/pods", "application/json,application/vnd.kubernetes.protobuf", 200, "application/json", ""},
		{"/api/v1/pods", "application/vnd.kubernetes.protobuf;q=0.5,application/json", 200, "application/json", ""},
		{"/api/v1/pods", "application/yaml", 406, "application/json", builtinOnly},
		{"/api/v1/pods", "*/*", 200, "application/json", ""},
		{"/api/v1/pods", "application/*", 200, "application/json", ""},
		{"/api/v1/pods", "", 200, "application/json", ""},
		{"/api/v1/pods", "application/json;q=0.5, application/json;as=Table;g=meta.k8s.io;v=v1", 200, "application/json", ""},
		{"/api/v1/pods", "application/json;as=Table;g=meta.k8s.io;v=v1;q=0.1, application/json", 200, "application/json", ""},
		{"/api/v1/pods", "application/json;as=Table;g=example.com;v=v1", 406, "application/json", builtinOnly},
		{"/api/v1/pods", "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1", 406, "application/json", builtinOnly},
		{"/api/v1/namespaces/default/pods/a", "application/vnd.kubernetes.protobuf", 200, pb, ""},
		{"/api/v1/pods?watch=1&timeoutSeconds=1", "application/vnd.kubernetes.protobuf", 200, pbWatch, ""},
		{foos, "application/vnd.kubernetes.protobuf", 406, "application/json", jsonOnly},
		{foos, "application/vnd.kubernetes.protobuf,application/json", 200, "application/json", ""},
		{"/version", "application/vnd.kubernetes.protobuf", 406, "application/json", jsonOnly},
		{"/api", "application/vnd.kubernetes.protobuf", 406, "application/json", jsonOnly},
		{"/api/v1", "application/json, */*", 200, "application/json", ""},
	} {
		var r response
		if tc.accept == "" {
			r = c.get(tc.path)
		} else {
			r = c.do("GET", tc.path, nil, "Accept", tc.accept)
		}
		require.Equal(t, tc.code, r.code, "%s %q: %s", tc.path, tc.accept, r.body)
		assert.Equal(t, tc.contentType, r.header.Get("Content-Type"), "%s %q", tc.path, tc.accept)
		if tc.code == 406 {
			st := r.status(t)
			assert.Equal(t, api.StatusReasonNotAcceptable, st.Reason)
			assert.Equal(t, tc.message, st.Message)
		}
	}
	// A write with protobuf first answers protobuf.
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"x"}}`,
		"Accept", "application/vnd.kubernetes.protobuf,application/json", "Content-Type", "application/json")
	require.Equal(t, 201, r.code)
	assert.Equal(t, pb, r.header.Get("Content-Type"))
}

// TestCh01_Health checks /healthz, /livez and /readyz, their per-check paths and ?verbose.
func TestCh01_Health(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, p := range []string{"/healthz", "/livez", "/readyz", "/readyz/", "/livez/ping", "/healthz/etcd"} {
		r := c.get(p)
		require.Equal(t, 200, r.code, p)
		assert.Equal(t, "ok", string(r.body), p)
		assert.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))
	}
	r := c.get("/readyz?verbose")
	assert.Equal(t, "[+]ping ok\n[+]log ok\n[+]etcd ok\nreadyz check passed\n", string(r.body))
	assert.Equal(t, 404, c.get("/readyz/bogus").code)
	assert.Equal(t, 405, c.do("POST", "/healthz", "").code)
}

// TestCh01_K11_OpenAPIv3 checks K11: the /openapi/v3 index names one document per
// group-version with a hash; each document has, per kind, a PATCH operation tagged with the
// kind that lists fieldValidation, which is what kubectl create's strict validation looks for.
func TestCh01_K11_OpenAPIv3(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.get("/openapi/v3?timeout=32s")
	require.Equal(t, 200, r.code)
	var index struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	r.decode(t, &index)
	require.Len(t, index.Paths, servedGroupVersions(s), "one document per served group-version")
	for gvPath, wantKinds := range map[string][]string{
		// Every resource: its PATCH, or for bindings its POST and for componentstatuses its list.
		"api/v1": {"Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "Node", "PersistentVolumeClaim",
			"PersistentVolume", "Pod", "PodTemplate", "ReplicationController", "ResourceQuota", "Secret", "ServiceAccount", "Service"},
		"apis/apps/v1":  {"ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"},
		"apis/batch/v1": {"CronJob", "Job"},
	} {
		entry, ok := index.Paths[gvPath]
		require.True(t, ok, gvPath)
		require.True(t, strings.HasPrefix(entry.ServerRelativeURL, "/openapi/v3/"+gvPath+"?hash="), entry.ServerRelativeURL)
		r := c.get(entry.ServerRelativeURL + "&timeout=32s")
		require.Equal(t, 200, r.code)
		assert.Equal(t, "public, immutable", r.header.Get("Cache-Control"))
		var doc struct {
			OpenAPI string                                `json:"openapi"`
			Paths   map[string]map[string]json.RawMessage `json:"paths"`
		}
		r.decode(t, &doc)
		assert.Equal(t, "3.0.0", doc.OpenAPI)
		var kinds []string
		for path, item := range doc.Paths {
			var op struct {
				GVK        api.GroupVersionKind `json:"x-kubernetes-group-version-kind"`
				Parameters []struct {
					Name string `json:"name"`
					In   string `json:"in"`
				} `json:"parameters"`
			}
			raw, patchable := item["patch"]
			if !patchable {
				// A create-only resource has its POST, a read-only one its list.
				if raw = item["post"]; raw == nil {
					raw = item["get"]
				}
			}
			require.NotNil(t, raw, path)
			require.NoError(t, json.Unmarshal(raw, &op))
			kinds = append(kinds, op.GVK.Kind)
			var hasFieldValidation bool
			for _, p := range op.Parameters {
				hasFieldValidation = hasFieldValidation || (p.Name == "fieldValidation" && p.In == "query")
			}
			assert.Equal(t, patchable, hasFieldValidation, path)
		}
		assert.ElementsMatch(t, wantKinds, kinds, gvPath)
	}
	assert.Contains(t, index.Paths["api/v1"].ServerRelativeURL, "hash=")
	// Without the current hash the document is not cacheable for long.
	r = c.get("/openapi/v3/api/v1")
	assert.Equal(t, "no-cache, private", r.header.Get("Cache-Control"))
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	r.decode(t, &doc)
	assert.Contains(t, doc.Paths, "/api/v1/namespaces/{namespace}/pods/{name}")
	assert.Contains(t, doc.Paths, "/api/v1/namespaces/{name}")
	// Unknown documents are 404.
	assert.Equal(t, 404, c.get("/openapi/v3/apis/example.com/v1").code)
}

// TestCh01_DiscoveryFollowsRegister checks that discovery and OpenAPI reflect a kind
// registered after start-up (what creating a CRD does), with a new document hash.
func TestCh01_DiscoveryFollowsRegister(t *testing.T) {
	s, c := newServer(t, Options{})
	before := c.get("/openapi/v3").body
	var builtin api.APIGroupList
	c.get("/apis").decode(t, &builtin)
	require.NoError(t, s.Register(ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget", Namespaced: true}))
	var groups api.APIGroupList
	c.get("/apis").decode(t, &groups)
	require.Len(t, groups.Groups, len(builtin.Groups)+1)
	assert.Equal(t, "example.dev", groups.Groups[len(builtin.Groups)].Name, "after the built-in groups")
	after := c.get("/openapi/v3").body
	assert.NotEqual(t, string(before), string(after))
	var idx map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(after, &idx))
	assert.Contains(t, idx["paths"], "apis/example.dev/v1")
}

// servedGroupVersions counts the group-versions the server serves.
func servedGroupVersions(s *Server) int {
	gvs := map[string]bool{}
	for _, ri := range s.Resources() {
		gvs[ri.Group+"/"+ri.Version] = true
	}
	return len(gvs)
}
