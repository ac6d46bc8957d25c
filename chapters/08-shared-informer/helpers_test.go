package ch08_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// ---------------------------------------------------------------------------------------
// The simulated apiserver over HTTP, for the examples (real time).

type cluster struct {
	srv    *apiserver.Server
	client *rest.RESTClient
}

// startCluster starts the simulated apiserver on a loopback port with two configmaps and two
// pods in default, and one pod in kube-system.
func startCluster() *cluster {
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	client, err := rest.RESTClientFor(&rest.Config{Host: url})
	if err != nil {
		panic(err)
	}
	c := &cluster{srv: srv, client: client}
	for _, name := range []string{"kube-root-ca.crt", "app-config"} {
		c.create("configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}})
	}
	for _, p := range []struct{ ns, name string }{{"default", "web-1"}, {"default", "web-2"}, {"kube-system", "dns"}} {
		c.create("pods", p.ns, &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: p.ns, Name: p.name},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
	}
	return c
}

func (c *cluster) create(resource, ns string, obj api.Object) {
	if _, err := c.srv.Create(context.Background(), resource, ns, obj); err != nil {
		panic(err)
	}
}

func (c *cluster) stop() { c.srv.Close() }

// keyOf is "namespace/name" (a tombstone's key for a tombstone).
func keyOf(obj any) string {
	k, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return k
}

func sortedKeys[T any](objs []T) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = keyOf(o)
	}
	sort.Strings(out)
	return out
}

// ---------------------------------------------------------------------------------------
// Recording handlers.

// show is "name@rv", or "DFSU(name@rv)" for a tombstone.
func show(obj any) string {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		return "DFSU(" + show(tomb.Obj) + ")"
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName() + "@" + m.GetResourceVersion()
}

// recorder keeps one line per call in the format of the spec's §14 table. With a gate, every
// call waits for the gate to close after recording its line.
type recorder struct {
	mu    sync.Mutex
	lines []string
	gate  chan struct{}
}

func (r *recorder) record(line string) {
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
	if r.gate != nil {
		<-r.gate
	}
}

func (r *recorder) OnAdd(obj any, init bool) {
	line := "ADD " + show(obj)
	if init {
		line += " init"
	}
	r.record(line)
}
func (r *recorder) OnUpdate(o, n any) { r.record("UPD " + show(o) + "→" + show(n)) }
func (r *recorder) OnDelete(obj any)  { r.record("DEL " + show(obj)) }

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.lines
	r.lines = nil
	return out
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

// ---------------------------------------------------------------------------------------
// The fake source, for the tests (virtual time, inside synctest bubbles).

func pod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}}
}

func source(t *testing.T, names ...string) *fakesource.Source {
	t.Helper()
	src := fakesource.New()
	for _, n := range names {
		_, err := src.Add(pod(n))
		require.NoError(t, err)
	}
	t.Cleanup(src.Close)
	return src
}

func write(t *testing.T, op func(api.Object) (string, error), name string) {
	t.Helper()
	_, err := op(pod(name))
	require.NoError(t, err)
}

// runner is anything with RunWithContext: an informer or a controller.
type runner interface{ RunWithContext(context.Context) }

// run runs r in the bubble until the test ends (or stop is called).
func run(t *testing.T, r runner) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.RunWithContext(ctx) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	synctest.Wait()
	return stop
}

// waitUntil lets virtual time pass in 100 ms steps until cond holds (a bounded wait).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 600 {
		synctest.Wait()
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// relist compacts the history and closes the watches: a reflector that missed writes then
// re-watches from an RV the server no longer has, gets 410 and lists again (T9).
func relist(src *fakesource.Source) {
	src.Compact()
	src.ResetWatches()
}

// expire ends every watch with a 410 Expired ERROR event: the reflector lists again even if
// it missed nothing.
func expire(src *fakesource.Source) {
	src.SendError(fakesource.NewExpired("too old resource version"))
}
