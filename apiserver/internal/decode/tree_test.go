package decode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// TestCh01_ObjectFromTreeMatchesJSON: a protobuf body's tree, walked directly, gives what
// ObjectForStorage gives for the same tree written as JSON (what the server did before);
// where that would warn, fail or change the tree's text, the walk declines.
func TestCh01_ObjectFromTreeMatchesJSON(t *testing.T) {
	pod := api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	cm := api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	deploy := api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	// fromWire is the tree the server reads from the protobuf body client-go would send.
	fromWire := func(t *testing.T, gvk api.GroupVersionKind, manifest string) map[string]any {
		sch, ok := schema.ForKind(gvk)
		require.True(t, ok)
		u, _, err := ObjectForStorage([]byte(manifest), sch, gvk, api.FieldValidationStrict)
		require.NoError(t, err)
		msg, err := iprotobuf.Codec().Encode(gvk, u.Object)
		require.NoError(t, err)
		_, tree, err := iprotobuf.Codec().Decode(msg)
		require.NoError(t, err)
		return tree
	}
	// viaJSON is the old way: the tree as JSON, decoded.
	viaJSON := func(t *testing.T, gvk api.GroupVersionKind, tree map[string]any) (map[string]any, []string, error) {
		sch, _ := schema.ForKind(gvk)
		data, err := json.Marshal(tree)
		require.NoError(t, err)
		u, warnings, err := ObjectForStorage(data, sch, gvk, api.FieldValidationWarn)
		if err != nil {
			return nil, nil, err
		}
		return u.Object, warnings, nil
	}
	for _, tt := range []struct {
		name string
		gvk  api.GroupVersionKind
		tree func(t *testing.T) map[string]any
		take bool
	}{
		{"pod", pod, func(t *testing.T) map[string]any { return fromWire(t, pod, fullPodJSON) }, true},
		{"deployment", deploy, func(t *testing.T) map[string]any { return fromWire(t, deploy, fullDeploymentJSON) }, true},
		{"configmap", cm, func(t *testing.T) map[string]any { return fromWire(t, cm, smallConfigMapJSON) }, true},
		{"null members and map values", cm, func(*testing.T) map[string]any {
			return map[string]any{"metadata": map[string]any{"name": "a", "creationTimestamp": nil, "labels": map[string]any{"x": nil}}, "data": nil}
		}, true},
		{"quantity made canonical", pod, func(*testing.T) map[string]any {
			return map[string]any{"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"containers": []any{
				map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"cpu": "0.5", "memory": " 1Gi "}}}}}}
		}, true},
		{"null in a list", pod, func(*testing.T) map[string]any {
			return map[string]any{"metadata": map[string]any{"name": "p", "finalizers": []any{"a", nil}}}
		}, true},
		{"unknown member", cm, func(*testing.T) map[string]any {
			return map[string]any{"metadata": map[string]any{"name": "a"}, "dta": map[string]any{}}
		}, false},
		{"bad quantity", pod, func(*testing.T) map[string]any {
			return map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "resources": map[string]any{"limits": map[string]any{"cpu": "lots"}}}}}}
		}, false},
		{"wrong type", cm, func(*testing.T) map[string]any {
			return map[string]any{"metadata": map[string]any{"name": int64(3)}}
		}, false},
		{"int32 overflow", pod, func(*testing.T) map[string]any {
			return map[string]any{"spec": map[string]any{"terminationGracePeriodSeconds": int64(1) << 40, "priority": int64(1) << 40}}
		}, false},
		{"float", pod, func(*testing.T) map[string]any {
			return map[string]any{"spec": map[string]any{"priority": float64(2)}}
		}, false},
		{"invalid UTF-8", cm, func(*testing.T) map[string]any {
			return map[string]any{"data": map[string]any{"k": "bad\xff"}}
		}, false},
		{"invalid UTF-8 key", cm, func(*testing.T) map[string]any {
			return map[string]any{"data": map[string]any{"k\xff": "v"}}
		}, false},
		{"other kind", cm, func(*testing.T) map[string]any {
			return map[string]any{"kind": "Secret"}
		}, false},
		{"bytes", cm, func(*testing.T) map[string]any {
			return map[string]any{"binaryData": map[string]any{"k": []byte("v")}}
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tree := tt.tree(t)
			before, err := json.Marshal(tree)
			require.NoError(t, err)
			sch, _ := schema.ForKind(tt.gvk)
			got, ok := ObjectFromTree(tree, sch, tt.gvk)
			require.Equal(t, tt.take, ok)
			if !ok {
				after, _ := json.Marshal(tree)
				assert.Equal(t, string(before), string(after), "a declined tree is not changed")
				return
			}
			want, warnings, err := viaJSON(t, tt.gvk, tt.tree(t)) // a fresh copy of what was sent
			require.NoError(t, err)
			assert.Empty(t, warnings)
			assert.Empty(t, cmp.Diff(want, got.Object))
		})
	}
}

// TestCh01_ObjectFromTreeEveryKind: the apiserver's round-trip manifests (one object of
// every kind it serves), sent as client-go would send them in protobuf: where the walk takes
// the tree, it gives exactly what the JSON way gives.
func TestCh01_ObjectFromTreeEveryKind(t *testing.T) {
	files, err := filepath.Glob("../../testdata/roundtrip/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	taken := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		var doc map[string]any
		require.NoError(t, yaml.Unmarshal(raw, &doc), file)
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		u := &api.Unstructured{Object: doc}
		gvk := u.GroupVersionKind()
		sch, ok := schema.ForKind(gvk)
		if !ok || !iprotobuf.Codec().Recognizes(gvk) {
			continue
		}
		obj, _, err := ObjectForStorage(data, sch, gvk, api.FieldValidationIgnore)
		require.NoError(t, err, file)
		msg, err := iprotobuf.Codec().Encode(gvk, obj.Object)
		require.NoError(t, err, file)
		_, tree, err := iprotobuf.Codec().Decode(msg)
		require.NoError(t, err, file)
		wire, err := json.Marshal(tree)
		require.NoError(t, err, file)
		got, ok := ObjectFromTree(tree, sch, gvk)
		if !ok {
			after, _ := json.Marshal(tree)
			assert.Equal(t, string(wire), string(after), "a declined tree is not changed: %s", file)
			continue
		}
		taken++
		want, warnings, err := ObjectForStorage(wire, sch, gvk, api.FieldValidationWarn)
		require.NoError(t, err, file)
		assert.Empty(t, warnings, file)
		assert.Empty(t, cmp.Diff(want.Object, got.Object), file)
	}
	t.Logf("%d of %d manifests took the direct way", taken, len(files))
	assert.Greater(t, taken, len(files)/2, "most kinds take the direct way")
}
