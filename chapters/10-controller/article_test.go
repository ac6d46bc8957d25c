package ch10_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// articleController is the controller of client-go's examples/workqueue, the one the articles
// walk through (《kubernetes 之 client-go 之 informer 工作原理源码解析》; docs/articles.md,
// article 5), written against our packages: an indexer informer whose handlers enqueue
// keys, one queue, and a worker loop. controller.go grows it into the sample-controller shape.
type articleController struct {
	indexer  store.Indexer
	queue    workqueue.TypedRateLimitingInterface[string]
	informer informer.Controller
	synced   chan string // the example waits on it: one key per finished processNextItem
}

func (c *articleController) processNextItem() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncToStdout(key)
	c.handleErr(err, key)
	c.synced <- key
	return true
}

// syncToStdout is the business logic: print what the cache says about the pod. The articles
// induce failures by hand; here a pod labelled fail=true cannot be synced.
func (c *articleController) syncToStdout(key string) error {
	obj, exists, err := c.indexer.GetByKey(key)
	if err != nil {
		return fmt.Errorf("fetching object with key %s from store failed: %w", key, err)
	}
	if !exists {
		fmt.Printf("Pod %s does not exist anymore\n", key)
		return nil
	}
	pod := obj.(*api.Pod)
	if pod.Labels["fail"] == "true" {
		return errors.New("induced failure")
	}
	fmt.Printf("Sync/Add/Update for Pod %s\n", pod.Name)
	return nil
}

func (c *articleController) handleErr(err error, key string) {
	if err == nil {
		c.queue.Forget(key)
		return
	}
	if c.queue.NumRequeues(key) < 5 {
		fmt.Printf("Error syncing pod %s: %v\n", key, err)
		c.queue.AddRateLimited(key)
		return
	}
	c.queue.Forget(key)
	fmt.Printf("Dropping pod %q out of the queue: %v\n", key, err)
}

// run is the example's Run with one worker. Unlike the original it waits for the informer
// and the worker before returning, so the example leaves no goroutine behind.
func (c *articleController) run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer c.queue.ShutDown()
	wg.Go(func() { c.informer.RunWithContext(ctx) })
	if !informer.WaitForCacheSync(ctx.Done(), c.informer.HasSynced) {
		return
	}
	wg.Go(func() {
		for c.processNextItem() {
		}
	})
	<-ctx.Done()
}

// Example_articleWorkqueueController is client-go's examples/workqueue as article 5 walks
// through it (docs/articles.md, blocks 5.1–5.13).
// As there, a pod the server does not have ("mypod") is put into the indexer before the
// informer starts. The first list does not contain it, so the informer reports its delete
// as a DeletedFinalStateUnknown, which the tombstone-safe key function turns into
// "default/mypod". Then b is deleted, and a pod whose sync always fails is created: five
// retries (5, 10, 20, 40, 80 ms apart), then the key is dropped.
func Example_articleWorkqueueController() {
	srv := apiserver.New(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	for _, name := range []string{"a", "b"} {
		if _, err := srv.Create(ctx, "pods", "default", newPod(name, "nginx")); err != nil {
			panic(err)
		}
	}

	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	indexer, inf := informer.NewIndexerInformer(srv.ListerWatcher("pods", "default"), &api.Pod{}, 0,
		processor.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if key, err := store.MetaNamespaceKeyFunc(obj); err == nil {
					queue.Add(key)
				}
			},
			UpdateFunc: func(_, newObj any) {
				if key, err := store.MetaNamespaceKeyFunc(newObj); err == nil {
					queue.Add(key)
				}
			},
			DeleteFunc: func(obj any) {
				// The object may be a tombstone: MetaNamespaceKeyFunc would fail on it.
				if key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
					queue.Add(key)
				}
			},
		}, store.Indexers{})
	_ = indexer.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "mypod", Namespace: "default"}})

	c := &articleController{indexer: indexer, queue: queue, informer: inf, synced: make(chan string)}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { c.run(runCtx); close(done) }()

	// waitSyncs waits for n finished items of key ("" for any key).
	waitSyncs := func(key string, n int) {
		for n > 0 {
			select {
			case k := <-c.synced:
				if key == "" || k == key {
					n--
				}
			case <-time.After(10 * time.Second):
				fmt.Println("timed out")
				return
			}
		}
	}
	waitSyncs("", 3) // mypod, a, b

	if _, err := srv.Delete(ctx, "pods", "default", "b", nil); err != nil {
		panic(err)
	}
	waitSyncs("default/b", 1)

	crashy := newPod("crashy", "nginx")
	crashy.Labels = map[string]string{"fail": "true"}
	if _, err := srv.Create(ctx, "pods", "default", crashy); err != nil {
		panic(err)
	}
	waitSyncs("default/crashy", 6)

	cancel()
	for stopped := false; !stopped; {
		select {
		case <-c.synced: // a worker may still report an item
		case <-done:
			stopped = true
		}
	}
	// Output:
	// Pod default/mypod does not exist anymore
	// Sync/Add/Update for Pod a
	// Sync/Add/Update for Pod b
	// Pod default/b does not exist anymore
	// Error syncing pod default/crashy: induced failure
	// Error syncing pod default/crashy: induced failure
	// Error syncing pod default/crashy: induced failure
	// Error syncing pod default/crashy: induced failure
	// Error syncing pod default/crashy: induced failure
	// Dropping pod "default/crashy" out of the queue: induced failure
}
