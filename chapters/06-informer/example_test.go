package ch06_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// CmdHandler is the handler of the articles: it prints every event. events receives one value
// per call, so the example knows when the prints are done.
type CmdHandler struct {
	events chan struct{}
}

func (h *CmdHandler) OnAdd(obj any, _ bool) {
	fmt.Println("Add:", nameOf(obj))
	h.events <- struct{}{}
}

func (h *CmdHandler) OnUpdate(_, newObj any) {
	fmt.Println("Update:", nameOf(newObj))
	h.events <- struct{}{}
}

// OnDelete may receive a DeletedFinalStateUnknown tombstone; nameOf unwraps it.
func (h *CmdHandler) OnDelete(obj any) {
	fmt.Println("Delete:", nameOf(obj))
	h.events <- struct{}{}
}

// Example_articleResourceEventHandler is the EventHandler example of the runnable-examples
// article (docs/articles.md, block 4.13): NewInformer over a ListWatch of
// the default namespace's configmaps, with a handler that prints each event. The existing
// configmaps arrive as adds, in the order the LIST returns them; then a configmap is created,
// changed and deleted.
func Example_articleResourceEventHandler() {
	c := startCluster()
	defer c.stop()

	lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
	h := &CmdHandler{events: make(chan struct{}, 16)}
	_, controller := informer.NewInformer(lw, &api.ConfigMap{}, 0, h)

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); controller.Run(stop) }()
	informer.WaitForCacheSync(stop, controller.HasSynced)

	c.createConfigMap("demo")
	c.patchConfigMap("demo", "changed")
	c.deleteConfigMap("demo")
	for range 5 {
		<-h.events
	}
	close(stop)
	<-done
	// Output:
	// Add: app-config
	// Add: kube-root-ca.crt
	// Add: demo
	// Update: demo
	// Delete: demo
}

// Example_articleNewInformerStore is the first Informer/IndexerInformer example of the
// runnable-examples article (docs/articles.md, block 4.14): run the informer in a goroutine,
// wait for the cache to sync, then read the store. The articles wait with a 3-second sleep,
// which is both slow and wrong: nothing guarantees the list arrived by then. WaitForCacheSync
// returns as soon as the queue has handed the whole initial list to the store (HasSynced), and
// false if the informer is stopped first.
func Example_articleNewInformerStore() {
	c := startCluster()
	defer c.stop()

	lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
	h := &CmdHandler{events: make(chan struct{}, 16)}
	st, controller := informer.NewInformer(lw, &api.ConfigMap{}, 0, h)

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); controller.Run(stop) }()
	if !informer.WaitForCacheSync(stop, controller.HasSynced) {
		panic("never synced")
	}
	fmt.Println("cached:", sortedNames(st.List()))
	close(stop)
	<-done
	// Output:
	// Add: app-config
	// Add: kube-root-ca.crt
	// cached: [app-config kube-root-ca.crt]
}

// Example_articleNewIndexerInformer is the second Informer/IndexerInformer example of the
// runnable-examples article (docs/articles.md, block 4.15), with the pod ListWatch the article
// meant (its configmap one is the erratum in the README): NewIndexerInformer with an index on
// the pods' app label answers ByIndex("app", "busy-box") from the cache, without asking the
// server.
func Example_articleNewIndexerInformer() {
	c := startCluster()
	defer c.stop()
	c.createPod("busy-box-7d9f", map[string]string{"app": "busy-box"})
	c.createPod("nginx-5c4b", map[string]string{"app": "nginx"})

	byApp := func(obj any) ([]string, error) {
		pod, ok := obj.(*api.Pod)
		if !ok {
			return nil, fmt.Errorf("not a pod: %T", obj)
		}
		return []string{pod.Labels["app"]}, nil
	}
	lw := listwatch.NewListWatchFromClient(c.client, "pods", "default", fields.Everything())
	indexer, controller := informer.NewIndexerInformer(lw, &api.Pod{}, 0, processor.ResourceEventHandlerFuncs{}, store.Indexers{"app": byApp})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); controller.RunWithContext(ctx) }()
	informer.WaitForCacheSync(ctx.Done(), controller.HasSynced)

	pods, err := indexer.ByIndex("app", "busy-box")
	fmt.Println(sortedNames(pods), err)
	cancel()
	<-done
	// Output:
	// [busy-box-7d9f] <nil>
}

// Example_handleDeltas walks through what the informer does with each item it pops: the
// HandleDeltas of the articles, written out by hand on the low-level controller. The queue is
// the articles' DeltaFIFO with the store as KnownObjects. A Pauser holds processLoop while
// configmap "late" is created and changed and "app-config" deleted, so each key's pending
// deltas come out together. Add or update is decided by the store, not by the delta type (C-5).
func Example_handleDeltas() {
	c := startCluster()
	defer c.stop()

	clientState := store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc)
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
		KeyFunction:           store.MetaNamespaceKeyFunc,
		KnownObjects:          clientState,
		EmitDeltaTypeReplaced: true,
	})
	var mu sync.Mutex
	var lines []string
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	handleDeltas := func(obj any, isInInitialList bool) error {
		deltas := obj.(deltafifo.Deltas)
		types := make([]string, len(deltas))
		for i, d := range deltas {
			types[i] = string(d.Type)
		}
		say("pop %s %v isInInitialList=%v", nameOf(deltas.Newest().Object), types, isInInitialList)
		for _, d := range deltas {
			switch d.Type {
			case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
				if old, exists, _ := clientState.Get(d.Object); exists {
					if err := clientState.Update(d.Object); err != nil {
						return err
					}
					say("  %-8s cached     -> store.Update, OnUpdate(%s -> %s)", d.Type, nameOf(old), nameOf(d.Object))
				} else {
					if err := clientState.Add(d.Object); err != nil {
						return err
					}
					say("  %-8s not cached -> store.Add, OnAdd(%s)", d.Type, nameOf(d.Object))
				}
			case deltafifo.Deleted:
				if err := clientState.Delete(d.Object); err != nil {
					return err
				}
				say("  %-8s            -> store.Delete, OnDelete(%s)", d.Type, nameOf(d.Object))
			}
		}
		return nil
	}
	pauser := &informer.Pauser{}
	pauser.Pause()
	lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
	controller := informer.New(&informer.Config{
		Queue: fifo, ListerWatcher: lw, ObjectType: &api.ConfigMap{},
		Process: handleDeltas, Pauser: pauser, UseWatchList: new(bool),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); controller.RunWithContext(ctx) }()

	waitFor("the LIST", func() bool { return controller.LastSyncResourceVersion() != "" })
	c.createConfigMap("late")
	c.patchConfigMap("late", "changed")
	c.deleteConfigMap("app-config")
	rv := fmt.Sprint(c.srv.ResourceVersion())
	waitFor("the watch events", func() bool { return controller.LastSyncResourceVersion() == rv })
	pauser.Resume()
	waitFor("the pops", func() bool { mu.Lock(); defer mu.Unlock(); return len(lines) == 8 })
	cancel()
	<-done
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// pop app-config [Replaced Deleted] isInInitialList=true
	//   Replaced not cached -> store.Add, OnAdd(app-config)
	//   Deleted             -> store.Delete, OnDelete(app-config)
	// pop kube-root-ca.crt [Replaced] isInInitialList=true
	//   Replaced not cached -> store.Add, OnAdd(kube-root-ca.crt)
	// pop late [Added Updated] isInInitialList=false
	//   Added    not cached -> store.Add, OnAdd(late)
	//   Updated  cached     -> store.Update, OnUpdate(late -> late)
}
