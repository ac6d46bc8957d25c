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

// TestCh13_CRD_CreateSetsConditionsAndServes checks a CRD's create: the answer is the CRD as
// stored, before its controllers (no conditions, names not yet accepted); by the next read
// they have written the accepted names, NamesAccepted, Established and, the group being
// under k8s.io, KubernetesAPIApprovalPolicyConformant; and the resource is served.
func TestCh13_CRD_CreateSetsConditionsAndServes(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, fooCRDJSON)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	type crdStatus struct {
		Metadata struct{ Generation int64 }
		Spec     struct {
			Conversion struct{ Strategy string }
		}
		Status struct {
			AcceptedNames struct {
				Plural, Kind string
				ShortNames   []string
			}
			Conditions     []struct{ Type, Status, Reason string }
			StoredVersions []string
		}
	}
	var crd crdStatus
	r.decode(t, &crd)
	assert.Equal(t, int64(1), crd.Metadata.Generation)
	assert.Equal(t, "None", crd.Spec.Conversion.Strategy, "the conversion strategy is defaulted")
	assert.Empty(t, crd.Status.AcceptedNames.Plural, "the create's answer is before the naming controller")
	assert.Empty(t, crd.Status.Conditions)
	assert.Equal(t, []string{"v1alpha1"}, crd.Status.StoredVersions)

	crd = crdStatus{}
	c.get(crdPath+"/foos.samplecontroller.k8s.io").decode(t, &crd)
	assert.Equal(t, "foos", crd.Status.AcceptedNames.Plural)
	assert.Equal(t, []string{"fo"}, crd.Status.AcceptedNames.ShortNames)
	var conds []string
	for _, c := range crd.Status.Conditions {
		conds = append(conds, c.Type+"="+c.Status+"/"+c.Reason)
	}
	assert.Equal(t, []string{"NamesAccepted=True/NoConflicts", "Established=True/InitialNamesAccepted",
		"KubernetesAPIApprovalPolicyConformant=False/UnapprovedAnnotation"}, conds)

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
		}, []string{`spec.versions: Invalid value: [{"Name":"v1alpha1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},` +
			`{"Name":"v1beta1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
			`status.storedVersions: Invalid value: ["v1alpha1"]: must have the storage version v1beta1`}},
		{"no storage version", func(m map[string]any) { at(m, "spec", "versions", 0)["storage"] = false },
			[]string{`spec.versions: Invalid value: [{"Name":"v1alpha1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
				`status.storedVersions: Invalid value: null: must have at least one stored version`}},
		{"non-structural schema: no type", func(m map[string]any) {
			delete(at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "mode"), "type")
		}, []string{`spec.validation.openAPIV3Schema.properties[spec].properties[mode].type: Required value: must not be empty for specified object fields`}},
		{"metadata restricted", func(m map[string]any) {
			at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties")["metadata"] = map[string]any{
				"type": "object", "properties": map[string]any{"labels": map[string]any{"type": "object"}}}
		}, []string{`spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`}},
		{"a rule without its rule", func(m map[string]any) {
			at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec")["x-kubernetes-validations"] = []any{map[string]any{"message": "m"}}
		}, []string{`spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`}},
		{"anyOf clause with a type", func(m map[string]any) {
			at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "mode")["anyOf"] = []any{map[string]any{"type": "string"}}
		}, []string{`spec.validation.openAPIV3Schema.properties[spec].properties[mode].anyOf[0].type: Forbidden: must be empty to be structural`}},
		{"missing approval annotation", func(m map[string]any) { delete(at(m, "metadata"), "annotations") },
			[]string{`metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`}},
		{"bad scope", func(m map[string]any) { at(m, "spec")["scope"] = "Global" },
			[]string{`spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`}},
		{"bad column type", func(m map[string]any) {
			at(m, "spec", "versions", 0, "additionalPrinterColumns", 0)["type"] = "text"
		}, []string{`spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string`}},
		{"column path not starting with a dot", func(m map[string]any) {
			at(m, "spec", "versions", 0, "additionalPrinterColumns", 0)["jsonPath"] = "spec.deploymentName"
		}, []string{`spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.deploymentName": must be a simple json path starting with .`}},
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

// TestCh13_CRD_ShadowedByBuiltin checks a CRD whose plural a built-in resource of its group
// serves: as on the real server it is accepted and Established, and the built-in goes on
// serving the resource.
func TestCh13_CRD_ShadowedByBuiltin(t *testing.T) {
	_, c := newServer(t, Options{})
	crd := fooCRD(t, func(m map[string]any) {
		at(m, "metadata")["name"] = "leases.coordination.k8s.io"
		at(m, "spec")["group"] = "coordination.k8s.io"
		names := at(m, "spec", "names")
		names["plural"], names["singular"], names["kind"], names["listKind"] = "leases", "lease", "MyLease", "MyLeaseList"
		delete(names, "shortNames")
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	c.get(crdPath+"/leases.coordination.k8s.io").decode(t, &got)
	assert.Contains(t, string(mustJSON(t, got["status"])), `"reason":"InitialNamesAccepted"`)
	var list api.APIResourceList
	c.get("/apis/coordination.k8s.io/v1").decode(t, &list)
	for _, r := range list.APIResources {
		if r.Name == "leases" {
			assert.Equal(t, "Lease", r.Kind, "the built-in still serves leases")
		}
	}
}

// TestCh13_CRD_ShadowedByRegisteredKind is the same for a resource registered with Register.
func TestCh13_CRD_ShadowedByRegisteredKind(t *testing.T) {
	_, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	r := c.do(http.MethodPost, crdPath, fooCRDJSON)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodPost, foosPath, foo("a", map[string]any{"replicas": "not checked by a CRD schema"}))
	assert.Equal(t, http.StatusCreated, r.code, "the registered kind serves foos, not the CRD: %s", r.body)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}
