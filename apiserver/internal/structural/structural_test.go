package structural

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func tree(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

func messages(t testing.TB, causes []api.StatusCause) []string {
	t.Helper()
	var out []string
	for _, c := range causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

func TestCh13_CRD_StructuralParse(t *testing.T) {
	tests := []struct {
		name, schema string
		want         []string
	}{
		{"structural", `{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer"}}}}}`, nil},
		{"missing type", `{"type":"object","properties":{"spec":{"properties":{"n":{"type":"integer"}}}}}`,
			[]string{"s.properties[spec].type: Required value: must not be empty for specified object fields"}},
		{"root not an object", `{"type":"string"}`, []string{`s.type: Invalid value: "string": must be object at the root`}},
		{"unknown keyword", `{"type":"object","not":{"type":"string"}}`,
			[]string{"s.not: Forbidden: must not be used: this simulator knows only the keywords of a structural schema"}},
		{"bad type", `{"type":"object","properties":{"a":{"type":"float"}}}`,
			[]string{`s.properties[a].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`}},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array"}}}`,
			[]string{"s.properties[a].items: Required value: must be specified"}},
		{"int-or-string with a type", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-int-or-string":true}}}`,
			[]string{"s.properties[a].type: Forbidden: must be empty if x-kubernetes-int-or-string is true"}},
		{"metadata name only", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"},"labels":{"type":"object"}}}}}`,
			[]string{"s.properties[metadata].properties[labels]: Forbidden: must not be specified"}},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`,
			[]string{"s.properties[a].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`"}},
		{"CEL", `{"type":"object","x-kubernetes-validations":[{"rule":"true"}]}`,
			[]string{"s.x-kubernetes-validations: Forbidden: CEL validation rules are not supported by this simulator"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, causes := Parse(tree(t, tt.schema), "s")
			assert.Empty(t, cmp.Diff(tt.want, messages(t, causes)))
		})
	}
}

const fooSchema = `{"type":"object","properties":{
 "spec":{"type":"object","required":["name"],"properties":{
  "name":{"type":"string"},
  "replicas":{"type":"integer","minimum":1,"maximum":10,"exclusiveMaximum":true,"default":1},
  "ratio":{"type":"number","minimum":0,"exclusiveMinimum":true},
  "labels":{"type":"object","additionalProperties":{"type":"string","maxLength":3}},
  "opts":{"type":"object","default":{},"properties":{"mode":{"type":"string","default":"fast"}}},
  "any":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "pod":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
  "items":{"type":"array","minItems":1,"items":{"type":"object","properties":{"k":{"type":"string"}}}}}}}}`

func TestCh13_CRD_StructuralValidate(t *testing.T) {
	s, causes := Parse(tree(t, fooSchema), "")
	require.Empty(t, causes)
	tests := []struct {
		name, obj string
		want      []string
	}{
		{"valid", `{"spec":{"name":"a","replicas":9,"ratio":0.5,"labels":{"a":"xyz"},"items":[{"k":"v"}]}}`, nil},
		{"exclusive maximum", `{"spec":{"name":"a","replicas":10}}`,
			[]string{"spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10"}},
		{"exclusive minimum", `{"spec":{"name":"a","ratio":0}}`,
			[]string{"spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0"}},
		{"map values", `{"spec":{"name":"a","labels":{"a":"long"}}}`,
			[]string{"spec.labels.a: Too long: may not be more than 3 bytes"}},
		{"minItems", `{"spec":{"name":"a","items":[]}}`,
			[]string{"spec.items: Invalid value: 0: spec.items in body should have at least 1 items"}},
		{"required at the root", `{}`, nil},
		{"required below", `{"spec":{}}`, []string{"spec.name: Required value"}},
		{"embedded resource without kind", `{"spec":{"name":"a","pod":{"apiVersion":"v1"}}}`,
			[]string{"spec.pod.kind: Required value"}},
		{"wrong type in a list", `{"spec":{"name":"a","items":[{"k":1}]}}`,
			[]string{`spec.items[0].k: Invalid value: "integer": spec.items[0].k in body must be of type string: "integer"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Empty(t, cmp.Diff(tt.want, messages(t, Validate(s, tree(t, tt.obj)))))
		})
	}
}

func TestCh13_CRD_StructuralPruneAndDefault(t *testing.T) {
	s, _ := Parse(tree(t, fooSchema), "")
	obj := tree(t, `{"apiVersion":"x/v1","kind":"Foo","metadata":{"name":"a"},"bogus":1,
		"spec":{"name":"a","extra":true,"any":{"free":{"deep":1}},"labels":{"k":"v"},
		"pod":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1},"junk":1},
		"items":[{"k":"v","drop":1}]}}`)
	assert.Equal(t, []string{`unknown field "bogus"`, `unknown field "spec.extra"`, `unknown field "spec.items[0].drop"`, `unknown field "spec.pod.junk"`, `unknown field "spec.pod.spec.x"`}, Prune(obj, s))
	assert.Empty(t, Prune(obj, s), "pruning twice finds nothing more")
	Default(obj, s)
	want := tree(t, `{"apiVersion":"x/v1","kind":"Foo","metadata":{"name":"a"},
		"spec":{"name":"a","replicas":1,"opts":{"mode":"fast"},"any":{"free":{"deep":1}},"labels":{"k":"v"},
		"pod":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}},
		"items":[{"k":"v"}]}}`)
	assert.Empty(t, cmp.Diff(want, obj))
}

// ExampleValidate shows the message a custom object out of range gets.
func ExampleValidate() {
	var sch map[string]any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"replicas":{"type":"integer","maximum":10}}}}}`), &sch)
	s, _ := Parse(sch, "")
	for _, c := range Validate(s, map[string]any{"spec": map[string]any{"replicas": int64(12)}}) {
		fmt.Println(c.Field + ": " + c.Message)
	}
	// Output: spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10
}

