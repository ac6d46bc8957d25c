package ch02_test

import (
	"context"
	"fmt"
	"os"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
)

// Example_followOneEvent shows the hops the client logs when Config.Logger is set: the list
// (its RV and item count), the watch opening at that RV, one line per event, and the close
// after Stop. In an informer the next hop is the reflector (chapter 05).
func Example_followOneEvent() {
	srv := apiserver.New(apiserver.Options{})
	if _, err := srv.Start("127.0.0.1:0"); err != nil {
		panic(err)
	}
	defer srv.Close()
	ctx := context.Background()
	if _, err := srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}); err != nil {
		panic(err)
	}
	if _, err := srv.Create(ctx, "pods", "demo", newPod("a")); err != nil {
		panic(err)
	}

	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL(), Logger: trace.NewPlainLogger(os.Stdout)})
	if err != nil {
		panic(err)
	}
	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	obj, err := lw.List(api.ListOptions{ResourceVersion: "0"})
	if err != nil {
		panic(err)
	}
	w, err := lw.Watch(api.ListOptions{ResourceVersion: obj.(*api.PodList).ResourceVersion})
	if err != nil {
		panic(err)
	}
	if _, err := srv.Create(ctx, "pods", "demo", newPod("b")); err != nil {
		panic(err)
	}
	ev := <-w.ResultChan()
	w.Stop()
	for range w.ResultChan() { // wait for the close
	}
	fmt.Println("handed to the reflector:", ev.Type, ev.Object.(*api.Pod).Name)
	// Output:
	// msg="listwatch list" component=listwatch op=list key=/api/v1/namespaces/demo/pods rv=5 items=1
	// msg="listwatch watch-open" component=listwatch op=watch-open key=/api/v1/namespaces/demo/pods rv=5
	// msg="listwatch watch-event" component=listwatch op=watch-event key=demo/b rv=6 type=ADDED
	// msg="listwatch watch-close" component=listwatch op=watch-close key=/api/v1/namespaces/demo/pods rv=6 reason=stopped
	// handed to the reflector: ADDED b
}
