package protobuf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	k8sproto "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
)

var (
	codecOnce    sync.Once
	ours         *pb.Codec
	codecErr     error
	real         = k8sproto.NewSerializer(scheme.Scheme, scheme.Scheme)
	clientScheme = scheme.Scheme
)

// codec builds our codec from the descriptor files the main module embeds. This module may
// not import the main module's internal package, so it reads the same files from disk.
func codec(tb testing.TB) *pb.Codec {
	tb.Helper()
	codecOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(file), "..", "..", "internal", "builtinproto", "descriptors")
		paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(paths) == 0 {
			codecErr = err
			if codecErr == nil {
				codecErr = os.ErrNotExist
			}
			return
		}
		files := map[string][]byte{}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				codecErr = err
				return
			}
			files[strings.TrimSuffix(filepath.Base(p), ".json")] = data
		}
		ours, codecErr = pb.NewCodec(files)
	})
	require.NoError(tb, codecErr)
	return ours
}

// tree is the JSON tree of obj as the main module holds it (integers int64).
func tree(tb testing.TB, obj any) map[string]any {
	tb.Helper()
	data, err := json.Marshal(obj)
	require.NoError(tb, err)
	var u api.Unstructured
	require.NoError(tb, json.Unmarshal(data, &u))
	return u.Object
}

func gvkOf(obj k8sruntime.Object) api.GroupVersionKind {
	g := obj.GetObjectKind().GroupVersionKind()
	return api.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind}
}

func realEncode(tb testing.TB, obj k8sruntime.Object) []byte {
	tb.Helper()
	var buf bytes.Buffer
	require.NoError(tb, real.Encode(obj, &buf))
	return buf.Bytes()
}

// realRoundTrip decodes real protobuf bytes with the real serializer.
func realDecode(tb testing.TB, data []byte) k8sruntime.Object {
	tb.Helper()
	obj, _, err := real.Decode(data, nil, nil)
	require.NoError(tb, err)
	return obj
}

// checkObject is the byte-for-byte property for one object: our Encode of its JSON tree is the
// real serializer's bytes, and our Decode of those bytes is the JSON of what the real
// decoder reads from them.
func checkObject(t *testing.T, obj k8sruntime.Object) {
	t.Helper()
	c := codec(t)
	want := realEncode(t, obj)
	got, err := c.Encode(gvkOf(obj), tree(t, obj))
	require.NoError(t, err)
	if !bytes.Equal(want, got) {
		t.Fatalf("Encode differs from the real serializer\nwant %x\ngot  %x\n%s", want, got, firstDiff(want, got))
	}
	back := realDecode(t, want)
	gvk, decoded, err := c.Decode(want)
	require.NoError(t, err)
	require.Equal(t, gvkOf(obj), gvk)
	if diff := cmp.Diff(tree(t, back), decoded); diff != "" {
		t.Fatalf("Decode differs from json.Marshal of the real decoder's object (-want +got):\n%s", diff)
	}
}

// firstDiff shows both sides in hex around the first byte where they differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-16)
	return fmt.Sprintf("first difference at byte %d of %d/%d:\nwant …%x\ngot  …%x", i, len(a), len(b),
		a[lo:min(len(a), i+32)], b[lo:min(len(b), i+32)])
}

func TestCh02_ProtobufMatchesGeneratedCode(t *testing.T) {
	for name, obj := range fixtures() {
		t.Run(name, func(t *testing.T) { checkObject(t, obj) })
	}
}

// TestCh02_ProtobufWatchEventMatchesApiserver builds a watch frame the way the apiserver's
// protobuf watch does (a bare WatchEvent whose object is enveloped) and checks both ways.
func TestCh02_ProtobufWatchEventMatchesApiserver(t *testing.T) {
	c := codec(t)
	for _, tc := range []struct {
		typ string
		obj k8sruntime.Object
	}{
		{"ADDED", fixtures()["Pod"]},
		{"MODIFIED", fixtures()["Deployment"]},
		{"DELETED", fixtures()["ConfigMap"]},
		{"BOOKMARK", &metav1.PartialObjectMetadata{}},
		{"ERROR", fixtures()["Status"]},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			obj := tc.obj
			if tc.typ == "BOOKMARK" {
				obj = fixtures()["PodMinimal"]
				obj.(metav1.Object).SetResourceVersion("777")
				obj.(metav1.Object).SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
			}
			raw := realEncode(t, obj)
			ev := metav1.WatchEvent{Type: tc.typ, Object: k8sruntime.RawExtension{Raw: raw}}
			want, err := ev.Marshal()
			require.NoError(t, err)
			got, err := c.EncodeWatchEvent(tc.typ, gvkOf(obj), tree(t, obj))
			require.NoError(t, err)
			require.Equal(t, want, got)

			typ, gvk, decoded, err := c.DecodeWatchEvent(want)
			require.NoError(t, err)
			require.Equal(t, tc.typ, typ)
			require.Equal(t, gvkOf(obj), gvk)
			if diff := cmp.Diff(tree(t, realDecode(t, raw)), decoded); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}

			// the same event met as a WatchEvent tree (Marshal writes the bare message)
			gotRaw, err := c.Marshal(api.GroupVersionKind{Version: "v1", Kind: "WatchEvent"},
				map[string]any{"type": tc.typ, "object": tree(t, obj)})
			require.NoError(t, err)
			require.Equal(t, want, gotRaw)
		})
	}
}
