package ch00_test

import (
	"context"
	"fmt"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/rest"
)

// Ways 2–4 of "list pods, then update one". The lines starting with two spaces are the
// requests each client sent: the same two requests every time.

// Example_restClient is way 2: the request builder every other client is made of
// (rest.RESTClient). You name the path piece by piece and decode into a type you choose.
func Example_restClient() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	c := must(rest.RESTClientFor(withWire(cfg)))

	var pods api.PodList
	check(c.Get().Namespace("demo").Resource("pods").
		VersionedParams(&api.ListOptions{LabelSelector: "app=web"}).
		Do(ctx).Into(&pods))
	for _, p := range pods.Items {
		fmt.Printf("%s rv=%s\n", p.Name, p.ResourceVersion)
	}

	p := pods.Items[0].DeepCopy() // never change what you listed in place: copy first
	p.Labels["tier"] = "frontend"
	var updated api.Pod
	check(c.Put().Namespace("demo").Resource("pods").Name(p.Name).Body(p).Do(ctx).Into(&updated))
	fmt.Printf("updated %s: rv %s → %s, labels %v\n", updated.Name, p.ResourceVersion, updated.ResourceVersion, updated.Labels)
	// Output:
	//   GET /api/v1/namespaces/demo/pods?labelSelector=app%3Dweb → 200
	// web-1 rv=5
	// web-2 rv=6
	//   PUT /api/v1/namespaces/demo/pods/web-1 → 200
	// updated web-1: rv 5 → 7, labels map[app:web tier:frontend]
}

// Example_clientset is way 3: the typed clientset. The path is implied by the method
// (CoreV1().Pods(ns)), and the types are fixed at compile time: List returns *api.PodList,
// Update takes and returns *api.Pod.
func Example_clientset() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	cs := must(kubernetes.NewForConfig(withWire(cfg)))

	pods := must(cs.CoreV1().Pods("demo").List(ctx, api.ListOptions{}))
	for _, p := range pods.Items {
		fmt.Printf("%s image=%s\n", p.Name, p.Spec.Containers[0].Image)
	}

	p := pods.Items[0].DeepCopy()
	p.Spec.Containers[0].Image = "nginx:1.28"
	updated := must(cs.CoreV1().Pods("demo").Update(ctx, p, api.UpdateOptions{}))
	fmt.Printf("updated %s: image=%s rv=%s generation=%d\n", updated.Name, updated.Spec.Containers[0].Image, updated.ResourceVersion, updated.Generation)
	// Output:
	//   GET /api/v1/namespaces/demo/pods → 200
	// web-1 image=nginx:1.27
	// web-2 image=nginx:1.27
	//   PUT /api/v1/namespaces/demo/pods/web-1 → 200
	// updated web-1: image=nginx:1.28 rv=7 generation=2
}

// Example_dynamicClient is way 4: the dynamic client. The resource is a value chosen at run
// time (a GroupVersionResource) and objects are maps: no Go type for Pod is needed, and the
// compiler checks nothing about the fields.
func Example_dynamicClient() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	dc := must(dynamic.NewForConfig(withWire(cfg)))

	list := must(dc.Resource(podsGVR).Namespace("demo").List(ctx, api.ListOptions{}))
	for _, u := range list.Items {
		phase, _, _ := api.NestedString(u.Object, "status", "phase") // a path into the map, not a field
		fmt.Printf("%s %T phase=%s\n", u.GetName(), &u, phase)
	}

	u := list.Items[1].DeepCopy()
	check(api.SetNestedField(u.Object, "frontend", "metadata", "labels", "tier"))
	updated := must(dc.Resource(podsGVR).Namespace("demo").Update(ctx, u, api.UpdateOptions{}))
	fmt.Printf("updated %s: rv=%s labels=%v\n", updated.GetName(), updated.GetResourceVersion(), updated.GetLabels())
	// Output:
	//   GET /api/v1/namespaces/demo/pods → 200
	// web-1 *api.Unstructured phase=Pending
	// web-2 *api.Unstructured phase=Pending
	//   PUT /api/v1/namespaces/demo/pods/web-2 → 200
	// updated web-2: rv=7 labels=map[app:web tier:frontend]
}

// Example_articleA16 is block 1.3 of 《client-go学习》 (docs/articles.md): the typed clientset's
// CoreV1().Pods("book").Get("example") is GET /api/v1/namespaces/book/pods/example; a
// strategic-merge patch adds a label; the dynamic client reads the same pod as Unstructured.
// (The article lists nodes; this example reads a pod instead.)
func Example_articleA16() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	must(srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "book"}}))
	must(srv.Create(ctx, "pods", "book", webPod("example")))
	wired := withWire(cfg)
	cs := must(kubernetes.NewForConfig(wired))
	dc := must(dynamic.NewForConfig(wired))

	pod := must(cs.CoreV1().Pods("book").Get(ctx, "example", api.GetOptions{}))
	fmt.Printf("typed:   %T %s/%s\n", pod, pod.Namespace, pod.Name)

	patched := must(cs.CoreV1().Pods("book").Patch(ctx, "example", api.StrategicMergePatchType,
		[]byte(`{"metadata":{"labels":{"chapter":"00"}}}`), api.PatchOptions{}))
	fmt.Printf("patched: labels=%v rv=%s\n", patched.Labels, patched.ResourceVersion)

	u := must(dc.Resource(podsGVR).Namespace("book").Get(ctx, "example", api.GetOptions{}))
	keys := make([]string, 0, len(u.Object))
	for k := range u.Object {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("dynamic: %T keys=%v labels=%v\n", u, keys, u.GetLabels())
	// Output:
	//   GET /api/v1/namespaces/book/pods/example → 200
	// typed:   *api.Pod book/example
	//   PATCH /api/v1/namespaces/book/pods/example → 200
	// patched: labels=map[chapter:00] rv=9
	//   GET /api/v1/namespaces/book/pods/example → 200
	// dynamic: *api.Unstructured keys=[apiVersion kind metadata spec status] labels=map[chapter:00]
}
