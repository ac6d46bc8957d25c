package decode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

var (
	decodePodGVK    = api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	decodeDeployGVK = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
)

// TestCh01_DecodeBody covers the accepted bodies: C1 (kind and apiVersion optional),
// E7 (unknown fields warned or ignored) and unstructured custom kinds.
func TestCh01_DecodeBody(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		gvk      api.GroupVersionKind
		fv       string
		want     api.Object
		warnings []string
	}{
		{"C1 full", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, nil},
		{"C1 no kind or apiVersion", `{"metadata":{"name":"a"}}`, decodePodGVK, "Strict",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"}}, nil},
		{"C1 kind only", `{"kind":"Pod","metadata":{"name":"a"}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"}}, nil},
		{"E7 warn by default", `{"kind":"Pod","metadata":{"name":"a"},"spec":{"bogus":1,"containers":[{"name":"c","imagee":"x"}]}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}},
			[]string{`unknown field "spec.bogus"`, `unknown field "spec.containers[0].imagee"`}},
		{"E7 Warn duplicates", `{"metadata":{"name":"a","name":"b"}}`, decodePodGVK, "Warn",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "b"}},
			[]string{`duplicate field "metadata.name"`}},
		{"E7 Ignore", `{"metadata":{"name":"a","bogus":true}}`, decodePodGVK, "Ignore",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"}}, nil},
		{"member names are case-sensitive", `{"metadata":{"name":"a"},"Metadata":{"name":"b"}}`, decodePodGVK, "Ignore",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "a"}}, nil},
		{"case variant warned and dropped", `{"Metadata":{"name":"b"}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}}, []string{`unknown field "Metadata"`}},
		{"values of opaque types are not inspected", `{"metadata":{"name":"a","creationTimestamp":"2026-01-02T03:04:05Z"},"binaryData":{"k":"AQI="}}`,
			api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "Strict",
			&api.ConfigMap{TypeMeta: api.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
				ObjectMeta: api.ObjectMeta{Name: "a", CreationTimestamp: decodeTestTime(t, "2026-01-02T03:04:05Z")}, BinaryData: map[string][]byte{"k": {1, 2}}}, nil},
		{"custom kind", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}`, decodeDeployGVK, "Strict",
			&api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
				"metadata": map[string]any{"name": "web"}, "spec": map[string]any{"replicas": int64(3)}}}, nil},
		{"custom kind defaulted", `{"metadata":{"name":"web"}}`, decodeDeployGVK, "",
			&api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"}}}, nil},
		{"custom kind duplicates", `{"metadata":{"name":"web"},"spec":{"a":1,"a":2}}`, decodeDeployGVK, "",
			&api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
				"spec": map[string]any{"a": int64(2)}}}, []string{`duplicate field "spec.a"`}},
		{"escaped member names match after unescaping", `{"meta\u0064ata":{"name":"a","n\u0061me":"b"}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "b"}},
			[]string{`duplicate field "metadata.name"`}},
		{"big objects use the duplicate map", `{"metadata":{"labels":{` + manyLabels(40) + `,"k7":"again"}}}`, decodePodGVK, "",
			&api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Labels: manyLabelsMap(40, "k7", "again")}},
			[]string{`duplicate field "metadata.labels.k7"`}},
		{"null body", `null`, decodePodGVK, "", &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj, warnings, err := Body(api.DefaultScheme, []byte(tc.body), tc.gvk, tc.fv)
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, obj); diff != "" {
				t.Errorf("object mismatch (-want +got):\n%s", diff)
			}
			assert.Equal(t, tc.warnings, warnings)
		})
	}
}

func manyLabels(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"k%d":"v"`, i)
	}
	return strings.Join(parts, ",")
}

func manyLabelsMap(n int, k, v string) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprintf("k%d", i)] = "v"
	}
	m[k] = v
	return m
}

func decodeTestTime(t *testing.T, s string) api.Time {
	t.Helper()
	var tm api.Time
	require.NoError(t, tm.UnmarshalJSON([]byte(`"`+s+`"`)))
	return tm
}

