package builtinproto

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
)

// TestCh02_ProtobufTypedRoundTripIsByteExact decodes the real serializer's bytes into our
// typed views and encodes them again: the bytes are the same, the fields the views do not
// model coming back from the kept message, and the typed value equals the one decoded from
// the same object's JSON.
func TestCh02_ProtobufTypedRoundTripIsByteExact(t *testing.T) {
	for _, tc := range []struct {
		file  string
		typed func() api.Object
	}{
		{"Pod", func() api.Object { return &api.Pod{} }},
		{"PodList", func() api.Object { return &api.PodList{} }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := readFile(t, tc.file+".pb")
			obj := tc.typed()
			gvk, err := Codec().DecodeInto(data, obj)
			require.NoError(t, err)
			again, err := Codec().EncodeTyped(gvk, obj)
			require.NoError(t, err)
			assert.Equal(t, data, again)

			fromJSON := tc.typed()
			require.NoError(t, json.Unmarshal(readFile(t, tc.file+".json"), fromJSON))
			assert.Empty(t, cmp.Diff(fromJSON, obj))
		})
	}
}

// pbField is one length-delimited protobuf field.
func pbField(num int, data []byte) []byte {
	b := binary.AppendUvarint(nil, uint64(num<<3|2))
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// envelope wraps a message of kind in the protobuf envelope.
func envelope(kind string, msg []byte) []byte {
	typeMeta := append(pbField(1, []byte("v1")), pbField(2, []byte(kind))...)
	return append([]byte("k8s\x00"), append(pbField(1, typeMeta), pbField(2, msg)...)...)
}

// TestCh02_ProtobufTypedHostileEmptyElements holds the typed path to the tree path's limit:
// bytes that declare more elements than an honest encoding of their length holds (a pod of
// 100,000 two-byte containers, a list of 100,000 two-byte pods) are refused, while honest
// ones decode.
func TestCh02_ProtobufTypedHostileEmptyElements(t *testing.T) {
	podOf := func(name string, containers [][]byte) []byte {
		var spec []byte
		for _, c := range containers {
			spec = append(spec, pbField(2, c)...)
		}
		return append(pbField(1, pbField(1, []byte(name))), pbField(2, spec)...)
	}
	emptyItems := bytes.Repeat(pbField(2, nil), 100_000)
	for name, tc := range map[string]struct {
		data []byte
		obj  any
	}{
		"containers": {envelope("Pod", podOf("empty", make([][]byte, 100_000))), &api.Pod{}},
		"items":      {envelope("PodList", emptyItems), &api.PodList{}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Codec().DecodeInto(tc.data, tc.obj)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "declare more elements than they can hold")
			_, _, err = Codec().Decode(tc.data)
			require.Error(t, err, "the tree path refuses it too")
		})
	}
	honest := envelope("Pod", podOf("honest", [][]byte{append(pbField(1, []byte("a")), pbField(2, []byte("nginx"))...)}))
	var pod api.Pod
	_, err := Codec().DecodeInto(honest, &pod)
	require.NoError(t, err)
	assert.Equal(t, []api.Container{{Name: "a", Image: "nginx"}}, pod.Spec.Containers)
}

