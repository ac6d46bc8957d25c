package node

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func obj(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	u := &api.Unstructured{}
	require.NoError(t, u.UnmarshalJSON([]byte(js)))
	return u
}

// TestCh01_Strategy_RuntimeClass checks point 1: cluster-scoped, no status or generation,
// updates need a resourceVersion, and nothing is prepared.
func TestCh01_Strategy_RuntimeClass(t *testing.T) {
	k := RuntimeClasses()
	s := k.Strategy
	assert.Equal(t, "node.k8s.io", k.Group)
	assert.False(t, s.NamespaceScoped())
	assert.False(t, s.HasStatus())
	assert.False(t, s.HasGeneration())
	assert.False(t, s.AllowUnconditionalUpdate())
	assert.False(t, k.ReturnDeletedObject)

	old := obj(t, `{"handler":"runc"}`)
	o := obj(t, `{"handler":"runsc","overhead":{"podFixed":{"cpu":"250m"}}}`)
	want := o.DeepCopy()
	s.PrepareForCreate(rest.Context{}, o)
	s.PrepareForUpdate(rest.Context{}, o, old)
	assert.Equal(t, want, o)
}

// TestCh01_Strategy_NodeLabelWarnings checks point 2 and the selector warnings the storage
// kinds use: deprecated keys only, with GetWarningsForNodeSelector's texts.
func TestCh01_Strategy_NodeLabelWarnings(t *testing.T) {
	rc := obj(t, `{"handler":"runc","scheduling":{"nodeSelector":{"kubernetes.io/os":"linux","beta.kubernetes.io/os":"linux","beta.kubernetes.io/arch":"amd64"}}}`)
	want := []string{
		`scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/arch" instead`,
		`scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead`,
	}
	s := RuntimeClasses().Strategy
	assert.Equal(t, want, s.WarningsOnCreate(rc))
	assert.Equal(t, want, s.WarningsOnUpdate(rc, obj(t, `{}`)))
	assert.Nil(t, s.WarningsOnCreate(obj(t, `{"handler":"runc"}`)))

	sel := map[string]any{
		"matchLabels":      map[string]any{"failure-domain.beta.kubernetes.io/zone": "a", "topology.kubernetes.io/zone": "a"},
		"matchExpressions": []any{map[string]any{"key": "x"}, map[string]any{"key": "node-role.kubernetes.io/master", "operator": "Exists"}},
	}
	assert.Equal(t, []string{
		`nodeTopology.matchExpressions[1].key: node-role.kubernetes.io/master is use "node-role.kubernetes.io/control-plane" instead`,
		`nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/zone: deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	}, SelectorWarnings(sel, "nodeTopology"))
	assert.Nil(t, SelectorWarnings(nil, "nodeTopology"))
}
