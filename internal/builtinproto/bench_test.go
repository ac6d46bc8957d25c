package builtinproto

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/informer-lab/informer-lab/api"
)

// podList builds a PodList tree of n copies of the golden Pod, each with its own name.
func podList(b *testing.B, n int) map[string]any {
	pod := readTree(b, "Pod.json")
	delete(pod, "kind")
	delete(pod, "apiVersion")
	items := make([]any, n)
	for i := range items {
		p := maps.Clone(pod)
		md := maps.Clone(pod["metadata"].(map[string]any))
		md["name"] = fmt.Sprintf("pod-%05d", i)
		p["metadata"] = md
		items[i] = p
	}
	return map[string]any{"apiVersion": "v1", "kind": "PodList",
		"metadata": map[string]any{"resourceVersion": "10000"}, "items": items}
}

// BenchmarkCodec compares protobuf and JSON on the same trees: a realistic Pod and a list of
// 10,000 of them, encoding and decoding. JSON decoding keeps integers as int64, as the
// apiserver's store does.
func BenchmarkCodec(b *testing.B) {
	cases := []struct {
		name string
		gvk  api.GroupVersionKind
		obj  func(b *testing.B) map[string]any
	}{
		{"Pod", api.GroupVersionKind{Version: "v1", Kind: "Pod"}, func(b *testing.B) map[string]any { return readTree(b, "Pod.json") }},
		{"PodList10k", api.GroupVersionKind{Version: "v1", Kind: "PodList"}, func(b *testing.B) map[string]any { return podList(b, 10000) }},
	}
	for _, c := range cases {
		obj := c.obj(b)
		pb, err := Encode(c.gvk, obj)
		if err != nil {
			b.Fatal(err)
		}
		js, err := json.Marshal(obj)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/encode/protobuf", func(b *testing.B) {
			b.SetBytes(int64(len(pb)))
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				if buf, err = Codec().AppendEncode(buf[:0], c.gvk, obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encode/json", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/decode/protobuf", func(b *testing.B) {
			b.SetBytes(int64(len(pb)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Decode(pb); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/decode/json", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				var u api.Unstructured
				if err := json.Unmarshal(js, &u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTypedCodec is BenchmarkCodec's protobuf rows through the typed path: api.Pod and
// api.PodList read and written with no tree between (interop/protobuf puts the same rows
// beside k8s.io/api's generated code).
func BenchmarkTypedCodec(b *testing.B) {
	cases := []struct {
		name  string
		gvk   api.GroupVersionKind
		obj   func(b *testing.B) map[string]any
		typed func() api.Object
	}{
		{"Pod", api.GroupVersionKind{Version: "v1", Kind: "Pod"}, func(b *testing.B) map[string]any { return readTree(b, "Pod.json") },
			func() api.Object { return &api.Pod{} }},
		{"PodList10k", api.GroupVersionKind{Version: "v1", Kind: "PodList"}, func(b *testing.B) map[string]any { return podList(b, 10000) },
			func() api.Object { return &api.PodList{} }},
	}
	for _, c := range cases {
		data, err := Encode(c.gvk, c.obj(b))
		if err != nil {
			b.Fatal(err)
		}
		typed := c.typed()
		if _, err := Codec().DecodeInto(data, typed); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/encode", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				if buf, err = Codec().AppendEncodeTyped(buf[:0], c.gvk, typed); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/decode", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Codec().DecodeInto(data, c.typed()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
