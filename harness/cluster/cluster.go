package cluster

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/internal/inproc"
	"github.com/informer-lab/informer-lab/rest"
)

// Options configures Start.
type Options struct {
	// Server configures the apiserver.
	Server apiserver.Options
	// Controllers selects controllers as --controllers does; empty runs none.
	Controllers []string
	// Nodes is the number of simulated nodes.
	Nodes int
	// Logger receives the controllers' hops; nil is silent.
	Logger *slog.Logger
}

// Cluster is a running simulated cluster.
type Cluster struct {
	Server  *apiserver.Server
	Config  *rest.Config
	Client  *dynamic.DynamicClient
	Manager *controllers.Manager // nil when no controller runs
}

// Start starts a cluster inside the calling synctest bubble (contract 1).
func Start(t testing.TB, o Options) *Cluster {
	t.Helper()
	srv := apiserver.New(o.Server)
	cfg := &rest.Config{Host: "http://inproc.local", Transport: inproc.Transport(srv.Handler()), UserAgent: "cluster-test"}
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	c := &Cluster{Server: srv, Config: cfg, Client: dc}
	t.Cleanup(srv.Close)
	if len(o.Controllers) > 0 {
		m, err := controllers.Start(context.Background(), controllers.Options{Config: cfg, Controllers: o.Controllers, Nodes: o.Nodes, Logger: o.Logger})
		require.NoError(t, err)
		c.Manager = m
		t.Cleanup(m.Stop)
	}
	return c
}

// Settle waits until every goroutine of the bubble is blocked: the cluster has done all it
// can without time passing.
func (c *Cluster) Settle() { synctest.Wait() }

// Eventually advances virtual time in steps of one second until cond holds (contract 3).
func (c *Cluster) Eventually(t testing.TB, limit time.Duration, cond func() bool, msgAndArgs ...any) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		synctest.Wait()
		if cond() {
			return
		}
		if !time.Now().Before(deadline) {
			require.Fail(t, "condition not met in virtual time", msgAndArgs...)
			return
		}
		time.Sleep(time.Second) // virtual: moves the bubble's clock, not the machine's
	}
}

// Get reads one object, nil when it does not exist.
func (c *Cluster) Get(t testing.TB, gvr api.GroupVersionResource, namespace, name string) *api.Unstructured {
	t.Helper()
	u, err := c.Client.Resource(gvr).Namespace(namespace).Get(context.Background(), name, api.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return u
}

// List lists a resource in namespace ("" for all).
func (c *Cluster) List(t testing.TB, gvr api.GroupVersionResource, namespace string) []api.Unstructured {
	t.Helper()
	l, err := c.Client.Resource(gvr).Namespace(namespace).List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	return l.Items
}

// Create creates obj, a JSON-shaped map, in namespace.
func (c *Cluster) Create(t testing.TB, gvr api.GroupVersionResource, namespace string, obj map[string]any) *api.Unstructured {
	t.Helper()
	u, err := c.Client.Resource(gvr).Namespace(namespace).Create(context.Background(), &api.Unstructured{Object: obj}, api.CreateOptions{})
	require.NoError(t, err)
	return u
}

// TraceBuffer collects the trace lines of a cluster's logger (trace.NewPlainLogger(&buf))
// while its controllers write from many goroutines; golden-trace tests read it with String.
type TraceBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p under the buffer's lock.
func (s *TraceBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *TraceBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Reset empties the buffer.
func (s *TraceBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// Deployment is the object `kubectl create deployment NAME --image=nginx --replicas=N`
// sends: labels app=NAME on the Deployment, its selector and its pod template.
func Deployment(name string, replicas int64) map[string]any {
	labels := map[string]any{"app": name}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "labels": labels},
		"spec": map[string]any{
			"replicas": replicas,
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}},
			},
		},
	}
}
