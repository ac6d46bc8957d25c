package apiserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func TestCh13_CRD_ObjectsValidated(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	tests := []struct {
		name string
		spec map[string]any
		want []string
	}{
		{"required", map[string]any{"replicas": 2}, []string{`spec.deploymentName: Required value`}},
		{"maximum", map[string]any{"deploymentName": "d", "replicas": 12},
			[]string{`spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10`}},
		{"minimum", map[string]any{"deploymentName": "d", "replicas": 0},
			[]string{`spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1`}},
		{"type, also at the scale path", map[string]any{"deploymentName": "d", "replicas": "three"},
			[]string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64`}},
		{"enum", map[string]any{"deploymentName": "d", "mode": "medium"},
			[]string{`spec.mode: Unsupported value: "medium": supported values: "fast", "slow"`}},
		{"pattern", map[string]any{"deploymentName": "Bad_Name"},
			[]string{`spec.deploymentName: Invalid value: "Bad_Name": spec.deploymentName in body should match '^[a-z][-a-z0-9]*$'`}},
		{"maxLength", map[string]any{"deploymentName": "a-very-long-deployment-name"},
			[]string{`spec.deploymentName: Too long: may not be more than 20 bytes`}},
		{"maxItems and minLength", map[string]any{"deploymentName": "d", "tags": []any{"a", "", "c"}},
			[]string{`spec.tags[1]: Invalid value: "": spec.tags[1] in body should be at least 1 chars long`, `spec.tags: Too many: 3: must have at most 2 items`}},
		{"date-time", map[string]any{"deploymentName": "d", "since": "yesterday"},
			[]string{`spec.since: Invalid value: "yesterday": spec.since in body must be of type date-time: "yesterday"`}},
		{"int-or-string", map[string]any{"deploymentName": "d", "port": true},
			[]string{`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(http.MethodPost, foosPath, foo("bad", tt.spec))
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			st := r.status(t)
			var got []string
			for _, c := range st.Details.Causes {
				got = append(got, c.Field+": "+c.Message)
			}
			assert.Empty(t, cmp.Diff(tt.want, got))
			joined := strings.Join(tt.want, ", ")
			if len(tt.want) > 1 {
				joined = "[" + joined + "]" // as field.ErrorList.ToAggregate prints several
			}
			assert.Equal(t, `Foo.samplecontroller.k8s.io "bad" is invalid: `+joined, st.Message)
		})
	}
	// What is valid: a nullable null, a null where not nullable (the decoder drops it), an
	// int-or-string of either kind, a good date.
	for i, spec := range []map[string]any{
		{"deploymentName": "d", "note": nil, "port": 8080, "mode": nil},
		{"deploymentName": "d", "port": "http", "since": "2026-01-02T03:04:05Z", "tags": []any{"a"}},
	} {
		r := c.do(http.MethodPost, foosPath, foo("ok"+string(rune('a'+i)), spec))
		assert.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	}
}

func TestCh13_CRD_PruningAndDefaults(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	body := foo("a", map[string]any{"deploymentName": "d", "bogus": 1, "extra": map[string]any{"kept": true}})
	body["top"] = "x"

	// Strict refuses unknown fields, naming them all.
	r := c.do(http.MethodPost, foosPath+"?fieldValidation=Strict", body)
	require.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
	assert.Equal(t, `Foo in version "v1alpha1" cannot be handled as a Foo: strict decoding error: unknown field "spec.bogus", unknown field "top"`, r.status(t).Message)

	// Warn (and no parameter) prunes them and says so in Warning headers.
	r = c.do(http.MethodPost, foosPath+"?fieldValidation=Warn", body)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, []string{`299 - "unknown field \"spec.bogus\""`, `299 - "unknown field \"top\""`}, r.header.Values("Warning"))
	var got map[string]any
	r.decode(t, &got)
	assert.NotContains(t, got, "top")
	assert.Equal(t, map[string]any{"deploymentName": "d", "replicas": float64(1), "extra": map[string]any{"kept": true}}, got["spec"])

	// Ignore prunes silently.
	body["metadata"] = map[string]any{"name": "b"}
	r = c.do(http.MethodPost, foosPath+"?fieldValidation=Ignore", body)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Empty(t, r.header.Values("Warning"))
}

