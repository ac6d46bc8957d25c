package apiserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
)

func TestCh13_CRD_DeleteRemovesObjectsAndEndsWatches(t *testing.T) {
	s, c := newServer(t, Options{})
	createFooCRD(t, c)
	for _, n := range []string{"a", "b"} {
		r := c.do(http.MethodPost, foosPath, foo(n, map[string]any{"deploymentName": "d"}))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	}
	var list struct {
		Metadata struct{ ResourceVersion string }
	}
	c.get(foosPath).decode(t, &list)
	w := c.watch(foosPath + "?watch=1&resourceVersion=" + list.Metadata.ResourceVersion)

	r := c.do(http.MethodDelete, crdPath+"/foos.samplecontroller.k8s.io", nil)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)

	// Each object goes with a DELETED event, then the stream ends cleanly.
	var types []string
	for _, line := range w.ended() {
		var ev wireEvent
		require.NoError(t, json.Unmarshal([]byte(line), &ev))
		_, _, name, _, _ := ev.meta(t)
		types = append(types, ev.Type+" "+name)
	}
	assert.Equal(t, []string{"DELETED a", "DELETED b"}, types)

	// The resource is gone from the API, discovery and OpenAPI.
	assert.Equal(t, http.StatusNotFound, c.get(foosPath).code)
	assert.Equal(t, http.StatusNotFound, c.get("/apis/samplecontroller.k8s.io/v1alpha1").code)
	assert.Equal(t, http.StatusNotFound, c.get("/openapi/v3/apis/samplecontroller.k8s.io/v1alpha1").code)
	assert.NotContains(t, string(c.get("/apis").body), "samplecontroller")
	assert.Empty(t, s.Watchers())

	// Created again, it starts empty.
	createFooCRD(t, c)
	var foos struct{ Items []any }
	c.get(foosPath).decode(t, &foos)
	assert.Empty(t, foos.Items)
}

// TestCh13_CRD_GoAPI shows the in-process API on a custom resource: objects from Go are
// pruned, defaulted and validated as JSON from the wire is.
func TestCh13_CRD_GoAPI(t *testing.T) {
	s := NewTestServer(t, Options{})
	ctx := t.Context()
	var crd api.Unstructured
	require.NoError(t, crd.UnmarshalJSON([]byte(fooCRDJSON)))
	_, err := s.Create(ctx, "customresourcedefinitions", "", &crd)
	require.NoError(t, err)
	obj := &api.Unstructured{Object: foo("a", map[string]any{"deploymentName": "d", "bogus": true})}
	got, err := s.Create(ctx, "foos", "default", obj)
	require.NoError(t, err)
	spec, _, _ := api.NestedMap(got.(*api.Unstructured).Object, "spec")
	assert.Equal(t, map[string]any{"deploymentName": "d", "replicas": int64(1)}, spec)
	_, err = s.Create(ctx, "fo", "default", &api.Unstructured{Object: foo("b", map[string]any{"replicas": int64(3)})})
	require.Error(t, err)
	assert.Equal(t, `Foo.samplecontroller.k8s.io "b" is invalid: spec.deploymentName: Required value`, err.Error())

	// An in-process watch sees the DELETED event, then its channel closes.
	w, err := s.Watch(ctx, "foos", "default", api.ListOptions{ResourceVersion: rvOf(t, got)})
	require.NoError(t, err)
	defer w.Stop()
	_, err = s.Delete(ctx, "customresourcedefinitions", "", "foos.samplecontroller.k8s.io", nil)
	require.NoError(t, err)
	var events []string
	for ev := range w.ResultChan() {
		m, _ := api.Accessor(ev.Object)
		events = append(events, string(ev.Type)+" "+m.GetName())
	}
	assert.Equal(t, []string{"DELETED a"}, events)
	_, err = s.Get(ctx, "foos", "default", "a")
	assert.Error(t, err, "the resource is gone")
}

func TestCh13_CRD_UpdateKeepsNamesAndScope(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	var crd map[string]any
	c.get(crdPath+"/foos.samplecontroller.k8s.io").decode(t, &crd)
	at(crd, "spec")["scope"] = "Cluster"
	at(crd, "spec", "names")["kind"] = "Bar"
	r := c.do(http.MethodPut, crdPath+"/foos.samplecontroller.k8s.io", crd)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	assert.Equal(t, `CustomResourceDefinition.apiextensions.k8s.io "foos.samplecontroller.k8s.io" is invalid: `+
		`[spec.scope: Invalid value: "Cluster": field is immutable, spec.names.kind: Invalid value: "Bar": field is immutable]`, r.status(t).Message)
}

func TestCh13_CRD_ClusterScoped(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) { at(m, "spec")["scope"] = "Cluster" })
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const path = "/apis/samplecontroller.k8s.io/v1alpha1/foos"
	r = c.do(http.MethodPost, path, foo("a", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	r.decode(t, &got)
	assert.NotContains(t, at(got, "metadata"), "namespace")
	assert.Equal(t, http.StatusOK, c.get(path+"/a").code)
	assert.Equal(t, http.StatusNotFound, c.get(foosPath+"/a").code, "no namespaced path")
}

func TestCh13_CRD_NamespaceDeletionDeletesCustomObjects(t *testing.T) {
	_, c := newServer(t, Options{NamespaceDeletion: NamespaceDeletionInServer})
	createFooCRD(t, c)
	r := c.do(http.MethodPost, "/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": "team"}})
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const teamFoos = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team/foos"
	r = c.do(http.MethodPost, teamFoos, foo("a", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, "/api/v1/namespaces/team", nil).code)
	assert.Equal(t, http.StatusNotFound, c.get(teamFoos+"/a").code)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/team").code)
}

