package ch13_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	ch13 "github.com/informer-lab/informer-lab/chapters/13-custom-resources"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
)

// inProcess is a dynamic.Interface over the server's Go API: the same writes as the dynamic
// client, without a socket, so the controller runs inside a synctest bubble. Only the verbs
// the chapter uses are implemented; the others panic through the nil embedded interface.
type inProcess struct{ srv *apiserver.Server }

func (d inProcess) Resource(gvr api.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	name := gvr.Resource
	if gvr.Group != "" {
		name += "." + gvr.Group
	}
	return inProcessResource{srv: d.srv, resource: name}
}

type inProcessResource struct {
	dynamic.ResourceInterface // nil: the verbs below are all the chapter calls
	srv                       *apiserver.Server
	resource, namespace       string
}

func (r inProcessResource) Namespace(ns string) dynamic.ResourceInterface {
	r.namespace = ns
	return r
}

func (r inProcessResource) Create(ctx context.Context, obj *api.Unstructured, _ api.CreateOptions, _ ...string) (*api.Unstructured, error) {
	return unstructured(r.srv.Create(ctx, r.resource, r.namespace, obj))
}

func (r inProcessResource) Update(ctx context.Context, obj *api.Unstructured, _ api.UpdateOptions, _ ...string) (*api.Unstructured, error) {
	return unstructured(r.srv.Update(ctx, r.resource, r.namespace, obj))
}

func (r inProcessResource) UpdateStatus(ctx context.Context, obj *api.Unstructured, _ api.UpdateOptions) (*api.Unstructured, error) {
	return unstructured(r.srv.UpdateStatus(ctx, r.resource, r.namespace, obj))
}

func (r inProcessResource) Get(ctx context.Context, name string, _ api.GetOptions, _ ...string) (*api.Unstructured, error) {
	return unstructured(r.srv.Get(ctx, r.resource, r.namespace, name))
}

func (r inProcessResource) Delete(ctx context.Context, name string, _ api.DeleteOptions, _ ...string) error {
	_, err := r.srv.Delete(ctx, r.resource, r.namespace, name, nil)
	return err
}

// unstructured turns whatever the Go API returned into an Unstructured.
func unstructured(obj api.Object, err error) (*api.Unstructured, error) {
	if err != nil {
		return nil, err
	}
	if u, ok := obj.(*api.Unstructured); ok {
		return u, nil
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	u := &api.Unstructured{}
	return u, json.Unmarshal(data, u)
}

// inProcessSource is the factory's source: every informer lists and watches the Go API.
func inProcessSource(srv *apiserver.Server) informer.ListWatchSource {
	return informer.ListWatchSourceFunc(func(gvr api.GroupVersionResource, namespace string, _ func(*api.ListOptions)) listwatch.ListerWatcher {
		name := gvr.Resource
		if gvr.Group != "" {
			name += "." + gvr.Group
		}
		return srv.ListerWatcher(name, namespace)
	})
}

// hopRecorder keeps the controller's Debug hops as "op key@rv attrs" lines.
type hopRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *hopRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *hopRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *hopRecorder) WithGroup(string) slog.Handler            { return r }

func (r *hopRecorder) Handle(_ context.Context, rec slog.Record) error {
	d := trace.Decode(trace.Scope{}, rec)
	if d.Component != "controller" {
		return nil
	}
	var attrs []string
	for _, a := range d.Attrs {
		attrs = append(attrs, a.Key+"="+a.Value.String())
	}
	sort.Strings(attrs)
	line := strings.TrimSpace(fmt.Sprintf("%s %s@%s %s", d.Op, d.Key, d.RV, strings.Join(attrs, " ")))
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
	return nil
}

// take returns the lines recorded since the last take, and forgets them.
func (r *hopRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.lines
	r.lines = nil
	return out
}

// lab is the simulated apiserver with the Foo kind, the shared informer factory and the
// controller with one worker, all inside one synctest bubble.
type lab struct {
	srv  *apiserver.Server
	dc   dynamic.Interface
	ctrl *ch13.Controller
	rec  *hopRecorder

	errMu    sync.Mutex
	reported []error
}

// syncWrapper wraps the controller's SyncHandler before Run (the script runner's stepper).
type syncWrapper func(func(context.Context, string) error) func(context.Context, string) error

