package storage

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

// TestCh01_Strategy_StorageKinds checks points 1, 3 and 4: scope, status, unconditional
// updates and what a DELETE answers, and the status a create starts with.
func TestCh01_Strategy_StorageKinds(t *testing.T) {
	tests := []struct {
		kind                       rest.Kind
		namespaced, status, uncond bool
		returnsDeleted             bool
		createdStatus              any
	}{
		{CSIDrivers(), false, false, false, true, nil},
		{CSINodes(), false, false, false, true, nil},
		{CSIStorageCapacities(), true, false, false, false, nil},
		{StorageClasses(), false, false, true, true, nil},
		{VolumeAttachments(), false, true, false, true, map[string]any{"attached": false}},
		{VolumeAttributesClasses(), false, false, true, true, nil},
	}
	for _, tt := range tests {
		s := tt.kind.Strategy
		assert.Equal(t, "storage.k8s.io", tt.kind.Group)
		assert.Equal(t, tt.namespaced, s.NamespaceScoped(), tt.kind.Kind)
		assert.Equal(t, tt.status, s.HasStatus(), tt.kind.Kind)
		assert.False(t, s.HasGeneration(), tt.kind.Kind)
		assert.Equal(t, tt.uncond, s.AllowUnconditionalUpdate(), tt.kind.Kind)
		assert.Equal(t, tt.returnsDeleted, tt.kind.ReturnDeletedObject, tt.kind.Kind)

		o := obj(t, `{"spec":{"attacher":"a"},"status":{"attached":true,"attachmentMetadata":{"a":"b"}}}`)
		s.PrepareForCreate(rest.Context{}, o)
		if tt.createdStatus != nil {
			assert.Equal(t, tt.createdStatus, o.Object["status"], tt.kind.Kind)
		}
	}

	old := obj(t, `{"spec":{"attacher":"a","nodeName":"n"},"status":{"attached":true}}`)
	o := obj(t, `{"spec":{"attacher":"a","nodeName":"m"},"status":{"attached":false}}`)
	VolumeAttachments().Strategy.PrepareForUpdate(rest.Context{}, o, old)
	assert.Equal(t, map[string]any{"attached": true}, o.Object["status"], "an update keeps the stored status")
	assert.Equal(t, int64(0), o.GetGeneration())
}

// TestCh01_Strategy_CSIDriver checks point 2: preventPodSchedulingIfMissing is dropped
// unless stored, and a spec change moves the generation on from none.
func TestCh01_Strategy_CSIDriver(t *testing.T) {
	s := CSIDrivers().Strategy
	o := obj(t, `{"spec":{"attachRequired":true,"preventPodSchedulingIfMissing":true,"seLinuxMount":true,"nodeAllocatableUpdatePeriodSeconds":30}}`)
	s.PrepareForCreate(rest.Context{}, o)
	assert.Equal(t, map[string]any{"attachRequired": true, "seLinuxMount": true, "nodeAllocatableUpdatePeriodSeconds": int64(30)}, o.Object["spec"])
	assert.NotPanics(t, func() { s.PrepareForCreate(rest.Context{}, obj(t, `{}`)) })

	tests := []struct {
		name, old, body string
		wantSpec        map[string]any
		wantGen         int64
	}{
		{"no change", `{"spec":{"attachRequired":true}}`, `{"spec":{"attachRequired":true}}`,
			map[string]any{"attachRequired": true}, 0},
		{"a change from none", `{"spec":{"attachRequired":true}}`, `{"spec":{"attachRequired":false}}`,
			map[string]any{"attachRequired": false}, 1},
		{"gated field added is dropped, no change", `{"spec":{"attachRequired":true}}`, `{"spec":{"attachRequired":true,"preventPodSchedulingIfMissing":true}}`,
			map[string]any{"attachRequired": true}, 0},
		{"gated field kept when stored", `{"metadata":{"generation":4},"spec":{"preventPodSchedulingIfMissing":true}}`,
			`{"metadata":{"generation":4},"spec":{"preventPodSchedulingIfMissing":false}}`,
			map[string]any{"preventPodSchedulingIfMissing": false}, 5},
	}
	for _, tt := range tests {
		old, o := obj(t, tt.old), obj(t, tt.body)
		s.PrepareForUpdate(rest.Context{}, o, old)
		assert.Equal(t, tt.wantSpec, o.Object["spec"], tt.name)
		assert.Equal(t, tt.wantGen, o.GetGeneration(), tt.name)
	}
}

// TestCh01_Strategy_StorageWarnings checks point 5: CSIDriver tokens, StorageClass
// topologies and CSIStorageCapacity node topology.
func TestCh01_Strategy_StorageWarnings(t *testing.T) {
	d := CSIDrivers().Strategy
	tokens := obj(t, `{"spec":{"tokenRequests":[{"audience":"vault"}]}}`)
	assert.Equal(t, []string{tokenInSecretsWarning}, d.WarningsOnCreate(tokens))
	assert.Nil(t, d.WarningsOnCreate(obj(t, `{"spec":{"tokenRequests":[{"audience":"vault"}],"serviceAccountTokenInSecrets":false}}`)))
	assert.Nil(t, d.WarningsOnCreate(obj(t, `{"spec":{"tokenRequests":[]}}`)))
	assert.Nil(t, d.WarningsOnUpdate(tokens, tokens.DeepCopy()), "tokenRequests unchanged")
	assert.Equal(t, []string{tokenInSecretsWarning}, d.WarningsOnUpdate(tokens, obj(t, `{"spec":{}}`)))

	sc := obj(t, `{"provisioner":"p","allowedTopologies":[{"matchLabelExpressions":[{"key":"topology.kubernetes.io/zone","values":["a"]}]},
		{"matchLabelExpressions":[{"key":"x"},{"key":"failure-domain.beta.kubernetes.io/zone","values":["a"]}]}]}`)
	want := []string{`allowedTopologies[1].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead`}
	assert.Equal(t, want, StorageClasses().Strategy.WarningsOnCreate(sc))
	assert.Equal(t, want, StorageClasses().Strategy.WarningsOnUpdate(sc, sc))

	c := CSIStorageCapacities().Strategy
	capacity := obj(t, `{"storageClassName":"s","nodeTopology":{"matchLabels":{"beta.kubernetes.io/instance-type":"m5"}}}`)
	want = []string{`nodeTopology.matchLabels.beta.kubernetes.io/instance-type: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`}
	assert.Equal(t, want, c.WarningsOnCreate(capacity))
	assert.Equal(t, want, c.WarningsOnUpdate(capacity, capacity))
	assert.Nil(t, c.WarningsOnCreate(obj(t, `{"storageClassName":"s"}`)))
}
