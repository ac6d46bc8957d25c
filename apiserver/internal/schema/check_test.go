package schema

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const quantityText = `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`

func TestCh01_SchemaCheckQuantity(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" accepted
	}{
		{"1", ""}, {"0", ""}, {"100m", ""}, {"1.5Gi", ""}, {"-2", ""}, {"+3k", ""}, {"1e3", ""},
		{"1E-2", ""}, {"128974848", ""}, {"129e6", ""}, {"123Mi", ""}, {".5", ""}, {"5.", ""}, {"-", ""},
		{"", quantityText}, {"1x", quantityText}, {"abc", quantityText}, {"1.2.3", quantityText},
		{"1 Gi", quantityText}, {"true", quantityText}, {"{}", quantityText},
		{"1mK", "unable to parse quantity's suffix"}, {"1e", "unable to parse quantity's suffix"},
		{"1Gib", quantityText}, {"1Ki+5", "unable to parse quantity's suffix"}, {"1e-", "unable to parse quantity's suffix"},
	}
	for _, tc := range tests {
		err := CheckQuantity(tc.in)
		if tc.want == "" {
			assert.NoError(t, err, tc.in)
		} else {
			assert.EqualError(t, err, tc.want, tc.in)
		}
	}
}

// TestCh01_SchemaCheck covers each kind and format with the texts of the real decoders.
func TestCh01_SchemaCheck(t *testing.T) {
	var (
		i32      = &Schema{Kind: KindInteger, Format: "int32"}
		i64      = &Schema{Kind: KindInteger, Format: "int64"}
		f64      = &Schema{Kind: KindNumber, Format: "double"}
		b        = &Schema{Kind: KindBoolean}
		str      = &Schema{Kind: KindString}
		bytesS   = &Schema{Kind: KindString, Format: "byte"}
		tm       = &Schema{Kind: KindString, Format: "date-time", Name: "io.k8s.apimachinery.pkg.apis.meta.v1.Time"}
		micro    = &Schema{Kind: KindString, Format: "date-time", Name: microTimeName}
		ios      = &Schema{Kind: KindIntOrString, Name: "io.k8s.apimachinery.pkg.util.intstr.IntOrString"}
		qty      = &Schema{Kind: KindQuantity, Name: quantityName}
		spec     = &Schema{Kind: KindObject, Name: "io.k8s.api.apps.v1.DeploymentSpec", Properties: map[string]*Property{}}
		strings  = &Schema{Kind: KindArray, Items: str}
		anything = &Schema{Kind: KindAny}
	)
	tests := []struct {
		name string
		s    *Schema
		k    JSONKind
		text string
		want string // "" accepted
		stop bool
	}{
		{"int32", i32, JSONNumber, "3", "", false},
		{"int32 from string", i32, JSONString, "3", "json: cannot unmarshal string into Go value of type int32", false},
		{"int32 fraction", i32, JSONNumber, "1.5", "json: cannot unmarshal number 1.5 into Go value of type int32", false},
		{"int32 overflow", i32, JSONNumber, "2147483648", "json: cannot unmarshal number 2147483648 into Go value of type int32", false},
		{"int64", i64, JSONNumber, "9223372036854775807", "", false},
		{"int64 from bool", i64, JSONBool, "true", "json: cannot unmarshal bool into Go value of type int64", false},
		{"float", f64, JSONNumber, "1e3", "", false},
		{"float overflow", f64, JSONNumber, "1e400", "json: cannot unmarshal number 1e400 into Go value of type float64", false},
		{"bool", b, JSONBool, "false", "", false},
		{"bool from string", b, JSONString, "yes", "json: cannot unmarshal string into Go value of type bool", false},
		{"string from object", str, JSONObject, "{}", "json: cannot unmarshal object into Go value of type string", false},
		{"struct from array", spec, JSONArray, "[]", "json: cannot unmarshal array into Go value of type v1.DeploymentSpec", false},
		{"slice from string", strings, JSONString, "ls", "json: cannot unmarshal string into Go value of type []string", false},
		{"null is always fine", i32, JSONNull, "", "", false},
		{"any", anything, JSONArray, "[]", "", false},
		{"byte", bytesS, JSONString, "aGVsbG8=", "", false},
		{"byte bad", bytesS, JSONString, "hello!", "illegal base64 data at input byte 5", false},
		{"byte padding", bytesS, JSONString, "aGVsbG8", "illegal base64 data at input byte 4", false},
		{"byte from number", bytesS, JSONNumber, "1", "json: cannot unmarshal number into Go value of type []uint8", false},
		{"date-time", tm, JSONString, "2026-01-02T03:04:05Z", "", false},
		{"date-time offset", tm, JSONString, "2026-01-02T03:04:05.123+02:00", "", false},
		{"date-time bad", tm, JSONString, "yesterday", `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`, true},
		{"date-time number", tm, JSONNumber, "5", "json: cannot unmarshal number into Go value of type string", true},
		{"micro-time", micro, JSONString, "2026-01-02T03:04:05.000001Z", "", false},
		{"micro-time needs micros", micro, JSONString, "2026-01-02T03:04:05Z", `parsing time "2026-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"`, true},
		{"int-or-string int", ios, JSONNumber, "8080", "", false},
		{"int-or-string string", ios, JSONString, "http", "", false},
		{"int-or-string float", ios, JSONNumber, "1.5", "json: cannot unmarshal number 1.5 into Go value of type int32", true},
		{"int-or-string bool", ios, JSONBool, "true", "json: cannot unmarshal bool into Go value of type int32", true},
		{"int-or-string object", ios, JSONObject, "{}", "json: cannot unmarshal object into Go value of type int32", true},
		{"quantity string", qty, JSONString, "500m", "", false},
		{"quantity number", qty, JSONNumber, "0.5", "", false},
		{"quantity spaces trimmed", qty, JSONString, " 1Gi ", "", false},
		{"quantity bad", qty, JSONString, "lots", quantityText, true},
		{"quantity bool", qty, JSONBool, "true", quantityText, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Check(tc.k, tc.text)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.want)
			_, stop := err.(*StopError)
			assert.Equal(t, tc.stop, stop)
		})
	}
}

