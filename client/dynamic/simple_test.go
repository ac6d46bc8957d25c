package dynamic_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/rest"
)

var (
	podsGVR        = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgetsGVR     = api.GroupVersionResource{Group: "example.dev", Version: "v1", Resource: "widgets"}
	gadgetsGVR     = api.GroupVersionResource{Group: "example.dev", Version: "v1", Resource: "gadgets"}
)

// widgets is a custom kind, registered while the server runs (the CRD story).
var widgets = apiserver.ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget",
	Namespaced: true, ShortNames: []string{"wd"}, ReturnDeletedObject: true}

func startServer(t *testing.T) (*apiserver.Server, *dynamic.DynamicClient) {
	t.Helper()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	dc, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	return srv, dc
}

func object(apiVersion, kind, name string, spec map[string]any) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion, "kind": kind,
		"metadata": map[string]any{"name": name},
		"spec":     spec,
	}}
}

// deploymentSpec is the least valid Deployment spec with replicas: a selector and a pod
// template whose labels it matches (the server refuses a Deployment without them, as
// kube-apiserver does).
func deploymentSpec(replicas int64) map[string]any {
	return map[string]any{
		"replicas": replicas,
		"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
		},
	}
}

// TestCh00_DynamicCRUD: the whole ResourceInterface on a built-in group kind (deployments)
// and on a custom kind registered at run time, all as Unstructured.
func TestCh00_DynamicCRUD(t *testing.T) {
	srv, dc := startServer(t)
	require.NoError(t, srv.Register(widgets), "registered after the server started, as a CRD would be")
	ctx := context.Background()
	tests := []struct {
		gvr        api.GroupVersionResource
		apiVersion string
		kind       string
		spec       func(replicas int64) map[string]any
	}{
		{deploymentsGVR, "apps/v1", "Deployment", deploymentSpec},
		{widgetsGVR, "example.dev/v1", "Widget", func(replicas int64) map[string]any { return map[string]any{"replicas": replicas} }},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			ri := dc.Resource(tt.gvr).Namespace("demo")
			created, err := ri.Create(ctx, object(tt.apiVersion, tt.kind, "one", tt.spec(1)), api.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.kind, created.GetKind())
			assert.Equal(t, "demo", created.GetNamespace())
			assert.Equal(t, int64(1), created.GetGeneration())

			got, err := ri.Get(ctx, "one", api.GetOptions{})
			require.NoError(t, err)
			replicas, found, err := api.NestedMap(got.Object, "spec")
			require.NoError(t, err)
			require.True(t, found)
			assert.Equal(t, int64(1), replicas["replicas"], "JSON integers stay int64")

			require.NoError(t, api.SetNestedField(got.Object, int64(3), "spec", "replicas"))
			updated, err := ri.Update(ctx, got, api.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int64(2), updated.GetGeneration())

			require.NoError(t, api.SetNestedField(updated.Object, map[string]any{"readyReplicas": int64(3)}, "status"))
			withStatus, err := ri.UpdateStatus(ctx, updated, api.UpdateOptions{})
			require.NoError(t, err)
			ready, _, _ := api.NestedMap(withStatus.Object, "status")
			assert.Equal(t, int64(3), ready["readyReplicas"])
			assert.Equal(t, int64(2), withStatus.GetGeneration())

			patched, err := ri.Patch(ctx, "one", api.MergePatchType, []byte(`{"metadata":{"labels":{"tier":"web"}}}`), api.PatchOptions{})
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"tier": "web"}, patched.GetLabels())

			_, err = ri.Create(ctx, object(tt.apiVersion, tt.kind, "two", tt.spec(1)), api.CreateOptions{})
			require.NoError(t, err)
			list, err := ri.List(ctx, api.ListOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.kind+"List", list.GetObjectKind().GroupVersionKind().Kind)
			require.Len(t, list.Items, 2)
			assert.Equal(t, "one", list.Items[0].GetName())

			all, err := dc.Resource(tt.gvr).List(ctx, api.ListOptions{})
			require.NoError(t, err, "all namespaces")
			assert.Len(t, all.Items, 2)

			require.NoError(t, ri.Delete(ctx, "one", api.DeleteOptions{}))
			_, err = ri.Get(ctx, "one", api.GetOptions{})
			assert.True(t, api.IsNotFound(err), "%v", err)
			require.NoError(t, ri.DeleteCollection(ctx, api.DeleteOptions{}, api.ListOptions{}))
			list, err = ri.List(ctx, api.ListOptions{})
			require.NoError(t, err)
			assert.Empty(t, list.Items)
		})
	}
}