func TestCh13_CRD_StatusAndScale(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	body := foo("a", map[string]any{"deploymentName": "d", "replicas": 2})
	body["status"] = map[string]any{"availableReplicas": 9}
	r := c.do(http.MethodPost, foosPath, body)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var obj map[string]any
	r.decode(t, &obj)
	assert.NotContains(t, obj, "status", "a create writes no status")

	// The status subresource writes only the status: generation stays.
	obj["status"] = map[string]any{"availableReplicas": 2, "selector": "app=d"}
	at(obj, "spec")["replicas"] = 5 // ignored by the status write
	r = c.do(http.MethodPut, foosPath+"/a/status", obj)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r.decode(t, &obj)
	assert.Equal(t, float64(1), at(obj, "metadata")["generation"])
	assert.Equal(t, float64(2), at(obj, "spec")["replicas"])
	assert.Equal(t, float64(2), at(obj, "status")["availableReplicas"])

	// A main-resource write changes the spec, bumps generation and keeps the status.
	at(obj, "spec")["replicas"] = 3
	delete(obj, "status")
	r = c.do(http.MethodPut, foosPath+"/a", obj)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r.decode(t, &obj)
	assert.Equal(t, float64(2), at(obj, "metadata")["generation"])
	assert.Equal(t, float64(2), at(obj, "status")["availableReplicas"])

	// The scale subresource reads and writes the CRD's paths.
	r = c.get(foosPath + "/a/scale")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	var sc struct {
		Spec   struct{ Replicas int64 }
		Status struct {
			Replicas int64
			Selector string
		}
	}
	r.decode(t, &sc)
	assert.Equal(t, int64(3), sc.Spec.Replicas)
	assert.Equal(t, int64(2), sc.Status.Replicas)
	assert.Equal(t, "app=d", sc.Status.Selector)
	r = c.do(http.MethodPatch, foosPath+"/a/scale", `{"spec":{"replicas":7}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.get(foosPath + "/a")
	r.decode(t, &obj)
	assert.Equal(t, float64(7), at(obj, "spec")["replicas"])
	assert.Equal(t, float64(3), at(obj, "metadata")["generation"])
	// The scale write is validated against the schema like any other.
	r = c.do(http.MethodPatch, foosPath+"/a/scale", `{"spec":{"replicas":11}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
}

func TestCh13_CRD_PrinterColumns(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	r := c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "d-a", "replicas": 2}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io"
	r = c.do(http.MethodGet, foosPath, nil, "Accept", tableAccept)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	var table api.Table
	r.decode(t, &table)
	var cols []string
	for _, d := range table.ColumnDefinitions {
		cols = append(cols, d.Name+":"+d.Type)
	}
	assert.Equal(t, []string{"Name:string", "Deployment:string", "Replicas:integer", "Available:integer"}, cols)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"a", "d-a", float64(2), nil}, table.Rows[0].Cells)

	// A CRD without columns prints Name and Age, Age a date.
	crd := fooCRD(t, func(m map[string]any) {
		at(m, "metadata")["name"] = "bars.example.com"
		at(m, "spec")["group"] = "example.com"
		names := at(m, "spec", "names")
		names["plural"], names["singular"], names["kind"], names["listKind"] = "bars", "bar", "Bar", "BarList"
		delete(names, "shortNames")
		delete(at(m, "spec", "versions", 0), "additionalPrinterColumns")
	})
	r = c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	bar := foo("b", map[string]any{"deploymentName": "d"})
	bar["apiVersion"], bar["kind"] = "example.com/v1alpha1", "Bar"
	r = c.do(http.MethodPost, "/apis/example.com/v1alpha1/namespaces/default/bars", bar)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodGet, "/apis/example.com/v1alpha1/namespaces/default/bars", nil, "Accept", tableAccept)
	table = api.Table{}
	r.decode(t, &table)
	cols = nil
	for _, d := range table.ColumnDefinitions {
		cols = append(cols, d.Name+":"+d.Type)
	}
	assert.Equal(t, []string{"Name:string", "Age:date"}, cols)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, "b", table.Rows[0].Cells[0])
	assert.Regexp(t, `^\d+s$`, table.Rows[0].Cells[1])
}

func TestCh13_CRD_OpenAPI(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	r := c.get("/openapi/v3/apis/samplecontroller.k8s.io/v1alpha1")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	var doc struct {
		Paths      map[string]json.RawMessage
		Components struct{ Schemas map[string]map[string]any }
	}
	r.decode(t, &doc)
	sch, ok := doc.Components.Schemas["io.k8s.samplecontroller.v1alpha1.Foo"]
	require.True(t, ok, "%v", doc.Components.Schemas)
	spec := at(sch, "properties", "spec")
	assert.Equal(t, []any{"deploymentName"}, spec["required"])
	assert.Equal(t, "integer", at(spec, "properties", "replicas")["type"])
	assert.Contains(t, at(sch, "properties"), "metadata")
	assert.Equal(t, []any{map[string]any{"group": "samplecontroller.k8s.io", "version": "v1alpha1", "kind": "Foo"}}, sch["x-kubernetes-group-version-kind"])
	assert.Contains(t, doc.Paths, "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/{namespace}/foos/{name}")

	// An update of the CRD changes what is published and what is validated.
	var crd map[string]any
	c.get(crdPath+"/foos.samplecontroller.k8s.io").decode(t, &crd)
	at(crd, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "replicas")["maximum"] = 20
	r = c.do(http.MethodPut, crdPath+"/foos.samplecontroller.k8s.io", crd)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.get("/openapi/v3/apis/samplecontroller.k8s.io/v1alpha1")
	r.decode(t, &doc)
	assert.Equal(t, float64(20), at(doc.Components.Schemas["io.k8s.samplecontroller.v1alpha1.Foo"], "properties", "spec", "properties", "replicas")["maximum"])
	r = c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "d", "replicas": 15}))
	assert.Equal(t, http.StatusCreated, r.code, "%s", r.body)
}

