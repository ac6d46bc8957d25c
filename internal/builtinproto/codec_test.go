package builtinproto

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// servedKinds are the built-in kinds the simulated apiserver serves, with their lists.
var servedKinds = []api.GroupVersionKind{
	{Version: "v1", Kind: "Pod"}, {Version: "v1", Kind: "ConfigMap"}, {Version: "v1", Kind: "Namespace"},
	{Version: "v1", Kind: "Node"}, {Version: "v1", Kind: "Service"}, {Version: "v1", Kind: "Endpoints"},
	{Version: "v1", Kind: "Secret"}, {Version: "v1", Kind: "ServiceAccount"}, {Version: "v1", Kind: "Event"},
	{Version: "v1", Kind: "PersistentVolumeClaim"},
	{Group: "apps", Version: "v1", Kind: "Deployment"}, {Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}, {Group: "apps", Version: "v1", Kind: "DaemonSet"},
	{Group: "batch", Version: "v1", Kind: "Job"}, {Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"},
	{Group: "events.k8s.io", Version: "v1", Kind: "Event"},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
}

func TestCh02_ProtobufCodecKnowsServedKinds(t *testing.T) {
	for _, gvk := range servedKinds {
		assert.True(t, Recognizes(gvk), "%v", gvk)
		list := gvk
		list.Kind += "List"
		assert.True(t, Recognizes(list), "%v", list)
	}
	for _, gvk := range []api.GroupVersionKind{
		{Group: "autoscaling", Version: "v1", Kind: "Scale"}, {Version: "v1", Kind: "Status"},
		{Version: "v1", Kind: "DeleteOptions"}, {Group: "apps", Version: "v1", Kind: "DeleteOptions"},
		{Version: "v1", Kind: "WatchEvent"}, {Group: "meta.k8s.io", Version: "v1", Kind: "Status"},
	} {
		assert.True(t, Recognizes(gvk), "%v", gvk)
	}
	for _, gvk := range []api.GroupVersionKind{
		{Group: "example.com", Version: "v1", Kind: "Widget"}, {Group: "meta.k8s.io", Version: "v1", Kind: "Table"},
		{Version: "v2", Kind: "Pod"},
	} {
		assert.False(t, Recognizes(gvk), "%v", gvk)
	}
}

func readTree(t testing.TB, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var u api.Unstructured
	require.NoError(t, json.Unmarshal(data, &u))
	return u.Object
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// TestCh02_ProtobufGoldenBytes checks our codec against bytes the real serializer wrote
// (interop/protobuf keeps testdata current): Encode of the object's JSON gives them, and
// Decode of them gives the JSON back.
func TestCh02_ProtobufGoldenBytes(t *testing.T) {
	for _, name := range []string{"Pod", "Deployment", "Status", "PodList"} {
		t.Run(name, func(t *testing.T) {
			obj := readTree(t, name+".json")
			want := readFile(t, name+".pb")
			gvk, _ := gvkOf(obj)
			got, err := Encode(gvk, obj)
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))

			gotGVK, decoded, err := Decode(want)
			require.NoError(t, err)
			assert.Equal(t, gvk, gotGVK)
			if diff := cmp.Diff(obj, decoded); diff != "" {
				t.Fatalf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCh02_ProtobufGoldenWatchFrame(t *testing.T) {
	pod := readTree(t, "Pod.json")
	want := readFile(t, "Pod.frame")
	got, err := EncodeWatchEvent("ADDED", api.GroupVersionKind{Version: "v1", Kind: "Pod"}, pod)
	require.NoError(t, err)
	require.Equal(t, want, got)
	typ, gvk, obj, err := DecodeWatchEvent(want)
	require.NoError(t, err)
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, api.GroupVersionKind{Version: "v1", Kind: "Pod"}, gvk)
	assert.Empty(t, cmp.Diff(pod, obj))

	var stream bytes.Buffer
	w := NewLengthDelimitedFrameWriter(&stream)
	for range 3 {
		_, err := w.Write(got)
		require.NoError(t, err)
	}
	r := NewLengthDelimitedFrameReader(io.NopCloser(&stream), 0)
	for range 3 {
		frame, err := r.ReadFrame()
		require.NoError(t, err)
		assert.Equal(t, want, frame)
	}
	_, err = r.ReadFrame()
	assert.ErrorIs(t, err, io.EOF)
}

func gvkOf(obj map[string]any) (api.GroupVersionKind, bool) {
	u := api.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	return gvk, gvk.Kind != ""
}

// Example_watchFrame prints one protobuf watch frame byte by byte: the 4-byte length, then
// a WatchEvent (type ADDED; object = the enveloped Namespace: "k8s\x00", typeMeta, raw).
func Example_watchFrame() {
	ns := map[string]any{"metadata": map[string]any{"name": "team-a", "resourceVersion": "7"}}
	ev, err := EncodeWatchEvent("ADDED", api.GroupVersionKind{Version: "v1", Kind: "Namespace"}, ns)
	if err != nil {
		panic(err)
	}
	var frame bytes.Buffer
	if _, err := NewLengthDelimitedFrameWriter(&frame).Write(ev); err != nil {
		panic(err)
	}
	fmt.Print(hex.Dump(frame.Bytes()))
	// Output:
	// 00000000  00 00 00 45 0a 05 41 44  44 45 44 12 3c 0a 3a 6b  |...E..ADDED.<.:k|
	// 00000010  38 73 00 0a 0f 0a 02 76  31 12 09 4e 61 6d 65 73  |8s.....v1..Names|
	// 00000020  70 61 63 65 12 1f 0a 17  0a 06 74 65 61 6d 2d 61  |pace......team-a|
	// 00000030  12 00 1a 00 22 00 2a 00  32 01 37 38 00 42 00 12  |....".*.2.78.B..|
	// 00000040  00 1a 02 0a 00 1a 00 22  00                       |.......".|
}
