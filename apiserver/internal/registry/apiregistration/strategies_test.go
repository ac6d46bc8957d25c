package apiregistration

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func decode(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(js)), js)
	return &u
}

var testNow = api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

var localAvailableStatus = map[string]any{"conditions": []any{map[string]any{
	"type": "Available", "status": "True", "lastTransitionTime": "2026-01-02T03:04:05Z",
	"reason": "Local", "message": "Local APIServices are always available",
}}}

// TestCh01_Strategy_APIServiceCreate checks point 1: a local APIService is Available at
// once, one with a service starts with an empty status.
func TestCh01_Strategy_APIServiceCreate(t *testing.T) {
	k := APIServices()
	s := k.Strategy
	assert.Equal(t, []string{"api-extensions"}, k.Categories)
	assert.Contains(t, k.Fields, "metadata.namespace")
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())
	assert.False(t, s.HasGeneration())
	assert.False(t, s.AllowUnconditionalUpdate())

	local := decode(t, `{"metadata":{"name":"v1.g"},"spec":{"group":"g","version":"v1"},"status":{"conditions":[{"type":"X"}]}}`)
	s.PrepareForCreate(rest.Context{Now: testNow}, local)
	assert.Equal(t, localAvailableStatus, local.Object["status"])
	remote := decode(t, `{"metadata":{"name":"v1.g"},"spec":{"group":"g","version":"v1","service":{"name":"s","namespace":"n"}},"status":{"conditions":[{"type":"X"}]}}`)
	s.PrepareForCreate(rest.Context{Now: testNow}, remote)
	assert.Equal(t, map[string]any{}, remote.Object["status"])
}

// TestCh01_Strategy_APIServiceValidate checks point 2 with the real messages.
func TestCh01_Strategy_APIServiceValidate(t *testing.T) {
	tests := []struct {
		name, js string
		want     []string
	}{
		{"the core group", `{"metadata":{"name":"v1."},"spec":{"version":"v1","groupPriorityMinimum":18000,"versionPriority":1}}`, nil},
		{"a name that is not version.group", `{"metadata":{"name":"wrong"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1}}`,
			[]string{"metadata.name: Invalid value: \"wrong\": must be `spec.version+\".\"+spec.group`: \"v1.g.io\""}},
		{"priorities and an empty group", `{"metadata":{"name":"v2."},"spec":{"version":"v2","groupPriorityMinimum":0,"versionPriority":1001}}`, []string{
			"spec.group: Required value: only v1 may have an empty group and it better be legacy kube",
			"spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
			"spec.versionPriority: Invalid value: 1001: must be positive and less than 1000",
		}},
		{"local with TLS settings", `{"metadata":{"name":"v1.g.io"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,
			"caBundle":"MTIzNDU=","insecureSkipTLSVerify":true}}`, []string{
			`spec.caBundle: Invalid value: "5 bytes": local APIServices may not have a caBundle`,
			"spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify",
		}},
		{"a service", `{"metadata":{"name":"v1.g.io"},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1,
			"service":{"port":0},"caBundle":"AAAA","insecureSkipTLSVerify":true},"status":{"conditions":[{"type":"Available","status":"Maybe"}]}}`, []string{
			"spec.service.namespace: Required value", "spec.service.name: Required value",
			"spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
			"spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present",
			`status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"`,
		}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range APIServices().Strategy.Validate(decode(t, tt.js)) {
			got = append(got, c.Field+": "+c.Message)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// TestCh01_Strategy_APIServiceBuiltin checks point 3: one valid, local, onstart APIService
// per built-in group-version, and a CRD's ones.
func TestCh01_Strategy_APIServiceBuiltin(t *testing.T) {
	s := APIServices().Strategy
	seen := map[string]bool{}
	for _, tree := range Builtin() {
		o := &api.Unstructured{Object: tree}
		assert.False(t, seen[o.GetName()], "%s twice", o.GetName())
		seen[o.GetName()] = true
		assert.Empty(t, s.Validate(o), o.GetName())
		assert.Equal(t, "onstart", o.GetLabels()["kube-aggregator.kubernetes.io/automanaged"])
		assert.False(t, IsCRDManaged(o))
	}
	assert.Len(t, seen, 21)
	for _, name := range []string{"v1.", "v1.apps", "v2.autoscaling", "v1.autoscaling", "v1.flowcontrol.apiserver.k8s.io"} {
		assert.True(t, seen[name], name)
	}
	assert.False(t, seen["v1.apiregistration.k8s.io"], "the aggregator's own group has none")
	core := Builtin()[0]
	assert.Equal(t, map[string]any{"version": "v1", "groupPriorityMinimum": int64(18000), "versionPriority": int64(1)}, core["spec"])

	crd := ForCRD("stable.example.com", []string{"v1", "v2beta1"}, testNow.Time)
	require.Len(t, crd, 2)
	o := &api.Unstructured{Object: crd[0]}
	assert.Equal(t, Name("stable.example.com", "v1"), o.GetName())
	assert.True(t, IsCRDManaged(o))
	assert.Equal(t, map[string]any{"group": "stable.example.com", "version": "v1", "groupPriorityMinimum": int64(1000), "versionPriority": int64(100)}, o.Object["spec"])
	assert.Equal(t, localAvailableStatus, o.Object["status"])
	assert.Empty(t, s.Validate(o))
}
