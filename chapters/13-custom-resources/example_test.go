package ch13_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	ch13 "github.com/informer-lab/informer-lab/chapters/13-custom-resources"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
)

// Example_sampleController runs the sample-controller as a real one runs: the simulated
// apiserver on a loopback port, the Foo kind installed, a shared informer factory whose source
// is the dynamic client (so Foos and Deployments arrive as Unstructured), and every write
// (Deployment, Foo status, Events) over HTTP through the same dynamic client. The example
// watches with the dynamic client too, to wait for what the controller does, and plays the
// deployment controller, which the simulated apiserver does not run.
func Example_sampleController() {
	srv := apiserver.New(apiserver.Options{})
	if _, err := srv.Start("127.0.0.1:0"); err != nil {
		panic(err)
	}
	defer srv.Close()
	check(installFooCRD(srv)) // kubectl apply -f testdata/crd.yaml
	dc := must(dynamic.NewForConfig(&rest.Config{Host: srv.URL()}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	factory := informer.NewSharedInformerFactory(dc, 0)
	foos := must(factory.ForResource(ch13.FooGVR))
	deployments := must(factory.ForResource(ch13.DeploymentGVR))
	ctrl := must(ch13.NewController(dc, deployments, foos, ch13.Options{ErrorHandler: func(err error) { fmt.Println("error:", err) }}))
	factory.StartWithContext(ctx)
	defer factory.Shutdown()
	defer cancel() // runs before Shutdown: stop the informers, then wait for them
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(runCtx, 2) }()
	defer func() { stop(); check(<-done) }()

	fooClient := dc.Resource(ch13.FooGVR).Namespace("default")
	deployClient := dc.Resource(ch13.DeploymentGVR).Namespace("default")
	deployWatch := must(deployClient.Watch(ctx, api.ListOptions{}))
	defer deployWatch.Stop()
	fooWatch := must(fooClient.Watch(ctx, api.ListOptions{}))
	defer fooWatch.Stop()

	foo := must(fooClient.Create(ctx, ch13.NewFoo("default", "example-foo", "example-foo", 1), api.CreateOptions{})) // kubectl apply -f testdata/foo.yaml
	fmt.Printf("created Foo %s: generation=%d\n", foo.GetName(), foo.GetGeneration())

	d := waitFor(deployWatch, func(u *api.Unstructured) bool { return u.GetName() == "example-foo" })
	ref := ch13.GetControllerOf(d)
	fmt.Printf("the controller created Deployment %s: replicas=%d, controller=%s/%s, IsControlledBy=%v\n",
		d.GetName(), ch13.Replicas(d), ref.Kind, ref.Name, ch13.IsControlledBy(d, foo))

	// The deployment controller's part: report the pod as available.
	d = must(deployClient.Get(ctx, "example-foo", api.GetOptions{}))
	check(api.SetNestedField(d.Object, map[string]any{"replicas": int64(1), "availableReplicas": int64(1)}, "status"))
	must(deployClient.UpdateStatus(ctx, d, api.UpdateOptions{}))

	foo = waitFor(fooWatch, func(u *api.Unstructured) bool { return ch13.StatusOf(u).AvailableReplicas == 1 })
	fmt.Printf("Foo %s: generation=%d status=%+v\n", foo.GetName(), foo.GetGeneration(), ch13.StatusOf(foo))

	events := must(dc.Resource(ch13.EventGVR).Namespace("default").List(ctx, api.ListOptions{}))
	var reasons []string
	for _, ev := range events.Items {
		t, _, _ := api.NestedString(ev.Object, "type")
		r, _, _ := api.NestedString(ev.Object, "reason")
		reasons = append(reasons, t+" "+r)
	}
	slices.Sort(reasons)
	fmt.Println("event reasons about example-foo:", strings.Join(slices.Compact(reasons), ", "))
	// Output:
	// created Foo example-foo: generation=1
	// the controller created Deployment example-foo: replicas=1, controller=Foo/example-foo, IsControlledBy=true
	// Foo example-foo: generation=1 status={AvailableReplicas:1 ObservedGeneration:1}
	// event reasons about example-foo: Normal Synced
}

// waitFor reads w until an added or modified object satisfies ok, and returns it.
func waitFor(w watch.Interface, ok func(*api.Unstructured) bool) *api.Unstructured {
	for ev := range w.ResultChan() {
		if u, isU := ev.Object.(*api.Unstructured); isU && (ev.Type == watch.Added || ev.Type == watch.Modified) && ok(u) {
			return u
		}
	}
	panic("watch ended before the object arrived")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
