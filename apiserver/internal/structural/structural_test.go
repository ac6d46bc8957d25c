package structural

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// testdata/reference.json holds what kube-apiserver v1.36.3 answered to each case: the
// causes of a CRD whose only version has the case's schema (so the real server reports
// them under spec.validation.openAPIV3Schema), and, for each object created against such
// a CRD, the code, causes, message, Warning headers and what was stored. The tests put
// the same schemas and objects through this package and expect the same answers; where
// the real server walks Go maps (and so reports in random order) causes compare as sets.
type reference struct {
	Schemas []struct {
		Name     string         `json:"name"`
		Schema   map[string]any `json:"schema"`
		Status   bool           `json:"status"`
		Causes   []string       `json:"causes"`
		Warnings []string       `json:"warnings"`
	} `json:"schemas"`
	Objects []struct {
		Name    string         `json:"name"`
		Schema  map[string]any `json:"schema"`
		Results []struct {
			Object   map[string]any `json:"object"`
			Code     int            `json:"code"`
			Causes   []string       `json:"causes"`
			Message  string         `json:"message"`
			Warnings []string       `json:"warnings"`
			Stored   map[string]any `json:"stored"`
		} `json:"results"`
	} `json:"objects"`
}

func loadReference(t testing.TB) reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	require.NoError(t, err)
	var ref reference
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&ref))
	for i := range ref.Schemas {
		ref.Schemas[i].Schema = numbers(ref.Schemas[i].Schema).(map[string]any)
	}
	for i := range ref.Objects {
		ref.Objects[i].Schema = numbers(ref.Objects[i].Schema).(map[string]any)
		for j := range ref.Objects[i].Results {
			r := &ref.Objects[i].Results[j]
			r.Object = numbers(r.Object).(map[string]any)
			if r.Stored != nil {
				r.Stored = numbers(r.Stored).(map[string]any)
			}
		}
	}
	return ref
}

// numbers turns json.Number into int64 or float64, as the server's decoder does.
func numbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	}
	return v
}

func causeLines(causes []api.StatusCause) []string {
	var out []string
	for _, c := range causes {
		out = append(out, c.Field+"|"+string(c.Type)+"|"+c.Message)
	}
	slices.Sort(out)
	return out
}