// TestCh13_CRD_ObjectTooLarge: a custom object whose JSON passes etcd's 1.5 MiB request
// limit is the real server's 500, on create and on update.
func TestCh13_CRD_ObjectTooLarge(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	big := foo("big", map[string]any{"deploymentName": "d", "extra": map[string]any{"blob": strings.Repeat("x", 1600*1024)}})
	r := c.do(http.MethodPost, foosPath, big)
	require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
	assert.Equal(t, "etcdserver: request is too large", r.status(t).Message)

	r = c.do(http.MethodPost, foosPath, foo("big", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	r.decode(t, &got)
	at(got, "spec")["extra"] = map[string]any{"blob": strings.Repeat("x", 1600*1024)}
	r = c.do(http.MethodPut, foosPath+"/big", got)
	require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
	assert.Equal(t, "etcdserver: request is too large", r.status(t).Message)
}

// TestCh13_CRD_CRDTooLarge: a CRD whose JSON passes etcd's 1.5 MiB request limit (here a
// long description) is the same 500, and is not stored.
func TestCh13_CRD_CRDTooLarge(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) {
		v := m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
		at(v, "schema", "openAPIV3Schema")["description"] = strings.Repeat("x", 1600*1024)
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
	assert.Equal(t, "etcdserver: request is too large", r.status(t).Message)
	r = c.do(http.MethodGet, crdPath+"/foos.samplecontroller.k8s.io", nil)
	assert.Equal(t, http.StatusNotFound, r.code, "%s", r.body)
}

// TestCh13_CRD_SubresourceNotEnabled: a subresource the CRD does not enable is NotFound for
// the object's name, as apiextensions-apiserver's handler answers it (the same answer as for
// a missing object), not the "could not find the requested resource" of an unknown path.
func TestCh13_CRD_SubresourceNotEnabled(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) {
		delete(at(m, "spec")["versions"].([]any)[0].(map[string]any), "subresources")
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "d"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var obj map[string]any
	r.decode(t, &obj)

	tests := []struct {
		name, method, path string
		body               any
	}{
		{"status read", http.MethodGet, foosPath + "/a/status", nil},
		{"status write, as a controller's UpdateStatus", http.MethodPut, foosPath + "/a/status", obj},
		{"scale read", http.MethodGet, foosPath + "/a/scale", nil},
		{"unknown subresource", http.MethodGet, foosPath + "/a/bogus", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(tt.method, tt.path, tt.body)
			require.Equal(t, http.StatusNotFound, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, `foos.samplecontroller.k8s.io "a" not found`, st.Message)
			assert.Equal(t, api.StatusReasonNotFound, st.Reason)
			require.NotNil(t, st.Details)
			assert.Equal(t, api.StatusDetails{Name: "a", Group: "samplecontroller.k8s.io", Kind: "foos"}, *st.Details)
		})
	}
}

// TestCh13_CRD_CollectionPaths: apiextensions-apiserver answers a custom resource's paths
// with its own handler, and the reference (checked with curl) answers differently from a
// built-in's: a list carries "continue": "" even when there is no next page; PUT and PATCH
// of the namespace's collection are 400 "name must be provided"; every write to the
// all-namespaces path is the mux's plain 404, not a 405 Status.
func TestCh13_CRD_CollectionPaths(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, fooCRD(t, nil))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	list := c.get(foosPath)
	require.Equal(t, http.StatusOK, list.code, "%s", list.body)
	var l map[string]any
	list.decode(t, &l)
	assert.Equal(t, "", at(l, "metadata")["continue"], "continue is written out, empty")
	for _, m := range []string{http.MethodPut, http.MethodPatch} {
		r := c.do(m, foosPath, map[string]any{}, "Content-Type", "application/merge-patch+json")
		require.Equal(t, http.StatusBadRequest, r.code, "%s %s", m, r.body)
		assert.Equal(t, "name must be provided", r.status(t).Message)
	}
	allNamespaces := "/apis/samplecontroller.k8s.io/v1alpha1/foos"
	require.Equal(t, http.StatusOK, c.get(allNamespaces).code)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		r := c.do(m, allNamespaces, map[string]any{}, "Content-Type", "application/merge-patch+json")
		require.Equal(t, http.StatusNotFound, r.code, "%s %s", m, r.body)
		assert.Equal(t, "404 page not found\n", string(r.body), m)
	}
}