// TestCh00_DynamicBuiltinKind: pods through the dynamic client are Unstructured too, with
// every field the server sent.
func TestCh00_DynamicBuiltinKind(t *testing.T) {
	srv, dc := startServer(t)
	ctx := context.Background()
	_, err := srv.Create(ctx, "pods", "demo", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
	require.NoError(t, err)
	u, err := dc.Resource(podsGVR).Namespace("demo").Get(ctx, "p", api.GetOptions{})
	require.NoError(t, err)
	phase, found, err := api.NestedString(u.Object, "status", "phase")
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "Pending", phase)
	l, err := dc.Resource(podsGVR).Namespace("demo").List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, l.Items, 1)
}

// TestCh00_DynamicWatch: events carry Unstructured objects.
func TestCh00_DynamicWatch(t *testing.T) {
	_, dc := startServer(t)
	ctx := context.Background()
	ri := dc.Resource(deploymentsGVR).Namespace("demo")
	list, err := ri.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	w, err := ri.Watch(ctx, api.ListOptions{ResourceVersion: list.GetResourceVersion()})
	require.NoError(t, err)
	defer w.Stop()
	_, err = ri.Create(ctx, object("apps/v1", "Deployment", "web", deploymentSpec(1)), api.CreateOptions{})
	require.NoError(t, err)
	select {
	case ev := <-w.ResultChan():
		assert.Equal(t, watch.Added, ev.Type)
		u, ok := ev.Object.(*api.Unstructured)
		require.True(t, ok, "got %T", ev.Object)
		assert.Equal(t, "web", u.GetName())
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
}

// instantClock makes the client's Retry-After waits fire at once.
type instantClock struct{ clock.RealClock }

type firedTimer struct{ c chan time.Time }

func (f firedTimer) C() <-chan time.Time      { return f.c }
func (f firedTimer) Stop() bool               { return false }
func (f firedTimer) Reset(time.Duration) bool { return false }

func (instantClock) NewTimer(time.Duration) clock.Timer {
	c := make(chan time.Time, 1)
	c <- time.Now()
	return firedTimer{c}
}

// TestCh00_DynamicTypedErrors_S1_S2: the dynamic client returns the same typed errors as every
// other client.
func TestCh00_DynamicTypedErrors_S1_S2(t *testing.T) {
	srv, dc := startServer(t)
	require.NoError(t, srv.Register(widgets))
	ctx := context.Background()
	ri := dc.Resource(widgetsGVR).Namespace("demo")
	w, err := ri.Create(ctx, object("example.dev/v1", "Widget", "w", nil), api.CreateOptions{})
	require.NoError(t, err)
	stale := w.DeepCopy()
	_, err = ri.Patch(ctx, "w", api.MergePatchType, []byte(`{"spec":{"size":2}}`), api.PatchOptions{})
	require.NoError(t, err)

	tests := []struct {
		name string
		call func() error
		is   func(error) bool
	}{
		{"NotFound", func() error { _, err := ri.Get(ctx, "nope", api.GetOptions{}); return err }, api.IsNotFound},
		{"NotFound: a resource the server does not serve", func() error {
			_, err := dc.Resource(gadgetsGVR).Namespace("demo").List(ctx, api.ListOptions{})
			return err
		}, api.IsNotFound},
		{"AlreadyExists", func() error {
			_, err := ri.Create(ctx, object("example.dev/v1", "Widget", "w", nil), api.CreateOptions{})
			return err
		}, api.IsAlreadyExists},
		{"Conflict", func() error { _, err := ri.Update(ctx, stale, api.UpdateOptions{}); return err }, api.IsConflict},
		{"Invalid: a custom resource needs a resourceVersion to update (P3)", func() error {
			u := stale.DeepCopy()
			u.SetResourceVersion("")
			_, err := ri.Update(ctx, u, api.UpdateOptions{})
			return err
		}, api.IsInvalid},
		{"UnsupportedMediaType: no strategic merge patch on custom kinds", func() error {
			_, err := ri.Patch(ctx, "w", api.StrategicMergePatchType, []byte(`{}`), api.PatchOptions{})
			return err
		}, api.IsUnsupportedMediaType},
		{"BadRequest: kind of another resource", func() error {
			_, err := ri.Create(ctx, object("apps/v1", "Deployment", "x", nil), api.CreateOptions{})
			return err
		}, api.IsBadRequest},
		{"ResourceExpired: a watch from a compacted RV ends with ERROR 410", func() error {
			srv.CompactAll()
			wa, err := ri.Watch(ctx, api.ListOptions{ResourceVersion: stale.GetResourceVersion()})
			if err != nil {
				return err
			}
			defer wa.Stop()
			ev := <-wa.ResultChan()
			if ev.Type != watch.Error {
				t.Fatalf("want ERROR, got %s", ev.Type)
			}
			return ev.Object.(*api.Status)
		}, api.IsResourceExpired},
		{"Gone", func() error {
			srv.FailNext(apiserver.FailRule{Verb: "delete", Resource: "widgets", Count: 1, Code: 410})
			return ri.Delete(ctx, "w", api.DeleteOptions{})
		}, api.IsGone},
		{"TooManyRequests: 429 beyond the 10 retries", func() error {
			srv.FailNext(apiserver.FailRule{Verb: "get", Resource: "widgets", Count: 11, Code: 429, RetryAfterSeconds: 1})
			fast, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL(), Clock: instantClock{}})
			require.NoError(t, err)
			_, err = fast.Resource(widgetsGVR).Namespace("demo").Get(ctx, "w", api.GetOptions{})
			return err
		}, api.IsTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.True(t, tt.is(err), "predicate false for %T: %v", err, err)
		})
	}
}

