package validation

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

const (
	subdomainDetail = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	labelDetail     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	labelValDetail  = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	keyNameDetail   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)

func metaTestPod(name string, mutate func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	if mutate != nil {
		mutate(p)
	}
	return p
}

// TestCh01_S3_InvalidNameStatus checks the whole 422 body of docs/behaviour/wire.md S3 (E12).
func TestCh01_S3_InvalidNameStatus(t *testing.T) {
	err := ValidateObjectMeta("Pod", metaTestPod("Bad_Name", nil), false, true)
	require.Error(t, err)
	b, jerr := json.Marshal(err)
	require.NoError(t, jerr)
	want := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
	 "message":"Pod \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": ` + jsonEscapeText(subdomainDetail) + `",
	 "reason":"Invalid",
	 "details":{"name":"Bad_Name","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad_Name\": ` + jsonEscapeText(subdomainDetail) + `","field":"metadata.name"}]},
	 "code":422}`
	assert.JSONEq(t, want, string(b))
}

func jsonEscapeText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestCh01_ValidateObjectMeta covers E11–E16 and the other metadata rules.
func TestCh01_ValidateObjectMeta(t *testing.T) {
	long := strings.Repeat("a", 254)
	tests := []struct {
		id        string
		kind      string
		obj       api.MetaObject
		label     bool
		namespace bool
		msg       string // "" = valid
	}{
		{"valid pod", "Pod", metaTestPod("web-1.example", nil), false, true, ""},
		{"valid namespace", "Namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}}, true, false, ""},
		{"E12 subdomain", "ConfigMap", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "UPPER", Namespace: "d"}}, false, true,
			`ConfigMap "UPPER" is invalid: metadata.name: Invalid value: "UPPER": ` + subdomainDetail},
		{"E13 namespace label", "Namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "Bad_NS"}}, true, false,
			`Namespace "Bad_NS" is invalid: metadata.name: Invalid value: "Bad_NS": ` + labelDetail},
		{"E13 dots", "Namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "a.b"}}, true, false,
			`Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots`},
		{"E14 253", "Pod", metaTestPod(long, nil), false, true,
			`Pod "` + long + `" is invalid: metadata.name: Invalid value: "` + long + `": must be no more than 253 characters`},
		{"E14 63", "Namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: strings.Repeat("n", 64)}}, true, false,
			`Namespace "` + strings.Repeat("n", 64) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("n", 64) + `": must be no more than 63 characters`},
		{"E15", "ConfigMap", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "d"}}, false, true,
			`ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"generateName ending in a dash is fine", "Pod", metaTestPod("web-x7k2p", func(p *api.Pod) { p.GenerateName = "web-" }), false, true, ""},
		{"bad generateName", "Pod", metaTestPod("Web-x7k2p", func(p *api.Pod) { p.GenerateName = "Web-" }), false, true,
			`Pod "Web-x7k2p" is invalid: [metadata.generateName: Invalid value: "Web-": ` + subdomainDetail + `, metadata.name: Invalid value: "Web-x7k2p": ` + subdomainDetail + `]`},
		{"E16 label value", "Pod", metaTestPod("p", func(p *api.Pod) { p.Labels = map[string]string{"app": "v@l"} }), false, true,
			`Pod "p" is invalid: metadata.labels: Invalid value: "v@l": ` + labelValDetail},
		{"E16 label key", "Pod", metaTestPod("p", func(p *api.Pod) { p.Labels = map[string]string{"a@b": "x"} }), false, true,
			`Pod "p" is invalid: metadata.labels: Invalid value: "a@b": ` + keyNameDetail},
		{"E16 label key prefix", "Pod", metaTestPod("p", func(p *api.Pod) { p.Labels = map[string]string{"/x": "y"} }), false, true,
			`Pod "p" is invalid: metadata.labels: Invalid value: "/x": prefix part must be non-empty`},
		{"E16 long value", "Pod", metaTestPod("p", func(p *api.Pod) { p.Labels = map[string]string{"k": strings.Repeat("v", 64)} }), false, true,
			`Pod "p" is invalid: metadata.labels: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`},
		{"E16 prefixed key ok", "Pod", metaTestPod("p", func(p *api.Pod) { p.Labels = map[string]string{"example.com/app": "", "app.kubernetes.io/name": "x"} }), false, true, ""},
		{"annotation key", "Pod", metaTestPod("p", func(p *api.Pod) { p.Annotations = map[string]string{"a b": "x", "Upper/OK": "y"} }), false, true,
			`Pod "p" is invalid: metadata.annotations: Invalid value: "a b": ` + keyNameDetail},
		{"E11 annotations size", "Pod", metaTestPod("p", func(p *api.Pod) { p.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024)} }), false, true,
			`Pod "p" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`},
		{"annotations exactly at the limit", "Pod", metaTestPod("p", func(p *api.Pod) { p.Annotations = map[string]string{"k": strings.Repeat("x", 256*1024-1)} }), false, true, ""},
		{"namespace required", "Pod", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}, false, true,
			`Pod "p" is invalid: metadata.namespace: Required value`},
		{"namespace invalid", "Pod", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "Bad"}}, false, true,
			`Pod "p" is invalid: metadata.namespace: Invalid value: "Bad": ` + labelDetail},
		{"namespace forbidden", "Namespace", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "n", Namespace: "x"}}, true, false,
			`Namespace "n" is invalid: metadata.namespace: Forbidden: not allowed on this type`},
		{"negative generation", "Pod", metaTestPod("p", func(p *api.Pod) { p.Generation = -1 }), false, true,
			`Pod "p" is invalid: metadata.generation: Invalid value: -1: must be greater than or equal to 0`},
		{"finalizer", "Pod", metaTestPod("p", func(p *api.Pod) { p.Finalizers = []string{"example.com/keep", "bad finalizer"} }), false, true,
			`Pod "p" is invalid: metadata.finalizers: Invalid value: "bad finalizer": ` + keyNameDetail},
		{"group kind", "Deployment.apps", &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "Web", "namespace": "d"}}}, false, true,
			`Deployment.apps "Web" is invalid: metadata.name: Invalid value: "Web": ` + subdomainDetail},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			err := ValidateObjectMeta(tc.kind, tc.obj, tc.label, tc.namespace)
			if tc.msg == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, api.IsInvalid(err))
			assert.Equal(t, tc.msg, err.Error())
			var st *api.Status
			require.ErrorAs(t, err, &st)
			assert.Equal(t, int32(422), st.Code)
			assert.Equal(t, tc.obj.GetName(), st.Details.Name)
			assert.NotEmpty(t, st.Details.Causes)
		})
	}
	assert.Error(t, ValidateObjectMeta("Pod", nil, false, true), "nil is an error, not a panic")
	group := ValidateObjectMeta("Deployment.apps", &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"namespace": "d"}}}, false, true)
	var st *api.Status
	require.ErrorAs(t, group, &st)
	assert.Equal(t, "apps", st.Details.Group)
	assert.Equal(t, "Deployment", st.Details.Kind)
}

