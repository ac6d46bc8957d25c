package ch00_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Example_typedErrors: a failed call returns the server's Status as the error, so the
// api.Is* predicates (apierrors.IsNotFound … in client-go) tell the cases apart without
// parsing messages.
func Example_typedErrors() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	pods := must(kubernetes.NewForConfig(cfg)).CoreV1().Pods("demo")
	stale := must(pods.Get(ctx, "web-1", api.GetOptions{}))
	fresh := stale.DeepCopy()
	fresh.Labels["v"] = "2"
	must(pods.Update(ctx, fresh, api.UpdateOptions{}))

	show := func(err error) {
		st := err.(*api.Status)
		fmt.Printf("%d %-15s NotFound=%-5t AlreadyExists=%-5t Conflict=%-5t Invalid=%-5t | %s\n", st.Code, st.Reason,
			api.IsNotFound(err), api.IsAlreadyExists(err), api.IsConflict(err), api.IsInvalid(err), st.Message)
	}
	_, err := pods.Get(ctx, "nope", api.GetOptions{})
	show(err)
	_, err = pods.Create(ctx, webPod("web-2"), api.CreateOptions{})
	show(err)
	stale.Labels["v"] = "3"
	_, err = pods.Update(ctx, stale, api.UpdateOptions{})
	show(err)
	_, err = pods.Create(ctx, webPod("Web_3"), api.CreateOptions{})
	st := err.(*api.Status)
	fmt.Printf("%d %-15s Invalid=%t field=%s\n", st.Code, st.Reason, api.IsInvalid(err), st.Details.Causes[0].Field)
	// Output:
	// 404 NotFound        NotFound=true  AlreadyExists=false Conflict=false Invalid=false | pods "nope" not found
	// 409 AlreadyExists   NotFound=false AlreadyExists=true  Conflict=false Invalid=false | pods "web-2" already exists
	// 409 Conflict        NotFound=false AlreadyExists=false Conflict=true  Invalid=false | Operation cannot be fulfilled on pods "web-1": the object has been modified; please apply your changes to the latest version and try again
	// 422 Invalid         Invalid=true field=metadata.name
}

// Example_followOneRequest follows one LIST through both sides, the server's hops and the
// client's, when the server is overloaded: it answers 429 with Retry-After: 2, the client
// waits (on Config.Clock, instant here) and sends the same request again, and only the
// second answer reaches the caller. client-go does the same up to 10 times (R9).
func Example_followOneRequest() {
	out := &gate{}
	logger := trace.NewPlainLogger(out)
	srv, cfg := startLab(apiserver.Options{Logger: logger})
	defer srv.Close()
	out.open() // from here on: the lab's setup writes are not part of the story
	cfg.Logger = logger
	cfg.Clock = instantClock{}
	pods := must(kubernetes.NewForConfig(cfg)).CoreV1().Pods("demo")

	srv.FailNext(apiserver.FailRule{Verb: "list", Resource: "pods", Count: 1, Code: 429, RetryAfterSeconds: 2})
	list := must(pods.List(context.Background(), api.ListOptions{}))
	fmt.Println("caller got", len(list.Items), "pods at rv", list.ResourceVersion)
	// Output:
	// msg="apiserver fault" component=apiserver op=fault key=pods rv="" fault=fail-next verb=list code=429 count=1
	// msg="apiserver fault" component=apiserver op=fault key=pods rv=6 fault=fail verb=list code=429
	// msg="listwatch retry" component=listwatch op=retry key=/api/v1/namespaces/demo/pods rv="" attempt=1 wait=2s code=429
	// msg="apiserver list" component=apiserver op=list key=demo/pods rv=6 items=2
	// msg="listwatch list" component=listwatch op=list key=/api/v1/namespaces/demo/pods rv=6 items=2
	// caller got 2 pods at rv 6
}

// gate passes writes to the current os.Stdout (which an Example captures) once opened.
type gate struct{ on atomic.Bool }

func (g *gate) open() { g.on.Store(true) }

func (g *gate) Write(p []byte) (int, error) {
	if !g.on.Load() {
		return len(p), nil
	}
	return os.Stdout.Write(p)
}
