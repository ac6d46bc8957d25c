package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

const applyType = "application/apply-patch+yaml"

// entry is one managedFields entry, its fieldsV1 as compact JSON.
type entry struct {
	Manager, Operation, Subresource, Fields string
	Timed                                   bool
}

// managedOf reads the managedFields of a JSON object.
func managedOf(t *testing.T, body []byte) []entry {
	t.Helper()
	var obj struct {
		Metadata struct {
			ManagedFields []struct {
				Manager     string          `json:"manager"`
				Operation   string          `json:"operation"`
				Subresource string          `json:"subresource"`
				Time        string          `json:"time"`
				FieldsV1    json.RawMessage `json:"fieldsV1"`
			} `json:"managedFields"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(body, &obj), "%s", body)
	var out []entry
	for _, e := range obj.Metadata.ManagedFields {
		out = append(out, entry{e.Manager, e.Operation, e.Subresource, string(e.FieldsV1), e.Time != ""})
	}
	return out
}

const deploymentWeb = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":%s,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`

// TestCh01_ApplyOwnership: the request path of server-side apply (X4) against what the real
// server answers (conformance ssa/*): a conflict names the owner and the field, force takes
// it over, a field the applier alone owned and dropped goes, a field another writer set
// stays.
func TestCh01_ApplyOwnership(t *testing.T) {
	_, c := newServer(t, Options{})
	dep := "/apis/apps/v1/namespaces/default/deployments/web"
	apply := func(manager, query, body string) response {
		return c.do(http.MethodPatch, dep+"?fieldManager="+manager+query, body, "Content-Type", applyType)
	}
	r := apply("alice", "", strings.Replace(deploymentWeb, "%s", "2", 1))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, []entry{{"alice", "Apply", "", `{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`, true}}, managedOf(t, r.body))

	r = apply("bob", "", strings.Replace(deploymentWeb, "%s", "5", 1))
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "alice": .spec.replicas`, st.Message)
	assert.Equal(t, api.StatusReasonConflict, st.Reason)

	r = apply("bob", "&force=true", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	got := managedOf(t, r.body)
	require.Len(t, got, 2)
	assert.Equal(t, "alice", got[0].Manager)
	assert.NotContains(t, got[0].Fields, "f:replicas", "force took replicas from alice")
	assert.Equal(t, entry{"bob", "Apply", "", `{"f:spec":{"f:replicas":{}}}`, true}, got[1])

	// Labels {a, b}; another writer adds c; the applier drops b: {a, c} remain.
	cm := "/api/v1/namespaces/default/configmaps/c"
	r = c.do(http.MethodPatch, cm+"?fieldManager=alice", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1","b":"2"}}}`, "Content-Type", applyType)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, cm+"?fieldManager=kubectl-label", `{"metadata":{"labels":{"c":"3"}}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, cm+"?fieldManager=alice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a: \"1\"\n", "Content-Type", applyType)
	require.Equal(t, http.StatusOK, r.code, "a YAML body: %s", r.body)
	var obj api.ConfigMap
	r.decode(t, &obj)
	assert.Equal(t, map[string]string{"a": "1", "c": "3"}, obj.Labels)
	assert.Equal(t, []entry{
		{"alice", "Apply", "", `{"f:metadata":{"f:labels":{"f:a":{}}}}`, true},
		{"kubectl-label", "Update", "", `{"f:metadata":{"f:labels":{"f:c":{}}}}`, true},
	}, managedOf(t, r.body))
}

// TestCh01_UpdateManagers: every other write records its manager: the fieldManager
// parameter, else the User-Agent up to its first "/"; scale writes under the scale
// subresource (an entry without a time, as the real scale handler leaves it), status ones
// under status; a dry run stores nothing; an apply carrying managedFields is refused.
func TestCh01_UpdateManagers(t *testing.T) {
	srv, c := newServer(t, Options{})
	deps := "/apis/apps/v1/namespaces/default/deployments"
	r := c.do(http.MethodPost, deps, strings.Replace(deploymentWeb, "%s", "1", 1), "User-Agent", "a-controller/v1.0 (linux/amd64)")
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	created := managedOf(t, r.body)
	require.Len(t, created, 1)
	assert.Equal(t, "a-controller", created[0].Manager)
	assert.Contains(t, created[0].Fields, `"f:progressDeadlineSeconds":{}`, "the creator owns the defaults")
	assert.NotContains(t, created[0].Fields, "f:status", "the main resource never writes the status")

	r = c.do(http.MethodPatch, deps+"/web/scale?fieldManager=hpa", `{"spec":{"replicas":3}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, deps+"/web/status?fieldManager=b-ctrl", `{"status":{"observedGeneration":1}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, deps+"/web?fieldManager=dry&dryRun=All", `{"metadata":{"labels":{"x":"y"}}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Len(t, managedOf(t, r.body), 4, "the dry run answers with its entry")

	r = c.get(deps + "/web")
	got := managedOf(t, r.body)
	require.Len(t, got, 3, "%s", r.body)
	assert.Equal(t, entry{"hpa", "Update", "scale", `{"f:spec":{"f:replicas":{}}}`, false}, got[0])
	assert.Equal(t, "a-controller", got[1].Manager)
	assert.NotContains(t, got[1].Fields, "f:replicas")
	assert.Equal(t, entry{"b-ctrl", "Update", "status", `{"f:status":{"f:observedGeneration":{}}}`, true}, got[2])

	// The same object in protobuf carries the same entries.
	r = c.do(http.MethodGet, deps+"/web", nil, "Accept", iprotobuf.ContentType)
	require.Equal(t, http.StatusOK, r.code)
	_, pb, err := iprotobuf.Decode(r.body)
	require.NoError(t, err)
	data, err := json.Marshal(pb)
	require.NoError(t, err)
	assert.Equal(t, got, managedOf(t, data))

	r = c.do(http.MethodPatch, deps+"/web?fieldManager=x", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","managedFields":[{"manager":"m"}]}}`, "Content-Type", applyType)
	assert.Equal(t, http.StatusBadRequest, r.code)
	assert.Equal(t, "metadata.managedFields must be nil", r.status(t).Message)

	// The Go API has no options: its applies are one manager's.
	_, err = srv.Patch(context.Background(), "configmaps", "default", "g", api.ApplyPatchType, []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"g"},"data":{"a":"1"}}`))
	require.NoError(t, err)
	assert.Equal(t, []entry{{"apiserver-go-api", "Apply", "", `{"f:data":{"f:a":{}}}`, true}}, managedOf(t, c.get("/api/v1/namespaces/default/configmaps/g").body))
}

// TestCh01_ApplyCustomResourceSchemaChange: a custom resource merges by its CRD's list
// types, and a CRD update that changes them takes effect on the next write (the cached field
// manager is rebuilt with the CRD's serving).
func TestCh01_ApplyCustomResourceSchemaChange(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := func(listType string) map[string]any {
		ports := map[string]any{"type": "array", "x-kubernetes-list-type": listType,
			"items": map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
				"name": map[string]any{"type": "string"}, "port": map[string]any{"type": "integer"}}}}
		if listType == "map" {
			ports["x-kubernetes-list-map-keys"] = []any{"name"}
		}
		return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": "gadgets.example.com"},
			"spec": map[string]any{"group": "example.com", "scope": "Namespaced",
				"names": map[string]any{"plural": "gadgets", "kind": "Gadget"},
				"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
						"spec": map[string]any{"type": "object", "properties": map[string]any{"ports": ports}}}}}}}}}
	}
	r := c.do(http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd("atomic"))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	g := "/apis/example.com/v1/namespaces/default/gadgets/g"
	apply := func(manager, port string) response {
		return c.do(http.MethodPatch, g+"?fieldManager="+manager, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"ports":[{"name":"`+port+`","port":1}]}}`, "Content-Type", applyType)
	}
	r = apply("alice", "a")
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, `{"f:spec":{"f:ports":{}}}`, managedOf(t, r.body)[0].Fields, "an atomic list is one field")
	r = apply("bob", "b")
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "alice": .spec.ports`, r.status(t).Message)

	r = c.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com")
	var cur map[string]any
	r.decode(t, &cur)
	next := crd("map")
	next["metadata"].(map[string]any)["resourceVersion"] = cur["metadata"].(map[string]any)["resourceVersion"]
	r = c.do(http.MethodPut, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com", next)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)

	r = apply("alice", "a") // re-applied under the new schema: its entry keyed by name
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = apply("bob", "b")
	require.Equal(t, http.StatusOK, r.code, "a map list merges by key now: %s", r.body)
	var obj map[string]any
	r.decode(t, &obj)
	assert.Len(t, obj["spec"].(map[string]any)["ports"], 2)
	assert.Equal(t, `{"f:spec":{"f:ports":{"k:{\"name\":\"b\"}":{".":{},"f:name":{},"f:port":{}}}}}`, managedOf(t, r.body)[1].Fields)
}
