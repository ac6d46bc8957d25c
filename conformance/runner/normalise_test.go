package runner

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

func TestNormaliseJSON(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		keepMF bool
		want   string
	}{
		{"server-chosen metadata", `{"metadata":{"name":"a","uid":"0b6a1c9e-1f1e-4c3d-9a55-0d4d8c1f2e3a","resourceVersion":"42","creationTimestamp":"2026-01-02T03:04:05Z","generation":1}}`, false,
			`{"metadata":{"name":"a","uid":"<uid>","resourceVersion":"<resourceVersion>","creationTimestamp":"<time>","generation":1}}`},
		{"managedFields stripped", `{"metadata":{"managedFields":[{"manager":"m","time":"2026-01-02T03:04:05Z"}]}}`, false, `{"metadata":{}}`},
		{"managedFields kept, times normalised", `{"metadata":{"managedFields":[{"manager":"m","time":"2026-01-02T03:04:05Z"}]}}`, true,
			`{"metadata":{"managedFields":[{"manager":"m","time":"<time>"}]}}`},
		{"managedFields kept, in a time-free order", `{"metadata":{"managedFields":[{"manager":"bob","operation":"Apply","time":"2026-01-02T03:04:05Z"},{"manager":"alice","operation":"Apply","time":"2026-01-02T03:04:06Z"},{"manager":"alice","operation":"Update","subresource":"status"},{"manager":"alice","operation":"Update"}]}}`, true,
			`{"metadata":{"managedFields":[{"manager":"alice","operation":"Apply","time":"<time>"},{"manager":"bob","operation":"Apply","time":"<time>"},{"manager":"alice","operation":"Update"},{"manager":"alice","operation":"Update","subresource":"status"}]}}`},
		{"generated name replaced everywhere", `{"metadata":{"generateName":"web-","name":"web-x7k2p"},"spec":{"ref":"web-x7k2p"}}`, false,
			`{"metadata":{"generateName":"web-","name":"web-<gen>"},"spec":{"ref":"web-<gen>"}}`},
		{"cluster IPs and node ports", `{"spec":{"clusterIP":"10.0.0.17","clusterIPs":["10.0.0.17"],"ports":[{"port":80,"nodePort":31234}]}}`, false,
			`{"spec":{"clusterIP":"<ip>","clusterIPs":["<ip>"],"ports":[{"port":80,"nodePort":"<port>"}]}}`},
		{"headless service keeps None", `{"spec":{"clusterIP":"None"}}`, false, `{"spec":{"clusterIP":"None"}}`},
		{"zero nodePort kept", `{"spec":{"ports":[{"nodePort":0}]}}`, false, `{"spec":{"ports":[{"nodePort":0}]}}`},
		{"uuid inside label value", `{"metadata":{"labels":{"controller-uid":"0b6a1c9e-1f1e-4c3d-9a55-0d4d8c1f2e3a"}}}`, false,
			`{"metadata":{"labels":{"controller-uid":"<uuid>"}}}`},
		{"service-account volume name", `{"spec":{"volumes":[{"name":"kube-api-access-ab12c"}]}}`, false, `{"spec":{"volumes":[{"name":"kube-api-access-<gen>"}]}}`},
		{"continue token", `{"metadata":{"continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ","resourceVersion":"9"}}`, false,
			`{"metadata":{"continue":"<continue>","resourceVersion":"<resourceVersion>"}}`},
		{"list items' kind and apiVersion dropped", `{"kind":"ConfigMapList","apiVersion":"v1","items":[{"kind":"ConfigMap","apiVersion":"v1","data":{}}]}`, false,
			`{"kind":"ConfigMapList","apiVersion":"v1","items":[{"data":{}}]}`},
		{"empty continue kept", `{"metadata":{"continue":""}}`, false, `{"metadata":{"continue":""}}`},
		{"table age and IP cells", `{"kind":"Table","columnDefinitions":[{"name":"Name"},{"name":"Cluster-IP"},{"name":"Ports"},{"name":"Age","format":"date"}],"rows":[{"cells":["s","10.0.0.5","80:31000/TCP","3s"]}]}`, false,
			`{"kind":"Table","columnDefinitions":[{"name":"Name"},{"name":"Cluster-IP"},{"name":"Ports"},{"name":"Age","format":"date"}],"rows":[{"cells":["s","<ip>","80:<port>/TCP","<age>"]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NormaliseJSON(decode(t, tt.in), tt.keepMF)
			if d := cmp.Diff(decode(t, tt.want), got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestNormaliseStatus(t *testing.T) {
	body := `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,
	  "message":"Pod \"p\" is invalid: spec.x: Invalid value",
	  "details":{"name":"p","kind":"Pod","causes":[{"field":"spec.z","reason":"FieldValueRequired"},{"field":"spec.a","reason":"FieldValueInvalid"}]}}`
	obs := Normalise(Outcome{Code: 422, ContentType: "application/json", Body: []byte(body), Warnings: []string{`299 - "b"`, `299 - "a"`}}, NormaliseOptions{})
	assert.Equal(t, Observation{
		Code: 422, Media: "application/json", Reason: "Invalid", Message: `Pod "p" is invalid: spec.x: Invalid value`,
		Causes: []string{"spec.a: FieldValueInvalid", "spec.z: FieldValueRequired"}, Details: "/Pod/p",
		Warnings: []string{`299 - "a"`, `299 - "b"`},
	}, obs)
}

func TestNormaliseMedia(t *testing.T) {
	tests := map[string]string{
		"application/json":                                 "application/json",
		"application/json; charset=utf-8":                  "application/json",
		"application/json;as=Table;v=v1;g=meta.k8s.io":     "application/json;as=Table;g=meta.k8s.io;v=v1",
		"application/json;g=meta.k8s.io;v=v1;as=Table":     "application/json;as=Table;g=meta.k8s.io;v=v1",
		"application/vnd.kubernetes.protobuf;stream=watch": "application/vnd.kubernetes.protobuf;stream=watch",
	}
	for in, want := range tests {
		assert.Equal(t, want, normaliseMedia(in), in)
	}
}

func TestNormaliseText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"too old resource version: 5 (120)", "too old resource version: <rv> (<rv>)"},
		{`Get "https://127.0.0.1:6443/api": refused`, `Get "<server>/api": refused`},
		{"at 2026-01-02T03:04:05Z", "at <time>"},
		{"Too large resource version: 99, current: 606", "Too large resource version: <rv>, current: <rv>"},
		{"uid 0b6a1c9e-1f1e-4c3d-9a55-0d4d8c1f2e3a", "uid <uuid>"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, normaliseText(tt.in, []string{"https://127.0.0.1:6443"}), tt.in)
	}
	assert.Equal(t, "NAME AGE\nweb <age>", normaliseKubectlText("NAME   AGE\nweb    12s", nil))
	assert.Equal(t, normaliseKubectlText("NAME  IP\na     10.0.0.5", nil), normaliseKubectlText("NAME  IP\na     10.96.12.134", nil))
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		ref, sim Observation
		want     []Diff
	}{
		{"equal", Observation{Code: 200, Body: map[string]any{"a": 1.0}}, Observation{Code: 200, Body: map[string]any{"a": 1.0}}, nil},
		{"code and reason", Observation{Code: 422, Reason: "Invalid"}, Observation{Code: 201},
			[]Diff{{Step: "s", Aspect: "code", Ref: "422", Sim: "201"}, {Step: "s", Aspect: "reason", Ref: "Invalid", Sim: `""`}}},
		{"causes", Observation{Code: 422, Causes: []string{"a: x"}}, Observation{Code: 422, Causes: []string{"a: y"}},
			[]Diff{{Step: "s", Aspect: "causes", Ref: "a: x", Sim: "a: y"}}},
		{"body leaf and absent field", Observation{Code: 200, Body: map[string]any{"spec": map[string]any{"a": "1", "b": true}}}, Observation{Code: 200, Body: map[string]any{"spec": map[string]any{"a": "2"}}},
			[]Diff{{Step: "s", Aspect: "body", Path: "spec.a", Ref: "1", Sim: "2"}, {Step: "s", Aspect: "body", Path: "spec.b", Ref: "true", Sim: "(absent)"}}},
		{"list length", Observation{Code: 200, Body: []any{1.0}}, Observation{Code: 200, Body: []any{1.0, 2.0}},
			[]Diff{{Step: "s", Aspect: "body", Ref: "[1]", Sim: "[1,2]"}}},
		{"media only on success", Observation{Code: 404, Media: "a"}, Observation{Code: 404, Media: "b"}, nil},
		{"watch events", Observation{Code: 200, Events: []any{map[string]any{"type": "ADDED"}}}, Observation{Code: 200},
			[]Diff{{Step: "s", Aspect: "events", Path: "count", Ref: "1", Sim: "0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Compare("s", tt.ref, tt.sim))
		})
	}
}

func TestClassify(t *testing.T) {
	res := func(cat string, ref, sim Observation) Result {
		r := Result{ID: "x", Category: cat, Steps: []StepPair{{Name: "create", Ref: ref, Sim: sim}}}
		r.Diffs = Compare("create", ref, sim)
		return r
	}
	tests := []struct {
		name string
		r    Result
		want string
	}{
		{"unserved", res("create", Observation{Code: 201}, Observation{Code: 404, Reason: "NotFound", Message: "the server could not find the requested resource"}), "unserved-resource-type"},
		{"validation missing", res("mutation-enum", Observation{Code: 422, Reason: "Invalid"}, Observation{Code: 201}), "validation-missing"},
		{"immutability missing", res("immutable", Observation{Code: 422, Reason: "Invalid"}, Observation{Code: 200}), "immutability-missing"},
		{"overstrict", res("create", Observation{Code: 201}, Observation{Code: 422, Reason: "Invalid"}), "validation-overstrict"},
		{"error text", res("create", Observation{Code: 422, Reason: "Invalid", Message: "a"}, Observation{Code: 422, Reason: "Invalid", Message: "b"}), "error-text"},
		{"error status", res("create", Observation{Code: 422, Reason: "Invalid"}, Observation{Code: 400, Reason: "BadRequest"}), "error-status"},
		{"admission", res("create", Observation{Code: 201, Body: map[string]any{"spec": map[string]any{"volumes": []any{1.0}}}}, Observation{Code: 201, Body: map[string]any{"spec": map[string]any{}}}), "admission-defaults-missing"},
		{"quantity", res("create", Observation{Code: 201, Body: map[string]any{"resources": map[string]any{"cpu": "500m"}}}, Observation{Code: 201, Body: map[string]any{"resources": map[string]any{"cpu": "0.5"}}}), "canonical-forms"},
		{"warnings", res("create", Observation{Code: 201, Warnings: []string{"w"}}, Observation{Code: 201}), "warnings-differ"},
		{"crd", res("crd-create", Observation{Code: 201}, Observation{Code: 422}), "crd-schema-features"},
		{"ssa", res("ssa", Observation{Code: 409}, Observation{Code: 200}), "ssa-field-ownership-missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := Classify(tt.r)
			assert.Equal(t, tt.want, got)
			assert.NotEmpty(t, reason)
			_, documented := Classes[got]
			assert.True(t, documented)
		})
	}
}

func TestCheck(t *testing.T) {
	results := []Result{
		{ID: "agree"},
		{ID: "listed", Diffs: []Diff{{Aspect: "code"}}},
		{ID: "new", Diffs: []Diff{{Aspect: "code"}}},
		{ID: "fixed"},
	}
	known := map[string]Known{
		"listed": {Case: "listed", Class: "other", Reason: "r"},
		"fixed":  {Case: "fixed", Class: "other", Reason: "r"},
		"gone":   {Case: "gone", Class: "other", Reason: "r"},
	}
	v := Check(results, known)
	assert.Equal(t, []string{"new"}, ids(v.Unexpected))
	assert.Equal(t, []string{"listed"}, ids(v.Listed))
	assert.Equal(t, []Known{known["fixed"]}, v.NowAgree)
	assert.Equal(t, []Known{known["gone"]}, v.Stale)
}

func ids(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestLookup(t *testing.T) {
	v := decode(t, `{"metadata":{"resourceVersion":"7","continue":"x"},"items":[{"metadata":{"name":"a"}}]}`)
	assert.Equal(t, "7", lookup(v, "metadata.resourceVersion"))
	assert.Equal(t, "a", lookup(v, "items[0].metadata.name"))
	assert.Equal(t, "", lookup(v, "items[3].metadata.name"))
	assert.Equal(t, "", lookup(v, "nope.x"))
}

// TestNormaliseCRDStatus: a CRD's controller-written status reads the same whether the
// controllers have run (simulator, or a slow read-back) or not (a fast one on the reference).
func TestNormaliseCRDStatus(t *testing.T) {
	before := map[string]any{"kind": "CustomResourceDefinition", "status": map[string]any{
		"acceptedNames": map[string]any{"kind": "", "plural": ""}, "conditions": nil, "storedVersions": []any{"v1"}}}
	after := map[string]any{"kind": "CustomResourceDefinition", "status": map[string]any{
		"acceptedNames": map[string]any{"kind": "Foo", "plural": "foos"},
		"conditions":    []any{map[string]any{"type": "Established", "status": "True"}}, "storedVersions": []any{"v1"}}}
	if !reflect.DeepEqual(NormaliseJSON(before, false), NormaliseJSON(after, false)) {
		t.Fatalf("a CRD read before and after its controllers ran normalises differently:\n%v\n%v", NormaliseJSON(before, false), NormaliseJSON(after, false))
	}
	other := map[string]any{"kind": "ConfigMap", "status": map[string]any{"conditions": []any{"x"}}}
	if reflect.DeepEqual(NormaliseJSON(other, false), map[string]any{"kind": "ConfigMap", "status": map[string]any{"conditions": "<written by the CRD controllers>"}}) {
		t.Fatal("only CRDs are normalised so")
	}
}
