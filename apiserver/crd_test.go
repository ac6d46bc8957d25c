package apiserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// fooCRDJSON is the sample-controller's Foo CRD, with a stricter schema, printer columns and
// the scale subresource, as a client would POST it.
const fooCRDJSON = `{
 "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
 "metadata": {"name": "foos.samplecontroller.k8s.io",
  "annotations": {"api-approved.kubernetes.io": "unapproved, experimental-only"}},
 "spec": {"group": "samplecontroller.k8s.io", "scope": "Namespaced",
  "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList",
   "shortNames": ["fo"], "categories": ["all"]},
  "versions": [{"name": "v1alpha1", "served": true, "storage": true,
   "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
    "statusReplicasPath": ".status.availableReplicas", "labelSelectorPath": ".status.selector"}},
   "additionalPrinterColumns": [
    {"name": "Deployment", "type": "string", "jsonPath": ".spec.deploymentName"},
    {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
    {"name": "Available", "type": "integer", "jsonPath": ".status.availableReplicas"}],
   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
    "spec": {"type": "object", "required": ["deploymentName"], "properties": {
     "deploymentName": {"type": "string", "pattern": "^[a-z][-a-z0-9]*$", "maxLength": 20},
     "replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10, "default": 1},
     "mode": {"type": "string", "enum": ["fast", "slow"]},
     "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
     "port": {"x-kubernetes-int-or-string": true},
     "note": {"type": "string", "nullable": true},
     "since": {"type": "string", "format": "date-time"},
     "tags": {"type": "array", "maxItems": 2, "items": {"type": "string", "minLength": 1}}}},
    "status": {"type": "object", "properties": {
     "availableReplicas": {"type": "integer"}, "selector": {"type": "string"}}}}}}}]}}`

// fooCRD returns the CRD as a tree, changed by edit.
func fooCRD(t *testing.T, edit func(m map[string]any)) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(fooCRDJSON), &m))
	if edit != nil {
		edit(m)
	}
	return m
}

// at walks a tree by member names and list indexes written as numbers.
func at(m any, path ...any) map[string]any {
	cur := m
	for _, p := range path {
		switch k := p.(type) {
		case string:
			cur = cur.(map[string]any)[k]
		case int:
			cur = cur.([]any)[k]
		}
	}
	return cur.(map[string]any)
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
const foosPath = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos"

func createFooCRD(t *testing.T, c *client) {
	t.Helper()
	r := c.do(http.MethodPost, crdPath, fooCRDJSON)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
}

func foo(name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
		"metadata": map[string]any{"name": name}, "spec": spec}
}

