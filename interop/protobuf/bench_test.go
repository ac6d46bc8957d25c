package protobuf

import (
	"bytes"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
)

// podList10k is a PodList of 10,000 fixture pods with distinct names.
func podList10k() *corev1.PodList {
	list := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "10000"}, Items: make([]corev1.Pod, 10000)}
	for i := range list.Items {
		list.Items[i] = listItem()
		list.Items[i].Name = fmt.Sprintf("pod-%05d", i)
	}
	return list
}

// BenchmarkCodec puts our codec beside the generated code (typed object in, typed object out,
// through the real serializer) on a full Pod and on a 10k-pod list:
// BenchmarkCodec/<object>/<encode|decode>/<ours|typed|generated>. ours is the tree path (JSON
// tree in, JSON tree out); typed reads into and writes from api.Pod and api.PodList, whose
// items keep their message for the fields the view does not model, so the typed encoding
// is the same bytes.
func BenchmarkCodec(b *testing.B) {
	c := codec(b)
	for _, tc := range []struct {
		name string
		obj  k8sruntime.Object
	}{{"Pod", pod()}, {"PodList10k", podList10k()}} {
		gvk, data, obj := gvkOf(tc.obj), realEncode(b, tc.obj), tree(b, tc.obj)
		b.Run(tc.name+"/encode/ours", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var buf []byte
			var err error
			for b.Loop() {
				if buf, err = c.AppendEncode(buf[:0], gvk, obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		typed, _ := typedOf(gvk)
		if _, err := c.DecodeInto(data, typed); err != nil {
			b.Fatal(err)
		}
		if again, err := c.EncodeTyped(gvk, typed); err != nil || !bytes.Equal(again, data) {
			b.Fatalf("the typed encoding differs: %v", err)
		}
		b.Run(tc.name+"/encode/typed", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var buf []byte
			var err error
			for b.Loop() {
				if buf, err = c.AppendEncodeTyped(buf[:0], gvk, typed); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/encode/generated", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := real.Encode(tc.obj, &buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/decode/ours", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := c.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/decode/typed", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				obj, _ := typedOf(gvk)
				if _, err := c.DecodeInto(data, obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/decode/generated", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := real.Decode(data, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