// startLab must run inside a synctest bubble. It returns once both caches have synced and
// the worker waits for keys; cleanup stops everything.
func startLab(t *testing.T, wrap ...syncWrapper) *lab {
	t.Helper()
	l := &lab{srv: apiserver.New(apiserver.Options{}), rec: &hopRecorder{}}
	require.NoError(t, installFooCRD(l.srv))
	l.dc = inProcess{l.srv}
	logger := slog.New(l.rec)
	factory := informer.NewSharedInformerFactory(inProcessSource(l.srv), 0)
	foos, err := factory.ForResource(ch13.FooGVR)
	require.NoError(t, err)
	deployments, err := factory.ForResource(ch13.DeploymentGVR)
	require.NoError(t, err)
	l.ctrl, err = ch13.NewController(l.dc, deployments, foos, ch13.Options{Logger: logger, ErrorHandler: l.report})
	require.NoError(t, err)
	for _, w := range wrap {
		l.ctrl.SyncHandler = w(l.ctrl.SyncHandler)
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	// Run starts once the caches have synced, so its own wait returns at its first check; two
	// polling waits started apart could return at different virtual ticks.
	require.True(t, informer.WaitForCacheSync(ctx.Done(), foos.Informer().HasSynced, deployments.Informer().HasSynced))
	runErr := make(chan error, 1)
	go func() { runErr <- l.ctrl.Run(ctx, 1) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-runErr)
		factory.Shutdown()
		l.srv.Close()
	})
	synctest.Wait() // the worker waits for keys
	return l
}

func (l *lab) report(err error) {
	l.errMu.Lock()
	l.reported = append(l.reported, err)
	l.errMu.Unlock()
}

func (l *lab) errors() []error {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return append([]error(nil), l.reported...)
}

// get reads an object from the server.
func (l *lab) get(t *testing.T, gvr api.GroupVersionResource, name string) *api.Unstructured {
	t.Helper()
	u, err := l.dc.Resource(gvr).Namespace("default").Get(context.Background(), name, api.GetOptions{})
	require.NoError(t, err)
	return u
}

// createFoo stores a Foo and waits until the controller has settled.
func (l *lab) createFoo(t *testing.T, name, deploymentName string, replicas int64) *api.Unstructured {
	t.Helper()
	foo, err := l.dc.Resource(ch13.FooGVR).Namespace("default").Create(context.Background(),
		ch13.NewFoo("default", name, deploymentName, replicas), api.CreateOptions{})
	require.NoError(t, err)
	synctest.Wait()
	return foo
}

// setReplicas changes a Foo's spec.replicas (a spec change: generation+1).
func (l *lab) setReplicas(t *testing.T, name string, replicas int64) *api.Unstructured {
	t.Helper()
	foo := l.get(t, ch13.FooGVR, name)
	require.NoError(t, api.SetNestedField(foo.Object, replicas, "spec", "replicas"))
	foo, err := l.dc.Resource(ch13.FooGVR).Namespace("default").Update(context.Background(), foo, api.UpdateOptions{})
	require.NoError(t, err)
	synctest.Wait()
	return foo
}

// playDeploymentController does what kube-controller-manager's deployment controller would:
// report the Deployment's pods as available. The simulated apiserver runs no controllers, so
// without this write status.availableReplicas stays 0.
func (l *lab) playDeploymentController(t *testing.T, name string) *api.Unstructured {
	t.Helper()
	d := l.get(t, ch13.DeploymentGVR, name)
	n := ch13.Replicas(d)
	require.NoError(t, api.SetNestedField(d.Object, map[string]any{
		"replicas": n, "readyReplicas": n, "availableReplicas": n, "updatedReplicas": n,
		"observedGeneration": d.GetGeneration(),
	}, "status"))
	d, err := l.dc.Resource(ch13.DeploymentGVR).Namespace("default").UpdateStatus(context.Background(), d, api.UpdateOptions{})
	require.NoError(t, err)
	synctest.Wait()
	return d
}

// events lists the Events about name as "Type Reason: message", oldest first.
func (l *lab) events(t *testing.T, name string) []string {
	t.Helper()
	obj, err := l.srv.List(context.Background(), "events", "default", api.ListOptions{})
	require.NoError(t, err)
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	var list struct {
		Items []struct {
			Metadata       struct{ Name string }
			InvolvedObject struct{ Name string }
			Type, Reason   string
			Message        string
		}
	}
	require.NoError(t, json.Unmarshal(data, &list))
	var out []string
	for _, ev := range list.Items {
		if ev.InvolvedObject.Name == name {
			out = append(out, fmt.Sprintf("%s %s: %s", ev.Type, ev.Reason, ev.Message))
		}
	}
	return out
}

// requests counts the server's requests of verb on resource ("deployments.apps"), successful
// or not.
func (l *lab) requests(verb, resource string) int {
	return l.srv.RequestCounts()[apiserver.RequestKey{Verb: verb, Resource: resource}]
}

// joinLines formats a list for a t.Log table.
func joinLines(lines []string) string { return "\n  " + strings.Join(lines, "\n  ") }

// only keeps the lines that start with prefix.
func only(lines []string, prefix string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// plainDeployment is a Deployment no Foo controls.
func plainDeployment(name string) *api.Unstructured {
	labels := map[string]any{"app": name}
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "namespace": "default"},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "app", "image": "busybox"}}},
			},
		},
	}}
}
