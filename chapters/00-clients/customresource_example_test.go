package ch00_test

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/informer"
)

// widget builds a Widget as the dynamic client sends it: a map with kind and apiVersion.
func widget(name string, size int64) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "example.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"size": size},
	}}
}

// Example_customResource is the CRD story. The server learns a new kind while it runs
// (Register plays the CustomResourceDefinition); no Go type exists for it anywhere, so the
// dynamic client does the work. A dynamic informer, built by the same factory as the typed
// ones with the dynamic client as its source, then caches Widgets as Unstructured.
func Example_customResource() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	check(srv.Register(widgetsResource)) // kubectl apply -f widget-crd.yaml
	dc := must(dynamic.NewForConfig(withWire(cfg)))
	widgets := dc.Resource(widgetsGVR).Namespace("demo")
	for i, name := range []string{"small", "large"} {
		w := must(widgets.Create(ctx, widget(name, int64(1+9*i)), api.CreateOptions{}))
		size, _, _ := api.NestedMap(w.Object, "spec")
		fmt.Printf("created %s/%s size=%v generation=%d\n", w.GetKind(), w.GetName(), size["size"], w.GetGeneration())
	}

	// The dynamic client is the factory's source. (Not the printing one: the informer's
	// watch carries a random timeoutSeconds, which would make this output change.)
	factory := informer.NewSharedInformerFactory(must(dynamic.NewForConfig(cfg)), 0)
	gi := must(factory.ForResource(widgetsGVR))
	factory.StartWithContext(ctx)
	defer factory.Shutdown()
	defer cancel() // runs before Shutdown: stop the informers, then wait for them
	factory.WaitForCacheSyncWithContext(ctx)
	cached := must(gi.Lister().ByNamespace("demo").List(labels.Everything()))
	fmt.Println("informer cache:", len(cached), "widgets")
	for _, name := range []string{"large", "small"} {
		obj := must(gi.Lister().ByNamespace("demo").Get(name))
		fmt.Printf("  %T %s\n", obj, obj.(*api.Unstructured).GetName())
	}
	// Output:
	//   POST /apis/example.dev/v1/namespaces/demo/widgets → 201
	// created Widget/small size=1 generation=1
	//   POST /apis/example.dev/v1/namespaces/demo/widgets → 201
	// created Widget/large size=10 generation=1
	// informer cache: 2 widgets
	//   *api.Unstructured large
	//   *api.Unstructured small
}
