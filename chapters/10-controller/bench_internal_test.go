package ch10

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// benchController is a controller without an informer: its lister reads an indexer holding
// one pod whose status is already what the controller wants, so a sync writes nothing.
func benchController(b *testing.B, logger *slog.Logger) (*Controller, *api.Pod) {
	idx := store.NewIndexer(store.DeletionHandlingMetaNamespaceKeyFunc, store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc})
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web", ResourceVersion: "7"},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "web:v1"}}},
	}
	pod.Status = DesiredStatus(pod)
	if err := idx.Add(pod); err != nil {
		b.Fatal(err)
	}
	c := &Controller{
		podsLister: store.NewResourceIndexer[*api.Pod](idx, api.GroupResource{Resource: "pods"}),
		workqueue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "bench", Logger: logger}),
		logger:       logger,
		running:      map[string]string{},
		errorHandler: func(err error) { b.Error(err) },
	}
	c.SyncHandler = c.syncHandler
	c.loop = c.newLoop()
	b.Cleanup(c.workqueue.ShutDown)
	return c, pod
}

// BenchmarkCh10_HandlerToSync measures the controller's own share of one event: the handler
// turns the object into its key and enqueues it, a worker gets it, syncs it from the lister
// (up to date: no write), Forgets and Dones it. The first two cases must report the same
// allocations: a disabled trace costs nothing.
func BenchmarkCh10_HandlerToSync(b *testing.B) {
	cases := []struct {
		name   string
		logger *slog.Logger
	}{
		{"no logger", nil},
		{"logger, Debug disabled", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))},
		{"tracing on", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			c, pod := benchController(b, tc.logger)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				c.enqueuePod(pod, "OnUpdate")
				if !c.loop.ProcessNextWorkItem(ctx) {
					b.Fatal("queue shut down")
				}
			}
		})
	}
}
