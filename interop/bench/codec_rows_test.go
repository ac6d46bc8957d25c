package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	k8sproto "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
)

// mainModuleDir is the main module's directory, whose files this module reads (it may not
// import the main module's internal packages).
func mainModuleDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// ourCodec builds our protobuf codec from the descriptor files the main module embeds.
func ourCodec(t *testing.T) *pb.Codec {
	dir := filepath.Join(mainModuleDir(), "internal", "builtinproto", "descriptors")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("descriptors in %s: %v", dir, err)
	}
	files := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimSuffix(filepath.Base(p), ".json")] = data
	}
	c, err := pb.NewCodec(files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// codecRows put our typed protobuf codec (api.Pod and api.PodList in and out, no JSON tree)
// beside k8s.io/api's generated code through the real serializer (core/v1 Pod and PodList),
// on the realistic Pod of the golden files and on a list of 10,000 of them. Our views model
// a subset of the fields and keep the message for the rest, so both sides write the same
// bytes (checked here before timing).
func codecRows(t *testing.T) []*row {
	c := ourCodec(t)
	real := k8sproto.NewSerializer(scheme.Scheme, scheme.Scheme)
	podPB, err := os.ReadFile(filepath.Join(mainModuleDir(), "internal", "builtinproto", "testdata", "Pod.pb"))
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := real.Decode(podPB, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pod := obj.(*corev1.Pod)
	list := &corev1.PodList{Items: make([]corev1.Pod, 10_000)}
	list.APIVersion, list.Kind, list.ResourceVersion = "v1", "PodList", "10000"
	for i := range list.Items {
		list.Items[i] = *pod.DeepCopy()
		list.Items[i].TypeMeta = metav1.TypeMeta{}
		list.Items[i].Name = fmt.Sprintf("pod-%05d", i)
	}
	var rows []*row
	for _, tc := range []struct {
		name  string
		obj   k8sruntime.Object
		typed func() api.Object
	}{
		{"Pod", pod, func() api.Object { return &api.Pod{} }},
		{"PodList 10k", list, func() api.Object { return &api.PodList{} }},
	} {
		var buf bytes.Buffer
		if err := real.Encode(tc.obj, &buf); err != nil {
			t.Fatal(err)
		}
		data := bytes.Clone(buf.Bytes())
		typed := tc.typed()
		gvk, err := c.DecodeInto(data, typed)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := c.EncodeTyped(gvk, typed); err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%s: the typed encoding is not the generated code's bytes (%v)", tc.name, err)
		}
		rows = append(rows,
			&row{name: codecRowName("encode", tc.name),
				ours: func(b *testing.B) {
					var out []byte
					for b.Loop() {
						if out, err = c.AppendEncodeTyped(out[:0], gvk, typed); err != nil {
							b.Fatal(err)
						}
					}
				},
				theirs: func(b *testing.B) {
					var out bytes.Buffer
					for b.Loop() {
						out.Reset()
						if err := real.Encode(tc.obj, &out); err != nil {
							b.Fatal(err)
						}
					}
				}},
			&row{name: codecRowName("decode", tc.name),
				ours: func(b *testing.B) {
					for b.Loop() {
						if _, err := c.DecodeInto(data, tc.typed()); err != nil {
							b.Fatal(err)
						}
					}
				},
				theirs: func(b *testing.B) {
					for b.Loop() {
						if _, _, err := real.Decode(data, nil, nil); err != nil {
							b.Fatal(err)
						}
					}
				}})
	}
	return rows
}

func codecRowName(op, subject string) string {
	return "protobuf " + op + " " + subject + " (typed vs generated)"
}

func codecRowNames() []string {
	var out []string
	for _, subject := range []string{"Pod", "PodList 10k"} {
		out = append(out, codecRowName("encode", subject), codecRowName("decode", subject))
	}
	return out
}
