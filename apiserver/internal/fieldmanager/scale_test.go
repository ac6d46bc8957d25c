package fieldmanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// TestCh01_SSA_ScaleSubresource: `kubectl scale` on a Deployment alice applied: the Scale's
// field manager records kubectl on the scale subresource, and mapped back the parent's
// entry owns .spec.replicas without a time, alice losing it, as the reference server shows.
func TestCh01_SSA_ScaleSubresource(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"},"spec":{"replicas":2,"paused":true}}`), "alice", "", false, at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)
	mappings := map[string]fp.Path{"apps/v1": fp.MakePath("spec", "replicas")}
	parentEntries, _ := managedFieldsOf(live)
	h := NewScaleHandler(parentEntries, "apps/v1", mappings)
	scaleEntries, err := h.ToSubresource()
	require.NoError(t, err)
	scaleGVK := api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	scaleType, err := typed.ForBuiltin(scaleGVK, "apps/v1")
	require.NoError(t, err)
	sf := New(scaleType, scaleGVK)
	oldScale := obj(t, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w","uid":"u"},"spec":{"replicas":2},"status":{"replicas":0}}`)
	oldScale.Object["metadata"].(map[string]any)["managedFields"] = scaleEntries
	oldScale = roundTrip(t, oldScale)
	assert.Equal(t, `{"f:spec":{"f:replicas":{}}}`, entriesOf(t, oldScale)[0].Fields)
	newScale := roundTrip(t, oldScale)
	newScale.Object["spec"].(map[string]any)["replicas"] = int64(4)
	newScale, err = sf.Update(oldScale, newScale, "kubectl", "scale", at(2))
	require.NoError(t, err)
	scaleAfter, _ := managedFieldsOf(roundTrip(t, newScale))
	parentAfter, err := h.ToParent(scaleAfter)
	require.NoError(t, err)
	out := roundTrip(t, &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"managedFields": parentAfter}}})
	assert.Equal(t, []entrySummary{
		{"alice", "Apply", "apps/v1", "", "2026-01-02T03:04:01Z", `{"f:spec":{"f:paused":{}}}`},
		{"kubectl", "Update", "apps/v1", "scale", "", `{"f:spec":{"f:replicas":{}}}`},
	}, entriesOf(t, out))
}
