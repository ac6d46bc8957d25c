package apiserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// TestCh01_ProtobufEnvelopeAroundCachedMessage: a record caches only its protobuf message;
// the envelope written around it for a GET or a watch event is byte for byte what the codec
// encodes whole, whatever the lengths' varints take.
func TestCh01_ProtobufEnvelopeAroundCachedMessage(t *testing.T) {
	pod := func(note string) (api.GroupVersionKind, map[string]any) {
		return api.GroupVersionKind{Version: "v1", Kind: "Pod"}, map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "web", "namespace": "default", "annotations": map[string]any{"note": note}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
		}
	}
	tests := []struct {
		name string
		gvk  api.GroupVersionKind
		obj  map[string]any
	}{
		{"small", api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}}},
		{"a pod", func() api.GroupVersionKind { g, _ := pod("x"); return g }(), func() map[string]any { _, o := pod("x"); return o }()},
		{"two-byte length", func() api.GroupVersionKind { g, _ := pod(""); return g }(), func() map[string]any { _, o := pod(strings.Repeat("n", 300)); return o }()},
		{"three-byte length", func() api.GroupVersionKind { g, _ := pod(""); return g }(), func() map[string]any { _, o := pod(strings.Repeat("n", 40_000)); return o }()},
		{"a group", api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole, err := iprotobuf.Codec().Encode(tt.gvk, tt.obj)
			require.NoError(t, err)
			msg, err := iprotobuf.Codec().Marshal(tt.gvk, tt.obj)
			require.NoError(t, err)
			assert.Equal(t, whole, envelope(tt.gvk, msg))
			assert.Equal(t, whole, appendEnvelope([]byte{}, tt.gvk, msg))
			assert.Equal(t, len(whole), envelopeLen(tt.gvk, len(msg)))
		})
	}
}