func unquoteWarnings(ws []string) []string {
	var out []string
	for _, w := range ws {
		s, err := strconv.Unquote(strings.TrimPrefix(w, "299 - "))
		if err != nil {
			s = w
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestCh13_CRD_SchemaChecksAgreeWithReference puts each reference schema through Check: the
// structural rules, the defaults, the OpenAPI rules of CRDs, the static checks of
// x-kubernetes-validations, and the warnings for formats the server does not check.
func TestCh13_CRD_SchemaChecksAgreeWithReference(t *testing.T) {
	for _, tc := range loadReference(t).Schemas {
		t.Run(tc.Name, func(t *testing.T) {
			s, causes := Check(tc.Schema, "spec.validation.openAPIV3Schema", CheckOptions{StatusSubresource: tc.Status})
			assert.Empty(t, cmp.Diff(tc.Causes, causeLines(causes), cmpopts.EquateEmpty()))
			var warnings []string
			for _, f := range UnrecognizedFormats(s) {
				warnings = append(warnings, fmt.Sprintf("unrecognized format %q", f))
			}
			slices.Sort(warnings)
			assert.Empty(t, cmp.Diff(unquoteWarnings(tc.Warnings), warnings, cmpopts.EquateEmpty()))
		})
	}
}

// decodeAndValidate runs an object through what a create does with it: the custom
// resource decoder (metadata, pruning, nulls, embedded metadata, defaults), then the
// strategy's checks (schema, embedded resources, list sets and maps). It returns the HTTP
// code the real server would answer, with the causes or the message, and the warnings.
func decodeAndValidate(s *Schema, obj map[string]any) (int, []api.StatusCause, string, []string) {
	unknown, err := CoerceObjectMeta(obj)
	if err != nil {
		return 400, nil, err.Error(), nil
	}
	unknown = append(unknown, Prune(obj, s, true)...)
	PruneNulls(obj, s)
	embedded, cerr := Coerce(obj, s)
	if cerr != nil {
		return 400, nil, cerr.Field + ": " + cerr.Message, nil
	}
	unknown = append(unknown, embedded...)
	var warnings []string
	for _, u := range unknown {
		warnings = append(warnings, "unknown field "+strconv.Quote(u))
	}
	Default(obj, s)
	causes := Validator{Schema: s}.Validate("", obj)
	causes = append(causes, ValidateEmbedded(obj, s)...)
	causes = append(causes, ValidateListSetsAndMaps(s, obj)...)
	if len(causes) > 0 {
		return 422, causes, "", warnings
	}
	return 201, nil, "", warnings
}

// TestCh13_CRD_ObjectsAgreeWithReference creates each reference object against its schema:
// the same code, the same causes, the same message for a decoding error, the same
// warnings, and what is stored (pruned and defaulted) the same.
func TestCh13_CRD_ObjectsAgreeWithReference(t *testing.T) {
	for _, tc := range loadReference(t).Objects {
		s := Parse(tc.Schema)
		for i, r := range tc.Results {
			t.Run(fmt.Sprintf("%s/%d", tc.Name, i), func(t *testing.T) {
				obj := deepCopy(r.Object).(map[string]any)
				obj["apiVersion"], obj["kind"] = "cap.example.com/v1", "Cap"
				if _, ok := obj["metadata"]; !ok {
					obj["metadata"] = map[string]any{"name": "x"}
				}
				code, causes, msg, warnings := decodeAndValidate(s, obj)
				require.Equal(t, r.Code, code, "%v", causeLines(causes))
				assert.Empty(t, cmp.Diff(r.Causes, causeLines(causes), cmpopts.EquateEmpty()))
				if code == 400 {
					assert.True(t, strings.HasSuffix(r.Message, ": "+msg), "%q\nends with\n%q", r.Message, msg)
				}
				slices.Sort(warnings)
				assert.Empty(t, cmp.Diff(unquoteWarnings(r.Warnings), warnings, cmpopts.EquateEmpty()))
				if code == 201 {
					delete(obj, "metadata")
					delete(obj, "apiVersion")
					delete(obj, "kind")
					delete(r.Stored, "apiVersion")
					delete(r.Stored, "kind")
					assert.Empty(t, cmp.Diff(r.Stored, obj, cmpopts.EquateEmpty()))
				}
			})
		}
	}
}

const ratchetSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
 "a":{"type":"string","maxLength":3},"b":{"type":"string","maxLength":3},
 "l":{"type":"array","items":{"type":"string","maxLength":1}},
 "m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
  "items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer","maximum":5}}}}}}}}`

// TestCh13_CRD_Ratcheting checks the ratcheting of ValidateUpdate: an update is refused
// only for the values it changes; an unchanged invalid value (a member, a map-list item
// found by its key) is carried along. Items of other lists do not correlate: a list that
// changes is checked whole.
func TestCh13_CRD_Ratcheting(t *testing.T) {
	s := Parse(tree(t, ratchetSchema))
	old := tree(t, `{"spec":{"a":"toolong","b":"ok","l":["xx","y"],"m":[{"k":"a","v":9},{"k":"b","v":1}]}}`)
	tests := []struct {
		name, obj string
		want      []string
	}{
		{"nothing changes", `{"spec":{"a":"toolong","b":"ok","l":["xx","y"],"m":[{"k":"a","v":9},{"k":"b","v":1}]}}`, nil},
		{"another member changes", `{"spec":{"a":"toolong","b":"ok2","l":["xx","y"],"m":[{"k":"b","v":1},{"k":"a","v":9}]}}`, nil},
		{"the invalid member changes", `{"spec":{"a":"toolong2","b":"ok","l":["xx","y"],"m":[{"k":"a","v":9}]}}`,
			[]string{"spec.a|FieldValueTooLong|Too long: may not be more than 3 bytes"}},
		{"a plain list changes elsewhere", `{"spec":{"a":"toolong","l":["xx","z"]}}`,
			[]string{"spec.l[0]|FieldValueTooLong|Too long: may not be more than 1 byte"}},
		{"a map-list item changes", `{"spec":{"m":[{"k":"a","v":8}]}}`,
			[]string{"spec.m[0].v|FieldValueInvalid|Invalid value: 8: spec.m[0].v in body should be less than or equal to 5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Validator{Schema: s}.ValidateUpdate("", tree(t, tt.obj), old)
			assert.Empty(t, cmp.Diff(tt.want, causeLines(got), cmpopts.EquateEmpty()))
		})
	}
	assert.Len(t, Validator{Schema: s}.Validate("", old), 3, "without ratcheting the old errors are all found")
}

func tree(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return numbers(m).(map[string]any)
}

// TestCh13_CRD_ValidFieldPath checks the fieldPath of a rule against the schema.
func TestCh13_CRD_ValidFieldPath(t *testing.T) {
	s := Parse(tree(t, `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}},
		"m":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}}}}`))
	tests := []struct{ path, want, err string }{
		{".a.b", "a.b", ""},
		{".m['dotted.key'].x", "m[dotted.key].x", ""},
		{"['a'].b", "a.b", ""},
		{".a.c", "", "does not refer to a valid field"},
		{".a[0]", "", "expected single quoted string but got 0"},
		{"a", "", "expected [ or . but got: a"},
		{".a.", "", "unexpected end of JSON path"},
	}
	for _, tt := range tests {
		got, _, err := ValidFieldPath(tt.path, s)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err, tt.path)
			continue
		}
		assert.NoError(t, err, tt.path)
		assert.Equal(t, tt.want, got, tt.path)
	}
}

// ExampleValidator shows the message a custom object out of range gets.
func ExampleValidator() {
	var sch map[string]any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"replicas":{"type":"integer","maximum":10},
		"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}}}`), &sch)
	obj := map[string]any{"spec": map[string]any{"replicas": int64(12), "port": true}}
	for _, c := range (Validator{Schema: Parse(sch)}).Validate("", obj) {
		fmt.Println(c.Field + ": " + c.Message)
	}
	// Output:
	// spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"
	// <nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)
	// spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"
	// spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10
}