// TestCh01_E10_ConfigMapSize checks the 1 MiB limit and the config-key rules.
func TestCh01_E10_ConfigMapSize(t *testing.T) {
	cm := func(data map[string]string, bin map[string][]byte) *api.ConfigMap {
		return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "big"}, Data: data, BinaryData: bin}
	}
	tests := []struct {
		name string
		cm   *api.ConfigMap
		msg  string
	}{
		{"small", cm(map[string]string{"k": "v"}, nil), ""},
		{"exactly 1 MiB", cm(map[string]string{"a": strings.Repeat("x", 512*1024)}, map[string][]byte{"b": make([]byte, 512*1024)}), ""},
		{"E10", cm(map[string]string{"a": strings.Repeat("x", 512*1024)}, map[string][]byte{"b": make([]byte, 512*1024+1)}),
			`ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes`},
		{"bad key", cm(map[string]string{"a/b": "v"}, nil),
			`ConfigMap "big" is invalid: data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
		{"dot-dot key", cm(nil, map[string][]byte{"..x": nil}), `ConfigMap "big" is invalid: binaryData[..x]: Invalid value: "..x": must not start with '..'`},
		{"key in both", cm(map[string]string{"k": "v"}, map[string][]byte{"k": nil}),
			`ConfigMap "big" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bin := map[string]string{}
			for k, v := range tc.cm.BinaryData {
				bin[k] = base64.StdEncoding.EncodeToString(v)
			}
			err := ValidateConfigMapSize(tc.cm.Name, tc.cm.Data, bin)
			if tc.msg == "" {
				assert.NoError(t, err)
				return
			}
			assert.True(t, api.IsInvalid(err))
			assert.EqualError(t, err, tc.msg)
		})
	}
	assert.NoError(t, ValidateConfigMapSize("empty", nil, nil))
}

func TestCh01_GenerateNameSuffix(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		s := GenerateNameSuffix()
		require.Len(t, s, 5)
		for _, c := range s {
			require.Contains(t, nameSuffixAlphabet, string(c))
		}
		seen[s] = true
	}
	assert.Greater(t, len(seen), 190, "suffixes are random")
	assert.Empty(t, isDNS1123Label("web-"+GenerateNameSuffix()), "a generated name is a valid label")
}
