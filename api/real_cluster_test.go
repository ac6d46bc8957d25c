package api

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A real cluster sends many fields we do not model (managedFields, volumes, tolerations,
// containerStatuses, …). The typed decode keeps what we model and ignores the rest, as
// client-go does for fields newer than its types; Unstructured keeps everything.
func TestAPI_DecodeRealClusterPod(t *testing.T) {
	data, err := os.ReadFile("testdata/pod-real-cluster.json")
	require.NoError(t, err)

	obj, err := DefaultScheme.Decode(data)
	require.NoError(t, err)
	p, ok := obj.(*Pod)
	require.True(t, ok, "got %T", obj)
	assert.Equal(t, "kube-system", p.Namespace)
	assert.Equal(t, "coredns-7db6d8ff4d-4xk9p", p.Name)
	assert.Equal(t, "512", p.ResourceVersion)
	assert.Equal(t, "kind-control-plane", p.Spec.NodeName)
	assert.Equal(t, []Container{{Name: "coredns", Image: "registry.k8s.io/coredns/coredns:v1.11.3"}}, p.Spec.Containers)
	assert.Equal(t, PodRunning, p.Status.Phase)
	assert.Equal(t, "10.244.0.3", p.Status.PodIP)
	require.Len(t, p.Status.Conditions, 2)
	assert.Equal(t, "2026-03-14T09:27:11Z", p.Status.Conditions[1].LastTransitionTime.UTC().Format("2006-01-02T15:04:05Z07:00"))

	var u Unstructured
	require.NoError(t, DefaultScheme.DecodeInto(data, &u))
	qos, found, err := NestedString(u.Object, "status", "qosClass")
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "Burstable", qos)
	encoded, err := DefaultScheme.Encode(&u)
	require.NoError(t, err)
	assert.JSONEq(t, string(data), string(encoded), "Unstructured round-trips every field")
}