// FuzzCRDSchemaValidate feeds random schemas and values through the whole path a custom
// object takes: Check, Prune, Default, Validate. None may panic, and pruning is idempotent.
func FuzzCRDSchemaValidate(f *testing.F) {
	f.Add([]byte(ratchetSchema), []byte(`{"spec":{"a":"x","m":[{"k":"a"},{"k":"a"},3]}}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"enum":[1,"a"]}}}`), []byte(`{"a":null}`))
	f.Add([]byte(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","default":{"z":1}}}}}}`), []byte(`{"m":{"x":[{},null,3]}}`))
	f.Add([]byte(`{"type":"object","properties":{"s":{"type":"string","pattern":"^a+$","format":"date-time","minLength":2}},"anyOf":[{"required":["s"]}],"not":{"properties":{"s":{"enum":["b"]}}}}`), []byte(`{"s":"aaa"}`))
	f.Add([]byte(`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`), []byte(`{"e":{"apiVersion":"v1","kind":"x","metadata":{"name":"a","labels":{"a":"b"}}}}`))
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		var sch, obj map[string]any
		if json.Unmarshal(schemaJSON, &sch) != nil || json.Unmarshal(objJSON, &obj) != nil || sch == nil || obj == nil {
			return
		}
		sch, obj = numbers(sch).(map[string]any), numbers(obj).(map[string]any)
		s, _ := Check(sch, "s", CheckOptions{StatusSubresource: true})
		old := deepCopy(obj)
		Prune(obj, s, true)
		if again := Prune(obj, s, true); len(again) > 0 {
			t.Fatalf("second prune removed %v", again)
		}
		PruneNulls(obj, s)
		_, _ = Coerce(obj, s)
		Default(obj, s)
		_ = Validator{Schema: s}.Validate("", obj)
		_ = Validator{Schema: s}.ValidateUpdate("", obj, old)
		_ = ValidateEmbedded(obj, s)
		_ = ValidateListSetsAndMaps(s, obj)
	})
}

// BenchmarkPruneDefaultValidate is the schema work of one custom object write.
func BenchmarkPruneDefaultValidate(b *testing.B) {
	s := Parse(tree(b, ratchetSchema))
	const objJSON = `{"apiVersion":"x/v1","kind":"Foo","metadata":{"name":"a"},"bogus":1,
		"spec":{"a":"x","b":"y","l":["a","b"],"m":[{"k":"a","v":1},{"k":"b","v":2}]}}`
	b.ReportAllocs()
	for b.Loop() {
		var obj map[string]any
		_ = json.Unmarshal([]byte(objJSON), &obj)
		obj = numbers(obj).(map[string]any)
		Prune(obj, s, true)
		Default(obj, s)
		if len(Validator{Schema: s}.Validate("", obj)) > 0 {
			b.Fatal("invalid")
		}
	}
}
