package ch05_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/store"
)

// articleServer starts the simulated apiserver in process with namespace ns and the pods
// given as name → phase, in order. Periodic bookmarks are pushed an hour out so that none
// lands in the middle of an example.
func articleServer(pods ...[2]string) *apiserver.Server {
	srv := apiserver.New(apiserver.Options{BookmarkPeriod: time.Hour})
	ctx := context.Background()
	if _, err := srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ns"}}); err != nil {
		panic(err)
	}
	for _, p := range pods {
		createPod(srv, p[0], api.PodPhase(p[1]))
	}
	return srv
}

// createPod creates pod ns/name and, as a kubelet would, reports phase through the status
// subresource.
func createPod(srv *apiserver.Server, name string, phase api.PodPhase) {
	ctx := context.Background()
	obj, err := srv.Create(ctx, "pods", "ns", simPod(name))
	if err != nil {
		panic(err)
	}
	if phase == api.PodPending {
		return
	}
	setPhase(srv, obj.(*api.Pod), phase)
}

func setPhase(srv *apiserver.Server, p *api.Pod, phase api.PodPhase) {
	p = p.DeepCopy()
	p.Status.Phase = phase
	if _, err := srv.UpdateStatus(context.Background(), "pods", "ns", p); err != nil {
		panic(err)
	}
}

// popAndApply is the Pop loop of the article's Reflector example: pop one key, apply each of
// its deltas to the cache, and print it as "<Type> : <name> - <phase>".
func popAndApply(fifo *deltafifo.DeltaFIFO, cache store.Store) {
	_, err := fifo.Pop(func(obj any, _ bool) error {
		for _, d := range obj.(deltafifo.Deltas) {
			p := d.Object.(*api.Pod)
			switch d.Type {
			case deltafifo.Deleted:
				_ = cache.Delete(p)
			default: // Added, Updated, Replaced, Sync
				if _, exists, _ := cache.Get(p); exists {
					_ = cache.Update(p)
				} else {
					_ = cache.Add(p)
				}
			}
			fmt.Printf("%s : %s - %s\n", d.Type, p.Name, p.Status.Phase)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
}

// Example_articleReflectorDeltaFIFO is the Reflector example of the runnable-examples article
// (section Reflector; docs/articles.md, block 4.5): a Store keyed by MetaNamespaceKeyFunc, a
// DeltaFIFO whose KnownObjects is that store, a Reflector for pods with resync 0 feeding the
// DeltaFIFO, and a Pop loop that applies each delta to the store. The watch then delivers
// Added, Updated and Deleted as a pod is created, started and deleted.
//
// The article's output starts with "Sync" lines, and so does ours: its DeltaFIFOOptions leave
// EmitDeltaTypeReplaced unset, and the zero value false makes Replace emit Sync deltas, in
// v0.37 as in every version before (DF-7). Only informers set it to true, so their relists
// arrive as Replaced; the second run configures the queue as an informer does.
func Example_articleReflectorDeltaFIFO() {
	for _, emitReplaced := range []bool{false, true} {
		if emitReplaced {
			fmt.Println("== as informers configure it: EmitDeltaTypeReplaced: true")
		} else {
			fmt.Println("== as the article writes it: EmitDeltaTypeReplaced unset (false)")
		}
		srv := articleServer([2]string{"web-1", "Running"}, [2]string{"web-2", "Pending"})
		cache := store.NewStore(store.MetaNamespaceKeyFunc)
		fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KnownObjects: cache, EmitDeltaTypeReplaced: emitReplaced,
		})
		r := reflector.NewReflectorWithOptions(simLW(srv), &api.Pod{}, fifo, reflector.ReflectorOptions{
			Name: "pods", ResyncPeriod: 0, UseWatchList: off(), // the classic LIST + WATCH of the articles
		})
		rr := run(r)
		popAndApply(fifo, cache) // web-1 from the initial LIST
		popAndApply(fifo, cache) // web-2
		if !emitReplaced {
			createPod(srv, "web-3", api.PodPending) // kubectl run
			popAndApply(fifo, cache)
			obj, _ := srv.Get(context.Background(), "pods", "ns", "web-3")
			setPhase(srv, obj.(*api.Pod), api.PodRunning) // the kubelet started it
			popAndApply(fifo, cache)
			if _, err := srv.Delete(context.Background(), "pods", "ns", "web-3", nil); err != nil {
				panic(err)
			}
			popAndApply(fifo, cache)
			keys := cache.ListKeys()
			sort.Strings(keys) // a store is a map: no order of its own
			fmt.Println("store:", keys)
		}
		rr.stop()
		srv.Close()
	}
	// Output:
	// == as the article writes it: EmitDeltaTypeReplaced unset (false)
	// Sync : web-1 - Running
	// Sync : web-2 - Pending
	// Added : web-3 - Pending
	// Updated : web-3 - Running
	// Deleted : web-3 - Running
	// store: [ns/web-1 ns/web-2]
	// == as informers configure it: EmitDeltaTypeReplaced: true
	// Replaced : web-1 - Running
	// Replaced : web-2 - Pending
}

// printingLW is a ListerWatcher that prints each WATCH it opens and each event that passes
// through it on the way to the reflector.
type printingLW struct{ *listwatch.ListWatch }

func (p printingLW) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	send := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	fmt.Printf("WATCH rv=%q resourceVersionMatch=%s sendInitialEvents=%t allowWatchBookmarks=%t\n",
		opts.ResourceVersion, opts.ResourceVersionMatch, send, opts.AllowWatchBookmarks)
	w, err := p.ListWatch.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	return newPrintingWatch(w), nil
}

