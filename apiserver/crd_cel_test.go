package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// celWidgetCRD has the rules the tests below pin against a real v1.36 server: a minimum
// below a maximum, a messageExpression, a Forbidden reason with a fieldPath, an immutable
// field (self == oldSelf) and a rule on the items of a list of objects.
const celWidgetCRD = `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.cel.example.com"}, "spec": {"group": "cel.example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-validations": [{"rule": "self.minReplicas <= self.maxReplicas", "message": "minReplicas must not exceed maxReplicas"}, {"rule": "!has(self.mode) || self.mode != 'bad'", "messageExpression": "'mode ' + self.mode + ' is not allowed'"}, {"rule": "!has(self.owner) || self.owner != 'root'", "reason": "FieldValueForbidden", "fieldPath": ".owner", "message": "owner may not be root"}], "properties": {"minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"}, "mode": {"type": "string", "maxLength": 10}, "owner": {"type": "string"}, "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "name is immutable"}]}, "items": {"type": "array", "maxItems": 10, "items": {"type": "object", "x-kubernetes-validations": [{"rule": "self.port > 0"}], "properties": {"port": {"type": "integer"}}}}}}}}}}]}}`

// celBadCRD has rules the real server refuses at CRD write (answers copied from it).
const celBadCRD = `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "bads.cel.example.com"}, "spec": {"group": "cel.example.com", "scope": "Namespaced", "names": {"plural": "bads", "kind": "Bad"}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-validations": [{"rule": "self.nope + 1"}, {"rule": "self.x"}, {"rule": "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c == '')))"}, {"rule": "self.l.size() > 0", "messageExpression": "1"}, {"rule": "true", "optionalOldSelf": true}], "properties": {"x": {"type": "string"}, "l": {"type": "array", "items": {"type": "string"}}, "s": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}}}}}]}}`

const widgetsPath = "/apis/cel.example.com/v1/namespaces/default/widgets"

func celWidget(name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "cel.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name}, "spec": spec}
}

func causesOf(t *testing.T, r response) []string {
	t.Helper()
	var got []string
	for _, c := range r.status(t).Details.Causes {
		got = append(got, c.Field+": "+c.Message)
	}
	return got
}

func TestCh13_CEL_ObjectRules(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, celWidgetCRD)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	tests := []struct {
		name string
		spec map[string]any
		want []string
	}{
		{"valid", map[string]any{"minReplicas": 1, "maxReplicas": 2, "name": "a", "items": []any{map[string]any{"port": 1}}}, nil},
		{"every rule fails", map[string]any{"minReplicas": 3, "maxReplicas": 2, "mode": "bad", "owner": "root", "name": "a",
			"items": []any{map[string]any{"port": 1}, map[string]any{"port": 0}}}, []string{
			"spec: Invalid value: minReplicas must not exceed maxReplicas",
			"spec: Invalid value: mode bad is not allowed",
			"spec.owner: Forbidden: owner may not be root",
			"spec.items[1]: Invalid value: failed rule: self.port > 0",
		}},
		{"min above max", map[string]any{"minReplicas": 3, "maxReplicas": 2}, []string{"spec: Invalid value: minReplicas must not exceed maxReplicas"}},
		{"transition rule not run on create", map[string]any{"minReplicas": 1, "maxReplicas": 1, "name": "z"}, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(http.MethodPost, widgetsPath, celWidget("w"+string(rune('a'+i)), tt.spec))
			if tt.want == nil {
				assert.Equal(t, http.StatusCreated, r.code, "%s", r.body)
				return
			}
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			assert.Empty(t, cmp.Diff(tt.want, causesOf(t, r)))
			joined := strings.Join(tt.want, ", ")
			if len(tt.want) > 1 {
				joined = "[" + joined + "]"
			}
			assert.Equal(t, `Widget.cel.example.com "w`+string(rune('a'+i))+`" is invalid: `+joined, r.status(t).Message)
		})
	}
	// The transition rule: name is immutable on update, as the real server answers.
	r = c.do(http.MethodPatch, widgetsPath+"/wa", `{"spec":{"name":"b"}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	assert.Equal(t, []string{`spec.name: Invalid value: "b": name is immutable`}, causesOf(t, r))
	// An update of another field passes.
	r = c.do(http.MethodPatch, widgetsPath+"/wa", `{"spec":{"maxReplicas":5}}`, "Content-Type", "application/merge-patch+json")
	assert.Equal(t, http.StatusOK, r.code, "%s", r.body)
}

func TestCh13_CEL_CRDWriteErrors(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, celBadCRD)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	const p = "spec.validation.openAPIV3Schema"
	const budget = " exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
	want := []string{
		p + `.properties[spec].properties[s].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ` + p + ".properties[spec].properties[s]",
		p + `.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.nope + 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'` + "\n | self.nope + 1\n | ....^",
		p + `.properties[spec].x-kubernetes-validations[1].rule: Invalid value: {"Rule":"self.x","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`,
		p + ".properties[spec].x-kubernetes-validations[2].rule: Forbidden: estimated rule cost" + budget,
		p + `.properties[spec].x-kubernetes-validations[3].messageExpression: Invalid value: {"Rule":"self.l.size() \u003e 0","Message":"","MessageExpression":"1","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
		p + ".properties[spec].x-kubernetes-validations[4].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule",
		p + ".properties[spec].x-kubernetes-validations[2].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
		p + ".properties[spec].properties[s].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
		p + ": Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema" + budget,
	}
	assert.Empty(t, cmp.Diff(want, causesOf(t, r)))
}
