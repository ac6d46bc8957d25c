package ch08_test

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
)

// printer is a handler that keeps "<name>: Add <object>" lines, to print once the example is
// done: two handlers run on two goroutines, so printing at once would interleave them.
type printer struct {
	name  string
	mu    sync.Mutex
	lines []string
}

func (p *printer) add(verb string, obj any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines = append(p.lines, p.name+": "+verb+" "+keyOf(obj))
}

func (p *printer) OnAdd(obj any, _ bool)  { p.add("Add", obj) }
func (p *printer) OnUpdate(_, newObj any) { p.add("Update", newObj) }
func (p *printer) OnDelete(obj any)       { p.add("Delete", obj) }

func (p *printer) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

func (p *printer) print() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lines {
		fmt.Println(l)
	}
}

// Example_articleTwoHandlers is the SharedInformer example of the runnable-examples article
// (docs/articles.md, block 4.17): one shared informer for configmaps, two
// handlers. Both see every event, and the server saw one LIST and one WATCH: one reflector,
// one cache, however many handlers (T11). The articles' profile is used; under ProfileCurrent
// the wire shows a single watch-list WATCH instead.
func Example_articleTwoHandlers() {
	c := startCluster()
	defer c.stop()
	lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
	inf := informer.NewSharedIndexInformerWithOptions(lw, &api.ConfigMap{}, informer.SharedIndexInformerOptions{Profile: informer.ProfileClassic})
	one, two := &printer{name: "handler-1"}, &printer{name: "handler-2"}
	for _, h := range []*printer{one, two} {
		if _, err := inf.AddEventHandler(h); err != nil {
			panic(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	informer.WaitForCacheSync(ctx.Done(), inf.HasSynced)

	c.create("configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "demo"}})
	informer.WaitForCacheSync(ctx.Done(), func() bool { return one.count() == 3 && two.count() == 3 })
	cancel()
	<-done
	one.print()
	two.print()
	counts := c.srv.RequestCounts()
	fmt.Printf("configmaps on the wire: LIST=%d WATCH=%d\n",
		counts[apiserver.RequestKey{Verb: "list", Resource: "configmaps"}], counts[apiserver.RequestKey{Verb: "watch", Resource: "configmaps"}])
	// Output:
	// handler-1: Add default/app-config
	// handler-1: Add default/kube-root-ca.crt
	// handler-1: Add default/demo
	// handler-2: Add default/app-config
	// handler-2: Add default/kube-root-ca.crt
	// handler-2: Add default/demo
	// configmaps on the wire: LIST=1 WATCH=1
}

// Example_articleFactory is the factory example of the runnable-examples article
// (docs/articles.md, block 4.18): a factory limited to the default namespace;
// ForResource for configmaps (with a handler) and for pods; Start; WaitForCacheSync; then
// everything is read through the listers, from the cache. The pod in kube-system is not
// there: the factory's namespace reached the LIST and the WATCH (FA-6).
func Example_articleFactory() {
	c := startCluster()
	defer c.stop()
	factory := informer.NewSharedInformerFactoryWithOptions(informer.NewRESTSource(c.client), 0, informer.WithNamespace("default"))

	cms, err := factory.ForResource(api.GroupVersionResource{Version: "v1", Resource: "configmaps"})
	if err != nil {
		panic(err)
	}
	adds := &printer{name: "configmap handler"}
	reg, err := cms.Informer().AddEventHandler(adds)
	if err != nil {
		panic(err)
	}
	pods, err := factory.ForResource(api.GroupVersionResource{Version: "v1", Resource: "pods"})
	if err != nil {
		panic(err)
	}

	stop := make(chan struct{})
	factory.Start(stop)
	factory.WaitForCacheSync(stop)
	// The informers are synced; the handler may still be busy with its adds (FA-7).
	informer.WaitFor(context.Background(), "handler", reg.HasSyncedChecker())

	fmt.Println("Configmap:")
	list, _ := cms.Lister().List(labels.Everything())
	for _, k := range sortedKeys(list) {
		fmt.Println(k)
	}
	fmt.Println("Pod:")
	list, _ = pods.Lister().List(labels.Everything())
	for _, k := range sortedKeys(list) {
		fmt.Println(k)
	}
	fmt.Println("the handler saw", adds.count(), "adds")
	close(stop)
	factory.Shutdown()
	// Output:
	// Configmap:
	// default/app-config
	// default/kube-root-ca.crt
	// Pod:
	// default/web-1
	// default/web-2
	// the handler saw 2 adds
}

// Example_lateHandler shows T13: a handler added to an informer that synced long ago first
// receives one add per cached object, flagged isInInitialList, and its registration reports
// synced only once those adds have returned, whatever the informer says (SI-14, SI-15). The
// handler is held at a gate so the "not yet" moment can be printed.
func Example_lateHandler() {
	c := startCluster()
	defer c.stop()
	factory := informer.NewSharedInformerFactory(informer.NewRESTSource(c.client), 0)
	pods := factory.Core().V1().Pods()
	inf := pods.Informer()
	ctx, cancel := context.WithCancel(context.Background())
	factory.StartWithContext(ctx)
	factory.WaitForCacheSync(ctx.Done())

	gate := make(chan struct{})
	var mu sync.Mutex
	var seen []string
	reg, err := inf.AddEventHandler(processor.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			<-gate
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("Add %s isInInitialList=%v", keyOf(obj), isInInitialList))
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("informer synced:", inf.HasSynced(), "- late handler synced:", reg.HasSynced())
	close(gate)
	informer.WaitFor(ctx, "late handler", reg.HasSyncedChecker())
	fmt.Println("informer synced:", inf.HasSynced(), "- late handler synced:", reg.HasSynced())
	sort.Strings(seen) // synthetic adds come in map order
	for _, s := range seen {
		fmt.Println(s)
	}
	cancel()
	factory.Shutdown()
	// Output:
	// informer synced: true - late handler synced: false
	// informer synced: true - late handler synced: true
	// Add default/web-1 isInInitialList=true
	// Add default/web-2 isInInitialList=true
	// Add kube-system/dns isInInitialList=true
}
