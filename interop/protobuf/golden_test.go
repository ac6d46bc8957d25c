package protobuf

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
)

var update = flag.Bool("update", false, "rewrite the main module's protobuf golden files")

// TestCh02_ProtobufGoldenFiles keeps internal/builtinproto/testdata, which the main module's
// tests use without k8s.io, equal to what the real serializer writes: each .json is
// json.Marshal of a fixture and each .pb the real protobuf encoding of it (.frame: one watch
// event's frame content). Run with -update to rewrite them.
func TestCh02_ProtobufGoldenFiles(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "internal", "builtinproto", "testdata")
	fx := fixtures()
	pod := fx["Pod"]
	ev := metav1.WatchEvent{Type: "ADDED", Object: k8sruntime.RawExtension{Raw: realEncode(t, pod)}}
	frame, err := ev.Marshal()
	require.NoError(t, err)
	files := map[string][]byte{}
	for _, name := range []string{"Pod", "Deployment", "Status", "PodList"} {
		j, err := json.MarshalIndent(fx[name], "", "  ")
		require.NoError(t, err)
		files[name+".json"] = append(j, '\n')
		files[name+".pb"] = realEncode(t, fx[name])
	}
	files["Pod.frame"] = frame
	for name, want := range files {
		path := filepath.Join(dir, name)
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, want, 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "run go test ./protobuf -run GoldenFiles -update")
		require.True(t, bytes.Equal(want, got), "%s is stale: run go test ./protobuf -run GoldenFiles -update", name)
	}
}
