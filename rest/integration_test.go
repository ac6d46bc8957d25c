package rest_test

// Integration tests: our client against the simulated apiserver over real HTTP. Production
// code of rest never imports apiserver; tests may.

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
)

var (
	podsGVR        = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// startServer runs the simulated apiserver with namespace demo and returns a client for it.
func startServer(t *testing.T, opts apiserver.Options) (*apiserver.Server, *rest.RESTClient) {
	t.Helper()
	srv := apiserver.NewTestServer(t, opts)
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	return srv, c
}

func newPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "demo"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
}

// next receives one event or fails after a bounded wait.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the watch ended early")
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
		return watch.Event{}
	}
}

func rvOf(t *testing.T, obj api.Object) uint64 {
	t.Helper()
	m, err := api.Accessor(obj)
	require.NoError(t, err)
	rv, err := strconv.ParseUint(m.GetResourceVersion(), 10, 64)
	require.NoError(t, err)
	return rv
}

// W11: list, then watch from the list's RV: exactly the changes after it, in order.
func TestCh02_Integration_ListThenWatch(t *testing.T) {
	_, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	pods := c.Resource(podsGVR).Namespace("demo")
	for _, n := range []string{"a", "b"} {
		_, err := pods.Create(ctx, newPod(n))
		require.NoError(t, err)
	}
	obj, err := pods.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	list := obj.(*api.PodList)
	require.Len(t, list.Items, 2)

	w, err := pods.Watch(ctx, api.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()

	created, err := pods.Create(ctx, newPod("c"))
	require.NoError(t, err)
	p := created.(*api.Pod)
	p.Labels = map[string]string{"x": "y"}
	_, err = pods.Update(ctx, p)
	require.NoError(t, err)
	require.NoError(t, pods.Delete(ctx, "c", nil))

	last, err := strconv.ParseUint(list.ResourceVersion, 10, 64)
	require.NoError(t, err)
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		ev := next(t, w)
		require.Equal(t, want, ev.Type)
		assert.Equal(t, "c", ev.Object.(*api.Pod).Name)
		rv := rvOf(t, ev.Object)
		assert.Greater(t, rv, last, "RVs strictly increase after the list RV")
		last = rv
	}
}