// FuzzCRDSchemaValidate feeds random schemas and values through the whole path a custom
// object takes: Parse, Prune, Default, Validate. None may panic, and pruning is idempotent.
func FuzzCRDSchemaValidate(f *testing.F) {
	f.Add([]byte(fooSchema), []byte(`{"spec":{"name":"a","replicas":12,"items":[{"k":1,"x":2}]}}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"enum":[1,"a"]}}}`), []byte(`{"a":null}`))
	f.Add([]byte(`{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","default":{"z":1}}}}`), []byte(`{"m":[{},null,3]}`))
	f.Add([]byte(`{"type":"object","properties":{"s":{"type":"string","pattern":"^a+$","format":"date-time","minLength":2}}}`), []byte(`{"s":"aaa"}`))
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		var sch, obj map[string]any
		if json.Unmarshal(schemaJSON, &sch) != nil || json.Unmarshal(objJSON, &obj) != nil || sch == nil || obj == nil {
			return
		}
		s, _ := Parse(sch, "")
		Prune(obj, s)
		if again := Prune(obj, s); len(again) > 0 {
			t.Fatalf("second prune removed %v", again)
		}
		Default(obj, s)
		_ = Validate(s, obj)
	})
}

// BenchmarkPruneDefaultValidate is the schema work of one custom object write.
func BenchmarkPruneDefaultValidate(b *testing.B) {
	s, _ := Parse(tree(b, fooSchema), "")
	const objJSON = `{"apiVersion":"x/v1","kind":"Foo","metadata":{"name":"a"},"bogus":1,
		"spec":{"name":"a","replicas":3,"labels":{"k":"v"},"items":[{"k":"v"},{"k":"w"}],"any":{"free":1}}}`
	b.ReportAllocs()
	for b.Loop() {
		var obj map[string]any
		_ = json.Unmarshal([]byte(objJSON), &obj)
		Prune(obj, s)
		Default(obj, s)
		if len(Validate(s, obj)) > 0 {
			b.Fatal("invalid")
		}
	}
}
