package ch00_test

import (
	"context"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/rest"
)

// BenchmarkCh00_GetPod compares one GET of a pod through each client over loopback HTTP: the
// wire is the same, so the difference is decoding into *api.Pod (typed) against building
// map[string]any (Unstructured).
func BenchmarkCh00_GetPod(b *testing.B) {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	rc := must(rest.RESTClientFor(cfg))
	cs := must(kubernetes.NewForConfig(cfg))
	dc := must(dynamic.NewForConfig(cfg))
	b.Run("restclient-into", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p api.Pod
			if err := rc.Get().Namespace("demo").Resource("pods").Name("web-1").Do(ctx).Into(&p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("clientset", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cs.CoreV1().Pods("demo").Get(ctx, "web-1", api.GetOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dynamic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := dc.Resource(podsGVR).Namespace("demo").Get(ctx, "web-1", api.GetOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