func TestCh13_CRD_MultiVersion(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) {
		v := at(m, "spec", "versions", 0)
		beta, v1 := map[string]any{}, map[string]any{}
		for k, x := range v {
			beta[k], v1[k] = x, x
		}
		beta["name"], beta["storage"] = "v1beta1", false
		v1["name"], v1["storage"], v1["served"] = "v1", false, false
		at(m, "spec")["versions"] = []any{v, beta, v1}
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)

	// Discovery lists the served versions, the preferred (kube-aware highest) first.
	var group api.APIGroup
	c.get("/apis/samplecontroller.k8s.io").decode(t, &group)
	assert.Equal(t, "samplecontroller.k8s.io/v1beta1", group.PreferredVersion.GroupVersion)
	require.Len(t, group.Versions, 2)
	assert.Equal(t, "v1alpha1", group.Versions[1].Version)
	assert.Equal(t, http.StatusNotFound, c.get("/apis/samplecontroller.k8s.io/v1/namespaces/default/foos").code, "v1 is not served")

	const betaFoos = "/apis/samplecontroller.k8s.io/v1beta1/namespaces/default/foos"
	var list struct {
		Metadata struct{ ResourceVersion string }
	}
	c.get(betaFoos).decode(t, &list)
	w := c.watch(betaFoos + "?watch=1&resourceVersion=" + list.Metadata.ResourceVersion)

	body := foo("a", map[string]any{"deploymentName": "d", "replicas": 2})
	body["apiVersion"] = "samplecontroller.k8s.io/v1beta1"
	r = c.do(http.MethodPost, betaFoos, body)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	r.decode(t, &got)
	assert.Equal(t, "samplecontroller.k8s.io/v1beta1", got["apiVersion"])
	assert.Equal(t, float64(2), at(got, "spec")["replicas"], "numbers keep their value")

	// Stored once: the same object at either version, with that version's apiVersion.
	c.get(foosPath+"/a").decode(t, &got)
	assert.Equal(t, "samplecontroller.k8s.io/v1alpha1", got["apiVersion"])
	var items struct {
		APIVersion string
		Items      []map[string]any
	}
	c.get(betaFoos).decode(t, &items)
	assert.Equal(t, "samplecontroller.k8s.io/v1beta1", items.APIVersion)
	require.Len(t, items.Items, 1)
	assert.Equal(t, "samplecontroller.k8s.io/v1beta1", items.Items[0]["apiVersion"])
	ev := w.next()
	_, apiVersion, name, _, _ := ev.meta(t)
	assert.Equal(t, "a", name)
	assert.Equal(t, "samplecontroller.k8s.io/v1beta1", apiVersion, "the watch at v1beta1")

	// An update at v1beta1 goes to the same object.
	at(got, "spec")["replicas"] = 3
	got["apiVersion"] = "samplecontroller.k8s.io/v1beta1"
	r = c.do(http.MethodPut, betaFoos+"/a", got)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	c.get(foosPath+"/a").decode(t, &got)
	assert.Equal(t, float64(3), at(got, "spec")["replicas"])

	// The OpenAPI document of v1beta1 carries the kind at that version.
	r = c.get("/openapi/v3/apis/samplecontroller.k8s.io/v1beta1")
	require.Equal(t, http.StatusOK, r.code)
	assert.Contains(t, string(r.body), `"io.k8s.samplecontroller.v1beta1.Foo"`)

	// Deleting the CRD ends the watch at v1beta1 after its DELETED event and takes both
	// versions out of discovery.
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, crdPath+"/foos.samplecontroller.k8s.io", nil).code)
	rest := w.ended()
	require.Len(t, rest, 2, "%q", rest) // the MODIFIED of the update, then the DELETED
	assert.Contains(t, rest[1], `"type":"DELETED"`)
	assert.Contains(t, rest[1], `"apiVersion":"samplecontroller.k8s.io/v1beta1"`)
	assert.Equal(t, http.StatusNotFound, c.get("/apis/samplecontroller.k8s.io").code)
}

func TestCh13_CRD_VersionOrder(t *testing.T) {
	vs := []string{"v1alpha1", "v2", "foo", "v1beta2", "v1", "v1beta1", "v10", "bar", "v2alpha1"}
	slices.SortFunc(vs, func(a, b string) int {
		if registry.VersionLess(a, b) {
			return -1
		}
		if registry.VersionLess(b, a) {
			return 1
		}
		return 0
	})
	assert.Equal(t, []string{"v10", "v2", "v1", "v1beta2", "v1beta1", "v2alpha1", "v1alpha1", "bar", "foo"}, vs)
}

// BenchmarkCRDCreateCustomObject is one custom object write through the Go API: decode,
// prune, default, validate against the CRD's schema, store.
func BenchmarkCRDCreateCustomObject(b *testing.B) {
	s := New(Options{})
	b.Cleanup(s.Close)
	var crd api.Unstructured
	require.NoError(b, crd.UnmarshalJSON([]byte(fooCRDJSON)))
	_, err := s.Create(b.Context(), "customresourcedefinitions", "", &crd)
	require.NoError(b, err)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		obj := &api.Unstructured{Object: foo("foo-"+strconv.Itoa(i), map[string]any{"deploymentName": "d", "replicas": int64(3), "tags": []any{"a"}})}
		if _, err := s.Create(b.Context(), "foos", "default", obj); err != nil {
			b.Fatal(err)
		}
	}
}