func TestCh13_CRD_CreateSetsConditionsAndServes(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, fooCRDJSON)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var crd struct {
		Metadata struct{ Generation int64 }
		Status   struct {
			AcceptedNames struct {
				Plural, Kind string
				ShortNames   []string
			}
			Conditions []struct{ Type, Status, Reason string }
		}
	}
	r.decode(t, &crd)
	assert.Equal(t, int64(1), crd.Metadata.Generation)
	assert.Equal(t, "foos", crd.Status.AcceptedNames.Plural)
	assert.Equal(t, []string{"fo"}, crd.Status.AcceptedNames.ShortNames)
	var conds []string
	for _, c := range crd.Status.Conditions {
		conds = append(conds, c.Type+"="+c.Status+"/"+c.Reason)
	}
	assert.Equal(t, []string{"NamesAccepted=True/NoConflicts", "Established=True/InitialNamesAccepted"}, conds)

	// Discovery: legacy and aggregated list the resource with its names.
	var list api.APIResourceList
	c.get("/apis/samplecontroller.k8s.io/v1alpha1").decode(t, &list)
	var names []string
	for _, r := range list.APIResources {
		names = append(names, r.Name)
		if r.Name == "foos" {
			assert.Equal(t, "foo", r.SingularName)
			assert.Equal(t, []string{"fo"}, r.ShortNames)
			assert.Equal(t, []string{"all"}, r.Categories)
			assert.True(t, r.Namespaced)
		}
	}
	assert.Equal(t, []string{"foos", "foos/scale", "foos/status"}, names)
	agg := c.do(http.MethodGet, "/apis", nil, "Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	require.Equal(t, http.StatusOK, agg.code)
	assert.Contains(t, string(agg.body), `"resource":"foos"`)
	assert.Contains(t, string(agg.body), `"singularResource":"foo"`)

	// The CRD itself is a cluster-scoped built-in with its short name.
	var ext api.APIResourceList
	c.get("/apis/apiextensions.k8s.io/v1").decode(t, &ext)
	require.NotEmpty(t, ext.APIResources)
	assert.Equal(t, "customresourcedefinitions", ext.APIResources[0].Name)
	assert.False(t, ext.APIResources[0].Namespaced)
	assert.Equal(t, []string{"crd", "crds"}, ext.APIResources[0].ShortNames)
	assert.Equal(t, []string{"api-extensions"}, ext.APIResources[0].Categories)

	r = c.do(http.MethodPost, foosPath, foo("a", map[string]any{"deploymentName": "a-deploy"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	r.decode(t, &got)
	assert.Equal(t, float64(1), at(got, "spec")["replicas"], "the schema default")
	assert.Equal(t, float64(1), at(got, "metadata")["generation"])
}

func TestCh13_CRD_Validation(t *testing.T) {
	_, c := newServer(t, Options{})
	versions := func(m map[string]any) []any { return at(m, "spec")["versions"].([]any) }
	tests := []struct {
		name string
		edit func(m map[string]any)
		want []string // field: message, as the Status causes say
	}{
		{"name is not plural.group", func(m map[string]any) { at(m, "metadata")["name"] = "foo.samplecontroller.k8s.io" },
			[]string{`metadata.name: Invalid value: "foo.samplecontroller.k8s.io": must be spec.names.plural+"."+spec.group`}},
		{"upper-case plural", func(m map[string]any) {
			at(m, "metadata")["name"] = "Foos.samplecontroller.k8s.io"
			at(m, "spec", "names")["plural"] = "Foos"
		}, []string{
			`metadata.name: Invalid value: "Foos.samplecontroller.k8s.io": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.names.plural: Invalid value: "Foos": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
		}},
		{"kind and listKind the same", func(m map[string]any) { at(m, "spec", "names")["listKind"] = "Foo" },
			[]string{`spec.names.listKind: Invalid value: "Foo": kind and listKind may not be the same`}},
		{"group without a dot", func(m map[string]any) {
			at(m, "metadata")["name"] = "foos.samplecontroller"
			at(m, "spec")["group"] = "samplecontroller"
		}, []string{`spec.group: Invalid value: "samplecontroller": should be a domain with at least one dot`}},
		{"two storage versions", func(m map[string]any) {
			v2 := map[string]any{}
			data, _ := json.Marshal(versions(m)[0])
			_ = json.Unmarshal(data, &v2)
			v2["name"] = "v1beta1"
			at(m, "spec")["versions"] = append(versions(m), v2)
		}, []string{`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{…}: must have exactly one version marked as storage version`}},
		{"no storage version", func(m map[string]any) { at(m, "spec", "versions", 0)["storage"] = false },
			[]string{`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{…}: must have exactly one version marked as storage version`}},
		{"non-structural schema: no type", func(m map[string]any) {
			delete(at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "mode"), "type")
		}, []string{`spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[mode].type: Required value: must not be empty for specified object fields`}},
		{"metadata restricted", func(m map[string]any) {
			at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties")["metadata"] = map[string]any{
				"type": "object", "properties": map[string]any{"labels": map[string]any{"type": "object"}}}
		}, []string{`spec.versions[0].schema.openAPIV3Schema.properties[metadata].properties[labels]: Forbidden: must not be specified`}},
		{"CEL rules", func(m map[string]any) {
			at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec")["x-kubernetes-validations"] = []any{map[string]any{"rule": "self.replicas < 5"}}
		}, []string{`spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations: Forbidden: CEL validation rules are not supported by this simulator`}},
		{"missing approval annotation", func(m map[string]any) { delete(at(m, "metadata"), "annotations") },
			[]string{`metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`}},
		{"bad scope", func(m map[string]any) { at(m, "spec")["scope"] = "Global" },
			[]string{`spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`}},
		{"bad column type", func(m map[string]any) {
			at(m, "spec", "versions", 0, "additionalPrinterColumns", 0)["type"] = "text"
		}, []string{`spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(http.MethodPost, crdPath, fooCRD(t, tt.edit))
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, api.StatusReasonInvalid, st.Reason)
			var got []string
			for _, c := range st.Details.Causes {
				got = append(got, c.Field+": "+c.Message)
			}
			assert.Empty(t, cmp.Diff(tt.want, got))
			assert.True(t, strings.HasPrefix(st.Message, `CustomResourceDefinition.apiextensions.k8s.io "`), st.Message)
		})
	}
}

func TestCh13_CRD_ClashWithBuiltin(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) {
		at(m, "metadata")["name"] = "leases.coordination.k8s.io"
		at(m, "spec")["group"] = "coordination.k8s.io"
		names := at(m, "spec", "names")
		names["plural"], names["singular"], names["kind"], names["listKind"] = "leases", "lease", "MyLease", "MyLeaseList"
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, `CustomResourceDefinition.apiextensions.k8s.io "leases.coordination.k8s.io" is invalid: spec.names.plural: Invalid value: "leases": is already served by the built-in resource leases.coordination.k8s.io: this simulator refuses a CRD it would shadow`, st.Message)
}

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
		{"type", map[string]any{"deploymentName": "d", "replicas": "three"},
			[]string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`}},
		{"enum", map[string]any{"deploymentName": "d", "mode": "medium"},
			[]string{`spec.mode: Unsupported value: "medium": supported values: "fast", "slow"`}},
		{"pattern", map[string]any{"deploymentName": "Bad_Name"},
			[]string{`spec.deploymentName: Invalid value: "Bad_Name": spec.deploymentName in body should match '^[a-z][-a-z0-9]*$'`}},
		{"maxLength", map[string]any{"deploymentName": "a-very-long-deployment-name"},
			[]string{`spec.deploymentName: Too long: may not be more than 20 bytes`}},
		{"maxItems and minLength", map[string]any{"deploymentName": "d", "tags": []any{"a", "", "c"}},
			[]string{`spec.tags: Too many: 3: must have at most 2 items`, `spec.tags[1]: Invalid value: "": spec.tags[1] in body should be at least 1 chars long`}},
		{"date-time", map[string]any{"deploymentName": "d", "since": "yesterday"},
			[]string{`spec.since: Invalid value: "yesterday": spec.since in body must be of type date-time: "yesterday"`}},
		{"null where not nullable", map[string]any{"deploymentName": "d", "mode": nil},
			[]string{`spec.mode: Invalid value: "null": spec.mode in body must be of type string: "null"`}},
		{"int-or-string", map[string]any{"deploymentName": "d", "port": true},
			[]string{`spec.port: Invalid value: true: spec.port in body must be of type integer,string: "boolean"`}},
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
	// What is valid: a nullable null, an int-or-string of either kind, a good date.
	for i, spec := range []map[string]any{
		{"deploymentName": "d", "note": nil, "port": 8080},
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
	_, c := newServer(t, Options{})
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
		if versionLess(a, b) {
			return -1
		}
		if versionLess(b, a) {
			return 1
		}
		return 0
	})
	assert.Equal(t, []string{"v10", "v2", "v1", "v1beta2", "v1beta1", "v2alpha1", "v1alpha1", "bar", "foo"}, vs)
}