// TestCh00_DynamicBadInput: missing names and objects fail before any request.
func TestCh00_DynamicBadInput(t *testing.T) {
	_, err := dynamic.NewForConfig(nil)
	require.Error(t, err)
	_, dc := startServer(t)
	ctx := context.Background()
	ri := dc.Resource(deploymentsGVR).Namespace("demo")
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"Get without a name", func() error { _, err := ri.Get(ctx, "", api.GetOptions{}); return err }, "name is required"},
		{"Delete without a name", func() error { return ri.Delete(ctx, "", api.DeleteOptions{}) }, "name is required"},
		{"Patch without a name", func() error {
			_, err := ri.Patch(ctx, "", api.MergePatchType, []byte(`{}`), api.PatchOptions{})
			return err
		}, "name is required"},
		{"Update without a name", func() error {
			_, err := ri.Update(ctx, object("apps/v1", "Deployment", "", nil), api.UpdateOptions{})
			return err
		}, "name is required"},
		{"Create a subresource without a name", func() error {
			_, err := ri.Create(ctx, object("apps/v1", "Deployment", "", nil), api.CreateOptions{}, "status")
			return err
		}, "name is required"},
		{"Create nil", func() error { _, err := ri.Create(ctx, nil, api.CreateOptions{}); return err }, "needs an object"},
		{"Update nil", func() error { _, err := ri.UpdateStatus(ctx, nil, api.UpdateOptions{}); return err }, "needs an object"},
		{"Create without kind", func() error {
			_, err := ri.Create(ctx, &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x"}}}, api.CreateOptions{})
			return err
		}, "'Kind' is missing"},
		{"a namespace with a slash", func() error {
			_, err := dc.Resource(deploymentsGVR).Namespace("a/b").List(ctx, api.ListOptions{})
			return err
		}, "may not contain '/'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorContains(t, tt.call(), tt.want)
		})
	}
}

// TestCh00_DynamicInformer: the dynamic client is the informer factory's source, and
// ForResource gives an informer of Unstructured objects for a kind registered at run time.
func TestCh00_DynamicInformer(t *testing.T) {
	srv, dc := startServer(t)
	require.NoError(t, srv.Register(widgets))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ri := dc.Resource(widgetsGVR).Namespace("demo")
	_, err := ri.Create(ctx, object("example.dev/v1", "Widget", "a", nil), api.CreateOptions{})
	require.NoError(t, err)

	factory := informer.NewSharedInformerFactory(dc, 0)
	gi, err := factory.ForResource(widgetsGVR)
	require.NoError(t, err)
	factory.StartWithContext(ctx)
	defer factory.Shutdown()
	defer cancel()
	synced := factory.WaitForCacheSyncWithContext(ctx)
	require.NotEmpty(t, synced.Synced)
	for typ, ok := range synced.Synced {
		require.True(t, ok, "%v synced", typ)
	}

	obj, err := gi.Lister().ByNamespace("demo").Get("a")
	require.NoError(t, err)
	assert.Equal(t, "a", obj.(*api.Unstructured).GetName())

	_, err = ri.Create(ctx, object("example.dev/v1", "Widget", "b", nil), api.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		objs, err := gi.Lister().List(labels.Everything())
		return err == nil && len(objs) == 2
	}, 10*time.Second, time.Millisecond)
}