func (p printingLW) Watch(opts api.ListOptions) (watch.Interface, error) {
	return p.WatchWithContext(context.Background(), opts)
}

// printingWatch forwards events from inner, printing each first. Stop stops inner and waits
// for the forwarding goroutine, so nothing outlives the watch.
type printingWatch struct {
	inner watch.Interface
	out   chan watch.Event
	stop  chan struct{}
	once  sync.Once
	done  chan struct{}
}

func newPrintingWatch(inner watch.Interface) *printingWatch {
	w := &printingWatch{inner: inner, out: make(chan watch.Event), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		defer close(w.out)
		for ev := range inner.ResultChan() {
			p := ev.Object.(*api.Pod)
			if ev.Type == watch.Bookmark {
				fmt.Printf("  %s rv=%s %s=%s\n", ev.Type, p.ResourceVersion, api.InitialEventsAnnotationKey, p.Annotations[api.InitialEventsAnnotationKey])
			} else {
				fmt.Printf("  %s %s rv=%s\n", ev.Type, p.Name, p.ResourceVersion)
			}
			select {
			case w.out <- ev:
			case <-w.stop:
				return
			}
		}
	}()
	return w
}

func (w *printingWatch) ResultChan() <-chan watch.Event { return w.out }

func (w *printingWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.inner.Stop()
	})
	<-w.done
}

// replaceAndUpdatePrinter prints Replace (with what the temporary store held) and Update.
type replaceAndUpdatePrinter struct{ printStore }

func (replaceAndUpdatePrinter) Update(obj any) error {
	p := obj.(*api.Pod)
	fmt.Printf("Update %s/%s@%s\n", p.Namespace, p.Name, p.ResourceVersion)
	return nil
}

// Example_articleWatchList is the streaming list of 《Informer原理详解》 (section 流式list;
// docs/articles.md, block 3.7), run on our reflector. With watch-list (the v0.37 default) the
// reflector sends no LIST: one WATCH asks for sendInitialEvents=true with
// resourceVersionMatch=NotOlderThan and bookmarks. The current state arrives as ADDED events,
// which the reflector collects in a temporary store; a BOOKMARK annotated
// k8s.io/initial-events-end ends the initial list, and the real store gets one Replace with the
// temporary store's contents at the bookmark's RV. The same stream then keeps watching: the
// next change is an Update, without a new request.
func Example_articleWatchList() {
	srv := articleServer([2]string{"web-1", "Pending"}, [2]string{"web-2", "Pending"})
	defer srv.Close()
	srv.ResetRequestCounts()
	st := newSignalStore(replaceAndUpdatePrinter{})
	r := reflector.NewReflectorWithOptions(printingLW{simLW(srv)}, &api.Pod{}, st, reflector.ReflectorOptions{Name: "pods"})
	rr := run(r)
	fmt.Println("store:", <-st.done)
	obj, _ := srv.Get(context.Background(), "pods", "ns", "web-1")
	setPhase(srv, obj.(*api.Pod), api.PodRunning)
	fmt.Println("store:", <-st.done)
	rr.stop()
	lists, watches := counts(srv)
	fmt.Printf("requests: LIST=%d WATCH=%d; LastSyncResourceVersion=%s\n", lists, watches, r.LastSyncResourceVersion())
	// Output:
	// WATCH rv="" resourceVersionMatch=NotOlderThan sendInitialEvents=true allowWatchBookmarks=true
	//   ADDED web-1 rv=5
	//   ADDED web-2 rv=6
	//   BOOKMARK rv=6 k8s.io/initial-events-end=true
	// Replace [ns/web-1@5 ns/web-2@6] rv=6
	// store: Replace
	//   MODIFIED web-1 rv=7
	// Update ns/web-1@7
	// store: Update
	// requests: LIST=0 WATCH=1; LastSyncResourceVersion=7
}