// TestCh02_ProtobufTypedDecodeComplexity decodes a PodList of n and of 8n pods, and a Pod of
// n and of 8n containers, through the typed path: the allocations grow linearly.
func TestCh02_ProtobufTypedDecodeComplexity(t *testing.T) {
	podList := func(n int) []byte {
		items := make([]any, n)
		for i := range items {
			items[i] = map[string]any{"metadata": map[string]any{"name": fmt.Sprintf("p%d", i), "labels": map[string]any{"a": "b"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}
		}
		b, err := Encode(api.GroupVersionKind{Version: "v1", Kind: "PodList"}, map[string]any{"items": items})
		require.NoError(t, err)
		return b
	}
	podOfContainers := func(n int) []byte {
		cs := make([]any, n)
		for i := range cs {
			cs[i] = map[string]any{"name": fmt.Sprintf("c%d", i), "image": "nginx"}
		}
		b, err := Encode(api.GroupVersionKind{Version: "v1", Kind: "Pod"}, map[string]any{"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"containers": cs}})
		require.NoError(t, err)
		return b
	}
	for name, tc := range map[string]struct {
		build func(int) []byte
		obj   func() any
	}{
		"pod list":   {podList, func() any { return &api.PodList{} }},
		"containers": {podOfContainers, func() any { return &api.Pod{} }},
	} {
		t.Run(name, func(t *testing.T) {
			small, large := tc.build(200), tc.build(1600)
			allocs := func(b []byte) float64 {
				return testing.AllocsPerRun(2, func() {
					_, err := Codec().DecodeInto(b, tc.obj())
					require.NoError(t, err)
				})
			}
			a1, a8 := allocs(small), allocs(large)
			t.Logf("n=200: %d bytes, %.0f allocs; 8n: %d bytes, %.0f allocs", len(small), a1, len(large), a8)
			assert.LessOrEqual(t, a8/a1, 10.0)
		})
	}
}

// TestCh02_ProtobufTypedFallsBack: Go types the typed path cannot serve, and objects that
// keep JSON, report ErrNotTyped so callers take the tree path.
func TestCh02_ProtobufTypedFallsBack(t *testing.T) {
	podGVK := api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	type odd struct {
		Spec map[string]int `json:"spec"`
	}
	_, err := Codec().EncodeTyped(podGVK, &odd{})
	require.ErrorIs(t, err, pb.ErrNotTyped)
	assert.False(t, Codec().SupportsTyped(podGVK, &odd{}))
	assert.True(t, Codec().SupportsTyped(podGVK, &api.Pod{}))
	_, err = Codec().EncodeTyped(podGVK, api.Pod{})
	require.ErrorIs(t, err, pb.ErrNotTyped, "not a pointer")

	var fromJSON api.Pod
	require.NoError(t, json.Unmarshal(readFile(t, "Pod.json"), &fromJSON))
	_, err = Codec().EncodeTyped(podGVK, &fromJSON)
	require.ErrorIs(t, err, pb.ErrNotTyped, "a pod that keeps JSON")

	_, err = Codec().DecodeInto(readFile(t, "Pod.pb"), &api.ConfigMap{})
	require.Error(t, err, "a Pod into a ConfigMap")
}

// TestCh02_ProtobufTypedKeepsUnmodeledForJSON: a typed Pod read from protobuf, changed and
// written as JSON, carries the fields the view does not model, as one read from JSON does.
func TestCh02_ProtobufTypedKeepsUnmodeledForJSON(t *testing.T) {
	var fromPB, fromJSON api.Pod
	_, err := Codec().DecodeInto(readFile(t, "Pod.pb"), &fromPB)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(readFile(t, "Pod.json"), &fromJSON))
	fromPB.Labels["changed"], fromJSON.Labels["changed"] = "yes", "yes"
	a, err := json.Marshal(fromPB)
	require.NoError(t, err)
	b, err := json.Marshal(fromJSON)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(a))
	assert.Contains(t, string(a), `"changed":"yes"`)
}

// TestCh02_ProtobufTypedDeepEqual: two objects read from the same bytes are equal to
// reflect.DeepEqual, as controllers compare them, the kept message included.
func TestCh02_ProtobufTypedDeepEqual(t *testing.T) {
	var a, b api.Pod
	_, err := Codec().DecodeInto(readFile(t, "Pod.pb"), &a)
	require.NoError(t, err)
	_, err = Codec().DecodeInto(readFile(t, "Pod.pb"), &b)
	require.NoError(t, err)
	assert.True(t, reflect.DeepEqual(a, b))
	assert.True(t, reflect.DeepEqual(a.DeepCopy(), &b))
}