// TestCh01_DecodeBodyErrors checks E1–E6 with the real texts.
func TestCh01_DecodeBodyErrors(t *testing.T) {
	tests := []struct {
		id   string
		body string
		gvk  api.GroupVersionKind
		fv   string
		code int32
		msg  string
	}{
		{"E1 truncated", `{"apiVersion":"v1","kind":"Pod",`, decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Pod ...)`},
		{"E1 short", `{"a":`, decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input ({"a":)`},
		{"E1 empty", ``, decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`},
		{"E1 YAML", "kind: Pod\n", decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'k' looking for beginning of value (6b696e643a20506f640a)`},
		{"E2 array", `[1,2]`, decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" } (5b312c325d)`},
		{"E2 kind not a string", `{"kind":5}`, decodePodGVK, "", 400,
			`the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})`},
		{"E3", `{"metadata":{"name":5}}`, decodePodGVK, "", 400,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string`},
		{"E3 before E6", `{"metadata":{"name":5},"bogus":1}`, decodePodGVK, "Strict", 400,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string`},
		{"E4", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, decodePodGVK, "", 400,
			`ConfigMap in version "v1" cannot be handled as a Pod: converting (v1.ConfigMap) to (core.Pod): unknown conversion`},
		{"E4 unknown kind", `{"apiVersion":"v1","kind":"Bogus"}`, decodePodGVK, "", 400,
			`Bogus in version "v1" cannot be handled as a Pod: no kind "Bogus" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`},
		{"E4 custom endpoint", `{"apiVersion":"v1","kind":"Pod"}`, decodeDeployGVK, "", 400,
			`Pod in version "v1" cannot be handled as a Deployment: converting (v1.Pod) to (apps.Deployment): unknown conversion`},
		{"E5", `{"apiVersion":"v2","kind":"Pod"}`, decodePodGVK, "", 400,
			`the API version in the data (v2) does not match the expected API version (v1)`},
		{"E5 group", `{"apiVersion":"extensions/v1beta1","kind":"Deployment"}`, decodeDeployGVK, "", 400,
			`the API version in the data (extensions/v1beta1) does not match the expected API version (apps/v1)`},
		{"E6", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"bogus":true}}`, decodePodGVK, "Strict", 400,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"`},
		{"E6 several", `{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c"},{"name":"d","x":1}]},"zz":1}`, decodePodGVK, "Strict", 400,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.name", unknown field "spec.containers[1].x", unknown field "zz"`},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			obj, warnings, err := Body(api.DefaultScheme, []byte(tc.body), tc.gvk, tc.fv)
			require.Error(t, err)
			assert.Nil(t, obj)
			assert.Nil(t, warnings)
			assert.Equal(t, tc.code, api.CodeForError(err))
			assert.Equal(t, tc.msg, err.Error())
		})
	}
}

func TestCh01_DecodeBodyLongSummary(t *testing.T) {
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + strings.Repeat("x", 100)
	_, _, err := Body(api.DefaultScheme, []byte(body), decodePodGVK, "")
	assert.EqualError(t, err, `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Pod ...)`)
}

const benchPodJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default","labels":{"app":"web","tier":"frontend"},"annotations":{"note":"x"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"},{"name":"sidecar","image":"busybox"}],"restartPolicy":"Always","nodeName":"node-1"},"status":{"phase":"Running","podIP":"10.0.0.7"}}`

func BenchmarkDecodeBodyPod(b *testing.B) {
	for _, fv := range []string{"Ignore", "Warn"} {
		b.Run(fv, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Body(api.DefaultScheme, []byte(benchPodJSON), decodePodGVK, fv); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func FuzzDecodeBody(f *testing.F) {
	f.Add([]byte(benchPodJSON), "Strict", false)
	f.Add([]byte(`{"metadata":{"name":"a","name":"b"},"Spec":{}}`), "", false)
	f.Add([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","spec":{"a":[1,{"b":null}]}}`), "Warn", true)
	f.Add([]byte(`[1,2]`), "Ignore", false)
	f.Add([]byte(`{"kind":"ConfigMap"}`), "", false)
	f.Fuzz(func(t *testing.T, body []byte, fv string, custom bool) {
		gvk := decodePodGVK
		if custom {
			gvk = decodeDeployGVK
		}
		obj, _, err := Body(api.DefaultScheme, body, gvk, fv)
		if err != nil {
			if c := api.CodeForError(err); c != 400 && c != 422 {
				t.Fatalf("error is not a 400/422 Status: %v", err)
			}
			return
		}
		if got := obj.GetObjectKind().GroupVersionKind(); got != gvk {
			t.Fatalf("decoded kind %v, want %v", got, gvk)
		}
	})
}
