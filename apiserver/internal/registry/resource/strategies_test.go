package resource

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

// TestCh01_Strategy_ResourceKinds checks points 1 to 3: scope, status, generation,
// unconditional updates, the deleted object, and the status a create starts with.
func TestCh01_Strategy_ResourceKinds(t *testing.T) {
	tests := []struct {
		kind                           rest.Kind
		namespaced, status, generation bool
	}{
		{DeviceClasses(), false, false, true},
		{ResourceClaims(), true, true, false},
		{ResourceClaimTemplates(), true, false, false},
		{ResourceSlices(), false, false, true},
	}
	for _, tt := range tests {
		s := tt.kind.Strategy
		assert.Equal(t, "resource.k8s.io", tt.kind.Group)
		assert.Equal(t, tt.namespaced, s.NamespaceScoped(), tt.kind.Kind)
		assert.Equal(t, tt.status, s.HasStatus(), tt.kind.Kind)
		assert.Equal(t, tt.generation, s.HasGeneration(), tt.kind.Kind)
		assert.True(t, s.AllowUnconditionalUpdate(), tt.kind.Kind)
		assert.True(t, tt.kind.ReturnDeletedObject, tt.kind.Kind)
	}

	claims := ResourceClaims().Strategy
	c := obj(t, `{"spec":{"devices":{}},"status":{"allocation":{"devices":{}},"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}}`)
	claims.PrepareForCreate(rest.Context{}, c)
	assert.Equal(t, map[string]any{}, c.Object["status"])
	old := obj(t, `{"spec":{"devices":{}},"status":{"allocation":{"devices":{}}}}`)
	upd := obj(t, `{"spec":{"devices":{"requests":[]}},"status":{}}`)
	claims.PrepareForUpdate(rest.Context{}, upd, old)
	assert.Equal(t, old.Object["status"], upd.Object["status"], "an update keeps the stored status")
	assert.Equal(t, int64(0), upd.GetGeneration())

	dc := DeviceClasses().Strategy
	oldClass := obj(t, `{"metadata":{"generation":1},"spec":{}}`)
	newClass := obj(t, `{"metadata":{"generation":1},"spec":{"extendedResourceName":"example.com/gpu"}}`)
	dc.PrepareForUpdate(rest.Context{}, newClass, oldClass)
	assert.Equal(t, int64(2), newClass.GetGeneration())
	assert.Equal(t, "example.com/gpu", newClass.Object["spec"].(map[string]any)["extendedResourceName"], "DRAExtendedResource is on")
}

// TestCh01_Strategy_ResourceSliceGates checks point 4: the fields of the gates that are off
// go unless the stored slice uses them, and the generation compares the specs first.
func TestCh01_Strategy_ResourceSliceGates(t *testing.T) {
	const gated = `{"metadata":{"generation":2},"spec":{"driver":"d","devices":[
		{"name":"a","nodeAllocatableResourceMappings":{"cpu":{"capacityKey":"c"}},"attributes":{"m":{"string":"x"},"l":{"ints":[1,2]}},"taints":[{"key":"k","effect":"NoSchedule"}]},
		{"name":"b","attributes":{"v":{"versions":["1.0.0"]}}}]}}`
	const plain = `{"metadata":{"generation":2},"spec":{"driver":"d","devices":[
		{"name":"a","attributes":{"m":{"string":"x"},"l":{}},"taints":[{"key":"k","effect":"NoSchedule"}]},
		{"name":"b","attributes":{"v":{}}}]}}`
	s := ResourceSlices().Strategy

	o := obj(t, gated)
	s.PrepareForCreate(rest.Context{}, o)
	assert.Equal(t, obj(t, plain).Object["spec"], o.Object["spec"], "create drops both gates' fields, and keeps taints")

	o = obj(t, gated)
	s.PrepareForUpdate(rest.Context{}, o, obj(t, plain))
	assert.Equal(t, obj(t, plain).Object["spec"], o.Object["spec"])
	assert.Equal(t, int64(3), o.GetGeneration(), "the gated fields were a change of the body's spec")

	o = obj(t, gated)
	s.PrepareForUpdate(rest.Context{}, o, obj(t, gated))
	assert.Equal(t, obj(t, gated).Object["spec"], o.Object["spec"], "the stored slice uses them: kept")
	assert.Equal(t, int64(2), o.GetGeneration())

	o = obj(t, plain)
	o.SetLabels(map[string]string{"a": "b"})
	s.PrepareForUpdate(rest.Context{}, o, obj(t, plain))
	assert.Equal(t, int64(2), o.GetGeneration(), "labels do not move it")
	assert.NotPanics(t, func() { s.PrepareForCreate(rest.Context{}, obj(t, `{"spec":{"devices":[1,{"attributes":{"x":2}}]}}`)) })
}

// TestCh01_Strategy_ResourceSliceFieldsAndWarnings checks point 5.
func TestCh01_Strategy_ResourceSliceFieldsAndWarnings(t *testing.T) {
	k := ResourceSlices()
	set := rest.FieldSetOf(k.Fields)(obj(t, `{"spec":{"driver":"gpu.example.com","nodeName":"w1"}}`))
	assert.Equal(t, "gpu.example.com", set["spec.driver"])
	assert.Equal(t, "w1", set["spec.nodeName"])
	set = rest.FieldSetOf(k.Fields)(obj(t, `{"spec":{"driver":"d","allNodes":true}}`))
	assert.Equal(t, "", set["spec.nodeName"], "no node reads as empty")

	s := k.Strategy
	assert.Equal(t, []string{`spec.driver: driver names should be lowercase; "GPU.example.com" contains uppercase characters`},
		s.WarningsOnCreate(obj(t, `{"spec":{"driver":"GPU.example.com"}}`)))
	assert.Nil(t, s.WarningsOnUpdate(obj(t, `{"spec":{"driver":"gpu.example.com"}}`), obj(t, `{}`)))
}