func TestCh01_SchemaTypeErrorText(t *testing.T) {
	err := &TypeError{Value: "string", Type: "int32", Struct: "DeploymentSpec", Field: "spec.replicas"}
	assert.EqualError(t, err, "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32")
}

// TestCh01_SchemaValidate checks a decoded tree: pruning, nulls, errors, required.
func TestCh01_SchemaValidate(t *testing.T) {
	d := parseTestDocument(t)
	w, _ := d.ForKind(widgetGVK)
	tests := []struct {
		name     string
		in       string
		want     string
		err      string
		unknown  []string
		required []string
	}{
		{"valid", `{"kind":"Widget","spec":{"size":"1Gi","port":80,"tags":{"a":"b"},"raw":{"x":[1]},"ratio":0.5,"blob":"AQI=","children":[{"size":2}]}}`,
			`{"kind":"Widget","spec":{"size":"1Gi","port":80,"tags":{"a":"b"},"raw":{"x":[1]},"ratio":0.5,"blob":"AQI=","children":[{"size":2}]}}`, "", nil, nil},
		{"unknown pruned", `{"spec":{"size":"1","zz":1,"aa":{"b":1},"children":[{"size":1,"q":true}]},"top":1}`,
			`{"spec":{"size":"1","children":[{"size":1}]}}`, "", []string{"spec.aa", "spec.children[0].q", "spec.zz", "top"}, nil},
		{"preserved", `{"spec":{"size":"1"},"extra":{"n":1,"other":{"deep":true}}}`, `{"spec":{"size":"1"},"extra":{"n":1,"other":{"deep":true}}}`, "", nil, nil},
		{"known inside preserved is checked", `{"spec":{"size":"1"},"extra":{"n":"x"}}`, "", "json: cannot unmarshal string into Go struct field Widget.extra.n of type int32", nil, nil},
		{"null dropped", `{"spec":{"size":"1","port":null,"tags":{"a":null}}}`, `{"spec":{"size":"1","tags":{"a":""}}}`, "", nil, nil},
		{"required", `{"spec":{"children":[{"size":"1"},{}]}}`, `{"spec":{"children":[{"size":"1"},{}]}}`, "", nil, []string{"spec.children[1].size", "spec.size"}},
		{"required top", `{}`, `{}`, "", nil, []string{"spec"}},
		{"type error", `{"spec":{"size":"1","ratio":"half"}}`, "", "json: cannot unmarshal string into Go struct field WidgetSpec.spec.ratio of type float64", nil, nil},
		{"format error", `{"spec":{"size":"1x"}}`, "", quantityText, nil, nil},
		{"first error wins", `{"spec":{"ratio":"a","tags":{"x":1}}}`, "", "json: cannot unmarshal string into Go struct field WidgetSpec.spec.ratio of type float64", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.in), &obj))
			res := w.Validate(obj)
			if tc.err != "" {
				require.EqualError(t, res.Err, tc.err)
				return
			}
			require.NoError(t, res.Err)
			assert.Equal(t, tc.unknown, res.Unknown)
			assert.Equal(t, tc.required, res.Required)
			var want map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.want), &want))
			if diff := cmp.Diff(want, obj); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCh01_SchemaValidateStatusNotRequired(t *testing.T) {
	pod, _ := ForKind(podGVK)
	obj := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c"}}},
		"status": map[string]any{"containerStatuses": []any{map[string]any{"name": "c"}}}}
	res := pod.Validate(obj)
	require.NoError(t, res.Err)
	assert.Empty(t, res.Required)
}

// FuzzSchemaValidate validates arbitrary JSON trees against the Pod schema and the test
// schema: it must never panic, and a second pass over the result finds nothing to prune.
func FuzzSchemaValidate(f *testing.F) {
	f.Add(`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"}}}]}}`)
	f.Add(`{"metadata":{"name":"a","labels":{"x":1},"creationTimestamp":"now"},"spec":{"zz":[null,{}]}}`)
	f.Add(`{"spec":{"size":1.5,"port":true,"children":[null,{"children":[{}]}],"blob":"??"},"extra":{"n":1e40}}`)
	f.Add(`{"kind":null,"status":{"phase":3}}`)
	pod, ok := ForKind(podGVK)
	require.True(f, ok)
	d := parseTestDocument(f)
	widget, _ := d.ForKind(widgetGVK)
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range []*Schema{pod, widget} {
			var obj map[string]any
			if json.Unmarshal([]byte(in), &obj) != nil || obj == nil {
				return
			}
			res := s.Validate(obj)
			if res.Err != nil {
				continue
			}
			again := s.Validate(obj)
			if len(again.Unknown) > 0 || again.Err != nil {
				t.Fatalf("second pass found %v, %v", again.Unknown, again.Err)
			}
		}
	})
}
