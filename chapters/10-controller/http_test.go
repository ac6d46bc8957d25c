package ch10_test

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	ch10 "github.com/informer-lab/informer-lab/chapters/10-controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/workqueue"
)

// waitFor bounds every wait of the real-time tests.
const waitFor = 10 * time.Second

var podsGVR = api.GroupVersionResource{Version: "v1", Resource: "pods"}

// gate holds the first sync that starts after arm until release is closed.
type gate struct {
	armed   atomic.Bool
	entered chan string
	release chan struct{}
}

func (g *gate) wrap(sync func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) error {
		if g.armed.CompareAndSwap(true, false) {
			select {
			case g.entered <- key:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case <-g.release:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return sync(ctx, key)
	}
}

// settled reports whether the controller has nothing left to do: every enqueue so far was
// followed by a sync that started after it (so that sync read the newest cached state).
func settled(rec *hopRecorder, enqueues int) bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	lastEnqueue, lastSync, n := -1, -1, 0
	for i, h := range rec.hops {
		if h.Component != "controller" {
			continue
		}
		switch h.Op {
		case "enqueue":
			lastEnqueue, n = i, n+1
		case "sync":
			lastSync = i
		}
	}
	return n == enqueues && lastSync > lastEnqueue
}

// TestCh10_HTTP_Loopback runs the controller the way a real one runs: the simulated apiserver
// on a loopback port, the shared informer factory listing and watching over HTTP through the
// REST client (watch-list, client-go v0.37's default), and the status written with PUT
// …/pods/web/status. Real time, so every wait is bounded. It plays the journey and T17: while
// the worker is held, 100 image updates go over the wire, and the syncs after the release all
// read web:v100. How many there are is up to the scheduler here. The controller's own write
// (rv last+1) may reach the handler while the next sync runs, which costs one more sync. Or
// the next sync may start before the informer has delivered that write: it then reads
// rv last again, writes with it, gets 409 Conflict, and handleErr retries 5 ms later, once
// the cache has caught up. That is the everyday conflict of real controllers.
func TestCh10_HTTP_Loopback(t *testing.T) {
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	rc, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	pods := rc.Resource(podsGVR).Namespace("default")

	rec := &hopRecorder{}
	logger := slog.New(rec)
	factory := informer.NewSharedInformerFactoryWithOptions(informer.NewRESTSource(rc), 0, informer.WithLogger(logger))
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	ctrl, err := ch10.NewController(ch10.NewRESTPodClient(rc), factory.Core().V1().Pods(),
		ch10.Options{Queue: queue, Logger: logger})
	require.NoError(t, err)
	g := &gate{entered: make(chan string), release: make(chan struct{})}
	ctrl.SyncHandler = g.wrap(ctrl.SyncHandler)

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	runErr := make(chan error, 1)
	go func() { runErr <- ctrl.Run(ctx, 2) }()
	defer func() {
		cancel()
		require.NoError(t, <-runErr)
		factory.Shutdown()
	}()

	// The journey: create → sync writes the status → its own write is synced, up to date.
	obj, err := pods.Create(ctx, newPod("web", "web:v0"))
	require.NoError(t, err)
	created := obj.(*api.Pod).ResourceVersion
	require.Eventually(t, func() bool { return settled(rec, 2) }, waitFor, time.Millisecond)
	assert.Equal(t, []string{
		"default/web@" + created + " update-status web:v0",
		"default/web@" + rvAfter(t, created, 1) + " up-to-date web:v0",
	}, rec.syncs())
	got, err := pods.Get(ctx, "web")
	require.NoError(t, err)
	assert.Equal(t, ch10.DesiredStatus(got.(*api.Pod)), got.(*api.Pod).Status)
	rec.reset()

	// T17 over the wire.
	g.armed.Store(true)
	var last string
	for i := 1; i <= 100; i++ {
		obj, err := pods.Get(ctx, "web")
		require.NoError(t, err)
		p := obj.(*api.Pod)
		p.Spec.Containers[0].Image = "web:v" + strconv.Itoa(i)
		obj, err = pods.Update(ctx, p)
		require.NoError(t, err)
		last = obj.(*api.Pod).ResourceVersion
		if i == 1 {
			select {
			case <-g.entered: // the worker holds the key, before reading the lister
			case <-time.After(waitFor):
				t.Fatal("the first update was not synced")
			}
		}
	}
	require.Eventually(t, func() bool { return len(rec.enqueues()) == 100 }, waitFor, time.Millisecond,
		"every update reached the handler")
	close(g.release)
	// The pod is at rest once a sync has read the controller's own write (rv last+1).
	atRest := "default/web@" + rvAfter(t, last, 1) + " up-to-date web:v100"
	require.Eventually(t, func() bool { return slices.Contains(rec.syncs(), atRest) }, waitFor, time.Millisecond)

	syncs := rec.syncs()
	t.Logf("100 updates over HTTP → %d syncs:%s", len(syncs), joinLines(syncs))
	assert.Equal(t, "default/web@"+last+" update-status web:v100", syncs[0], "the held sync read the final state")
	for _, s := range syncs {
		assert.Contains(t, s, " web:v100", "every sync read the final image")
	}
	assert.Less(t, len(syncs), 10, "far fewer syncs than updates")

	// Delete over HTTP: the sync finds the pod gone and stops it.
	mark := len(rec.syncs())
	require.NoError(t, pods.Delete(ctx, "web", nil))
	require.Eventually(t, func() bool { return slices.Contains(rec.syncs()[mark:], "default/web@ stopped") },
		waitFor, time.Millisecond)
	assert.Empty(t, ctrl.Running())

	counts := srv.RequestCounts()
	assert.Equal(t, 1, counts[apiserver.RequestKey{Verb: "watch", Resource: "pods"}], "one watch, no relist")
}
