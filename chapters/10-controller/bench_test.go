package ch10_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	ch10 "github.com/informer-lab/informer-lab/chapters/10-controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
)

// BenchmarkCh10_EventToSync measures the whole round: write a label on the pod, and wait until
// the controller has synced the event (watch → queue → indexer → handler → workqueue → sync).
// A label does not change the status, so each write costs exactly one sync and no write back.
// One controller worker, the default profile (atomic RealFIFO, watch-list).
func BenchmarkCh10_EventToSync(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		srv := apiserver.New(apiserver.Options{})
		defer srv.Close()
		update := func(ctx context.Context, p *api.Pod) (*api.Pod, error) {
			obj, err := srv.Update(ctx, "pods", "default", p)
			if err != nil {
				return nil, err
			}
			return obj.(*api.Pod), nil
		}
		create := func(ctx context.Context, p *api.Pod) (api.Object, error) {
			return srv.Create(ctx, "pods", "default", p)
		}
		benchEventToSync(b, inProcessSource(srv), inProcessPods(srv), create, update)
	})
	b.Run("http", func(b *testing.B) {
		srv := apiserver.NewTestServer(b, apiserver.Options{})
		rc, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
		if err != nil {
			b.Fatal(err)
		}
		pods := rc.Resource(podsGVR).Namespace("default")
		update := func(ctx context.Context, p *api.Pod) (*api.Pod, error) {
			obj, err := pods.Update(ctx, p)
			if err != nil {
				return nil, err
			}
			return obj.(*api.Pod), nil
		}
		create := func(ctx context.Context, p *api.Pod) (api.Object, error) { return pods.Create(ctx, p) }
		benchEventToSync(b, informer.NewRESTSource(rc), ch10.NewRESTPodClient(rc), create, update)
	})
}

func benchEventToSync(b *testing.B, source informer.ListWatchSource, client ch10.PodClient,
	create func(context.Context, *api.Pod) (api.Object, error),
	update func(context.Context, *api.Pod) (*api.Pod, error)) {
	factory := informer.NewSharedInformerFactory(source, 0)
	podInformer := factory.Core().V1().Pods()
	ctrl, err := ch10.NewController(client, podInformer, ch10.Options{})
	if err != nil {
		b.Fatal(err)
	}
	synced := make(chan struct{}, 1)
	sync := ctrl.SyncHandler
	ctrl.SyncHandler = func(ctx context.Context, key string) error {
		err := sync(ctx, key)
		synced <- struct{}{}
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	done := make(chan error)
	go func() { done <- ctrl.Run(ctx, 1) }()
	defer func() {
		cancel()
		<-done
		factory.Shutdown()
	}()
	wait := func() {
		select {
		case <-synced:
		case <-time.After(10 * time.Second):
			b.Fatal("no sync within 10s")
		}
	}

	if _, err := create(ctx, newPod("web", "web:v1")); err != nil {
		b.Fatal(err)
	}
	wait() // the create: writes the status
	wait() // the status write: up to date
	cached, err := podInformer.Lister().ByNamespace("default").Get("web")
	if err != nil {
		b.Fatal(err)
	}
	cur := cached.DeepCopy() // never mutate the cache
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		cur.Labels = map[string]string{"n": strconv.Itoa(i)}
		if cur, err = update(ctx, cur); err != nil {
			b.Fatal(err)
		}
		wait()
	}
}
