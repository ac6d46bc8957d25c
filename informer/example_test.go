package informer_test

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// A SharedIndexInformer over an in-memory source: the initial list arrives as adds, then
// each change as one notification, after the indexer was written (cache first, then notify).
func ExampleNewSharedIndexInformer() {
	src := fakesource.New()
	defer src.Close()
	_, _ = src.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}})

	inf := informer.NewSharedIndexInformer(src, &api.Pod{}, 0, nil)
	events := make(chan string, 8)
	_, _ = inf.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { events <- "add " + obj.(*api.Pod).Name },
		UpdateFunc: func(_, obj any) { events <- "update " + obj.(*api.Pod).Name },
		DeleteFunc: func(obj any) { events <- "delete" },
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	informer.WaitForCacheSync(ctx.Done(), inf.HasSynced)
	fmt.Println(<-events, "| cached:", inf.GetIndexer().ListKeys())

	_, _ = src.Modify(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web", Labels: map[string]string{"v": "2"}}})
	fmt.Println(<-events)
	cancel()
	<-done
	// Output:
	// add web | cached: [default/web]
	// update web
}