// CRUD and the typed API errors the server sends.
func TestCh02_Integration_CRUDErrors(t *testing.T) {
	_, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	pods := c.Resource(podsGVR).Namespace("demo")
	created, err := pods.Create(ctx, newPod("a"))
	require.NoError(t, err)

	_, err = pods.Create(ctx, newPod("a"))
	assert.Equal(t, api.StatusReasonAlreadyExists, api.ReasonForError(err))

	stale := created.(*api.Pod).DeepCopy()
	stale.Labels = map[string]string{"v": "1"}
	_, err = pods.Update(ctx, stale)
	require.NoError(t, err)
	stale.Labels["v"] = "2"
	_, err = pods.Update(ctx, stale)
	assert.Equal(t, api.StatusReasonConflict, api.ReasonForError(err), "stale resourceVersion: %v", err)

	got, err := pods.Patch(ctx, "a", api.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`))
	require.NoError(t, err)
	assert.Equal(t, "yes", got.(*api.Pod).Labels["patched"])
	got, err = pods.Patch(ctx, "a", api.JSONPatchType, []byte(`[{"op":"add","path":"/metadata/labels/j","value":"1"}]`))
	require.NoError(t, err)
	assert.Equal(t, "1", got.(*api.Pod).Labels["j"])

	require.NoError(t, pods.Delete(ctx, "a", &api.DeleteOptions{GracePeriodSeconds: new(int64)}))
	_, err = pods.Get(ctx, "a")
	assert.True(t, api.IsNotFound(err), "got %v", err)
	assert.EqualError(t, err, `pods "a" not found`)

	_, err = c.Resource(podsGVR).Namespace("nope").Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "x"}})
	assert.True(t, api.IsNotFound(err), "NS1: got %v", err)
	assert.EqualError(t, err, `namespaces "nope" not found`)

	// A kind of another group (no typed view here) comes back as Unstructured.
	_, c2 := startServer(t, apiserver.Options{})
	deploy := &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"}, "spec": map[string]any{"replicas": int64(2),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
			}}}}
	obj, err := c2.Resource(deploymentsGVR).Namespace("demo").Create(ctx, deploy)
	require.NoError(t, err)
	u := obj.(*api.Unstructured)
	assert.Equal(t, "web", u.GetName())
	assert.NotEmpty(t, u.GetResourceVersion())
	lobj, err := c2.Resource(deploymentsGVR).List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, lobj.(*api.UnstructuredList).Items, 1)
}

// PG-1 … PG-4 against the server: pages of 3, one list at the first page's RV.
func TestCh02_Integration_Pager(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	for i := range 7 {
		_, err := srv.Create(ctx, "pods", "demo", newPod(fmt.Sprintf("p%d", i)))
		require.NoError(t, err)
	}
	srv.ResetRequestCounts()
	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	p := listwatch.NewListPager(listwatch.ListPageFunc(lw.ListWithContextFunc))
	p.PageSize = 3
	obj, paginated, err := p.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.True(t, paginated)
	l := obj.(*api.PodList)
	assert.Len(t, l.Items, 7)
	assert.Equal(t, strconv.FormatUint(srv.ResourceVersion(), 10), l.ResourceVersion)
	assert.Empty(t, l.Continue)
	assert.Equal(t, 3, srv.RequestCounts()[apiserver.RequestKey{Verb: "list", Resource: "pods"}])
}

// PG-5 against the server: the continue token expires between pages (compaction), and the
// pager falls back to one full list.
func TestCh02_Integration_PagerExpiredToken(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{HistorySize: 2})
	ctx := context.Background()
	for i := range 5 {
		_, err := srv.Create(ctx, "pods", "demo", newPod(fmt.Sprintf("p%d", i)))
		require.NoError(t, err)
	}
	srv.ResetRequestCounts()
	pods := c.Resource(podsGVR).Namespace("demo")
	var seen []api.ListOptions
	p := listwatch.NewListPager(func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
		seen = append(seen, opts)
		if len(seen) == 2 {
			// Between page 1 and page 2 the world moves on and history is compacted.
			_, err := srv.Create(ctx, "pods", "demo", newPod("late"))
			require.NoError(t, err)
			srv.CompactAll()
		}
		return pods.List(ctx, opts)
	})
	p.PageSize = 2
	obj, paginated, err := p.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.True(t, paginated)
	assert.Len(t, obj.(*api.PodList).Items, 6, "the full list sees the pod created meanwhile")
	require.Len(t, seen, 3)
	assert.Equal(t, api.ListOptions{}, seen[2], "fallback: no limit, no continue, the original RV")
}

// W12, LW-5: a watch from a compacted RV opens, then ends with ERROR 410 Expired.
func TestCh02_Integration_WatchExpired(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	first, err := srv.Create(ctx, "pods", "demo", newPod("a"))
	require.NoError(t, err)
	for i := range 3 {
		_, err := srv.Create(ctx, "pods", "demo", newPod(fmt.Sprintf("b%d", i)))
		require.NoError(t, err)
	}
	srv.CompactAll()
	w, err := c.Resource(podsGVR).Namespace("demo").Watch(ctx, api.ListOptions{ResourceVersion: strconv.FormatUint(rvOf(t, first), 10)})
	require.NoError(t, err, "too old is never an HTTP error on watch")
	defer w.Stop()
	ev := next(t, w)
	require.Equal(t, watch.Error, ev.Type)
	st := ev.Object.(*api.Status)
	assert.Equal(t, int32(410), st.Code)
	assert.Equal(t, api.StatusReasonExpired, api.ReasonForError(st))
	_, open := <-w.ResultChan()
	assert.False(t, open, "the stream ends after ERROR")
}

// LW-4 against the server: watch-list sends the initial ADDED events, then the annotated
// bookmark.
func TestCh02_Integration_WatchListBookmark(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	_, err := srv.Create(ctx, "pods", "demo", newPod("a"))
	require.NoError(t, err)
	yes := true
	w, err := c.Resource(podsGVR).Namespace("demo").Watch(ctx, api.ListOptions{SendInitialEvents: &yes,
		ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true})
	require.NoError(t, err)
	defer w.Stop()
	assert.Equal(t, watch.Added, next(t, w).Type)
	bm := next(t, w)
	require.Equal(t, watch.Bookmark, bm.Type)
	assert.Equal(t, "true", bm.Object.(*api.Pod).Annotations[api.InitialEventsAnnotationKey])
	assert.Equal(t, srv.ResourceVersion(), rvOf(t, bm.Object))
}

// rest/watch contract item 2 against the server: a stream cut in the middle of an event ends with one
// ERROR event that says so.
func TestCh02_Integration_TruncatedStream(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	ctx := context.Background()
	w, err := c.Resource(podsGVR).Namespace("demo").Watch(ctx, api.ListOptions{ResourceVersion: strconv.FormatUint(srv.ResourceVersion(), 10)})
	require.NoError(t, err)
	defer w.Stop()
	srv.CutNextEvent(0)
	_, err = srv.Create(ctx, "pods", "demo", newPod("a"))
	require.NoError(t, err)
	ev := next(t, w)
	require.Equal(t, watch.Error, ev.Type)
	assert.Contains(t, ev.Object.(*api.Status).Message, "the stream ended in the middle of an event")
	_, open := <-w.ResultChan()
	assert.False(t, open)
}

// rest/watch contract item 3 against the server: Stop releases the server's watcher.
func TestCh02_Integration_StopReleasesWatcher(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	w, err := c.Resource(podsGVR).Namespace("demo").Watch(context.Background(), api.ListOptions{ResourceVersion: "1"})
	require.NoError(t, err)
	require.Len(t, srv.Watchers(), 1)
	w.Stop()
	require.Eventually(t, func() bool { return len(srv.Watchers()) == 0 }, 10*time.Second, time.Millisecond,
		"the server still holds the watcher")
}

// A 429 from the server is a TooManyRequests API error carrying Retry-After. With retries
// off, the caller sees it at once; with_retry_test.go shows the default, which retries.
func TestCh02_Integration_TooManyRequests(t *testing.T) {
	srv, c := startServer(t, apiserver.Options{})
	srv.FailNext(apiserver.FailRule{Verb: "list", Resource: "pods", Count: 1, Code: 429, RetryAfterSeconds: 2})
	_, err := c.Get().Namespace("demo").Resource("pods").MaxRetries(0).Do(context.Background()).Get()
	require.Error(t, err)
	st := err.(*api.Status)
	assert.Equal(t, api.StatusReasonTooManyRequests, st.Reason)
	assert.Equal(t, int32(2), st.Details.RetryAfterSeconds)
}
