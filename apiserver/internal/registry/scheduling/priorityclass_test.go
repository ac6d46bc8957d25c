package scheduling

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func class(name string, value int64, extra map[string]any) *api.Unstructured {
	obj := map[string]any{"apiVersion": Group + "/v1", "kind": "PriorityClass", "metadata": map[string]any{"name": name}, "value": value}
	for k, v := range extra {
		obj[k] = v
	}
	return &api.Unstructured{Object: obj}
}

func causeTexts(causes []api.StatusCause) []string {
	var out []string
	for _, c := range causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

// TestCh01_Strategy_PriorityClassNames checks points 1 to 3 of the package contract.
func TestCh01_Strategy_PriorityClassNames(t *testing.T) {
	k := PriorityClasses()
	s := k.Strategy
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasGeneration())
	tests := []struct {
		obj  *api.Unstructured
		want []string
	}{
		{class("high", 1000, nil), nil},
		{class("system-node-critical", SystemCriticalPriority+1000, nil), nil},
		{class("system-cluster-critical", 1, nil), []string{
			"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"}},
		{class("system-cluster-critical", SystemCriticalPriority, map[string]any{"globalDefault": true}), []string{
			"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"}},
		{class("system-foo", 1, map[string]any{"preemptionPolicy": "Bad"}), []string{
			"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class",
			`preemptionPolicy: Unsupported value: "Bad": supported values: "PreemptLowerPriority", "Never"`}},
		{class("big", HighestUserDefinablePriority+1, nil), []string{"value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, causeTexts(s.Validate(tt.obj)), tt.obj.GetName())
	}
	old := class("high", 1000, map[string]any{"preemptionPolicy": "PreemptLowerPriority"})
	assert.Equal(t, []string{"value: Forbidden: may not be changed in an update.", `preemptionPolicy: Invalid value: "Never": field is immutable`},
		causeTexts(s.ValidateUpdate(class("high", 1001, map[string]any{"preemptionPolicy": "Never"}), old)))
	next := class("high", 1000, map[string]any{"description": "changed"})
	next.SetGeneration(1)
	s.PrepareForUpdate(rest.Context{}, next, old)
	assert.Equal(t, int64(1), next.GetGeneration(), "the generation never moves")

	dv := s.(rest.DeleteValidator)
	require.NoError(t, dv.ValidateDelete("high"))
	err := dv.ValidateDelete("system-node-critical")
	require.Error(t, err)
	assert.Equal(t, `priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted`, err.Error())

	boot := k.Bootstrap()
	require.Len(t, boot, 2)
	for _, o := range boot {
		assert.Empty(t, s.Validate(&api.Unstructured{Object: o}), "a system class is valid")
	}
	assert.Equal(t, map[string]any{"name": "system-node-critical"}, boot[0]["metadata"])
	assert.Equal(t, int64(2000001000), boot[0]["value"])
	assert.Equal(t, int64(2000000000), boot[1]["value"])
}

// TestCh01_Strategy_PriorityClassSingleDefault checks point 4: a second global default is
// refused, the current one may be updated.
func TestCh01_Strategy_PriorityClassSingleDefault(t *testing.T) {
	sv := PriorityClasses().Strategy.(rest.StateValidator)
	stored := []*api.Unstructured{
		class("low-default", 10, map[string]any{"globalDefault": true}),
		class("high-default", 100, map[string]any{"globalDefault": true}), // a race let two in
		class("plain", 5, nil),
	}
	list := func(group, resource string) []*api.Unstructured {
		if group == Group && resource == "priorityclasses" {
			return stored
		}
		return nil
	}
	assert.NoError(t, sv.ValidateState(class("new", 1, nil), nil, list), "not a default")
	err := sv.ValidateState(class("new", 1, map[string]any{"globalDefault": true}), nil, list)
	require.Error(t, err)
	assert.Equal(t, `priorityclasses.scheduling.k8s.io "new" is forbidden: PriorityClass low-default is already marked as default. Only one default can exist`, err.Error())
	assert.NoError(t, sv.ValidateState(class("low-default", 10, map[string]any{"globalDefault": true, "description": "x"}), stored[0], list),
		"the default itself may change")
	assert.Error(t, sv.ValidateState(class("plain", 5, map[string]any{"globalDefault": true}), stored[2], list))
	assert.NoError(t, sv.ValidateState(class("x", 1, map[string]any{"globalDefault": true}), nil, func(string, string) []*api.Unstructured { return nil }))
}
