package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func pdb(t *testing.T, spec string) *api.Unstructured {
	t.Helper()
	var u api.Unstructured
	if err := u.UnmarshalJSON([]byte(`{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":` + spec + `}`)); err != nil {
		t.Fatal(err)
	}
	return &u
}

// TestCh01_Strategy_PodDisruptionBudget checks points 1 to 4 of the package contract.
func TestCh01_Strategy_PodDisruptionBudget(t *testing.T) {
	k := PodDisruptionBudgets()
	s := k.Strategy
	assert.Equal(t, []string{"pdb"}, k.ShortNames)
	assert.True(t, s.HasStatus())
	assert.True(t, s.HasGeneration())
	assert.False(t, s.AllowUnconditionalUpdate(), "point 3")
	obj := pdb(t, `{"minAvailable":1}`)
	obj.Object["status"] = map[string]any{"disruptionsAllowed": int64(3)}
	s.PrepareForCreate(rest.Context{}, obj)
	assert.Equal(t, map[string]any{"disruptionsAllowed": int64(0), "currentHealthy": int64(0), "desiredHealthy": int64(0), "expectedPods": int64(0)},
		obj.Object["status"])

	tests := []struct {
		name, spec string
		want       []string
	}{
		{"count", `{"minAvailable":2,"selector":{"matchLabels":{"a":"b"}}}`, nil},
		{"percent", `{"maxUnavailable":"100%"}`, nil},
		{"both, one over 100%", `{"minAvailable":1,"maxUnavailable":"150%","selector":{"matchLabels":{"a":"b"}}}`, []string{
			`spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"a":"b"}},"MaxUnavailable":"150%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`,
			`spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%`,
		}},
		{"negative and not a percent", `{"minAvailable":-1,"maxUnavailable":"x%"}`, []string{
			`spec: Invalid value: {"MinAvailable":-1,"Selector":null,"MaxUnavailable":"x%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`,
			"spec.minAvailable: Invalid value: -1: must be greater than or equal to 0",
			`spec.maxUnavailable: Invalid value: "x%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
		}},
		{"eviction policy", `{"minAvailable":1,"unhealthyPodEvictionPolicy":"Sometimes"}`, []string{
			`spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range s.Validate(pdb(t, tt.spec)) {
				got = append(got, c.Field+": "+c.Message)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
