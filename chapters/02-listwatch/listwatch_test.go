package ch02_test

import (
	"context"
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

func start(t *testing.T) (*apiserver.Server, *rest.RESTClient) {
	t.Helper()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	return srv, c
}

func recv(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the watch ended")
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
		return watch.Event{}
	}
}

// NewListWatchFromClient's field selector applies to the LIST and to the WATCH: a pod on
// another node never shows up, and a pod that moves onto the node arrives as ADDED (W14).
func TestCh02_FieldSelectorListAndWatch(t *testing.T) {
	srv, c := start(t)
	ctx := context.Background()
	for name, node := range map[string]string{"on-n1": "n1", "on-n2": "n2"} {
		_, err := srv.Create(ctx, "pods", "demo", podOnNode(name, node))
		require.NoError(t, err)
	}
	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.OneTermEqualSelector("spec.nodeName", "n1"))
	obj, err := lw.List(api.ListOptions{})
	require.NoError(t, err)
	l := obj.(*api.PodList)
	require.Len(t, l.Items, 1)
	assert.Equal(t, "on-n1", l.Items[0].Name)

	w, err := lw.Watch(api.ListOptions{ResourceVersion: l.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	_, err = srv.Create(ctx, "pods", "demo", podOnNode("late-n2", "n2"))
	require.NoError(t, err)
	_, err = srv.Create(ctx, "pods", "demo", podOnNode("late-n1", "n1"))
	require.NoError(t, err)
	ev := recv(t, w)
	assert.Equal(t, watch.Added, ev.Type)
	assert.Equal(t, "late-n1", ev.Object.(*api.Pod).Name, "the n2 pod was filtered out by the server")
}

// LW-4: watch-list streams the current state as ADDED events, then one BOOKMARK annotated
// k8s.io/initial-events-end, on the same stream that then carries the changes.
func TestCh02_LW4_WatchListInitialEventsEnd(t *testing.T) {
	srv, c := start(t)
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		_, err := srv.Create(ctx, "pods", "demo", newPod(n))
		require.NoError(t, err)
	}
	yes := true
	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	w, err := lw.WatchWithContext(ctx, api.ListOptions{SendInitialEvents: &yes,
		ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true})
	require.NoError(t, err)
	defer w.Stop()
	var got []string
	for {
		ev := recv(t, w)
		m, err := api.Accessor(ev.Object)
		require.NoError(t, err)
		got = append(got, string(ev.Type)+" "+m.GetName())
		if ev.Type == watch.Bookmark {
			assert.Equal(t, "true", m.GetAnnotations()[api.InitialEventsAnnotationKey])
			break
		}
	}
	assert.Equal(t, []string{"ADDED a", "ADDED b", "BOOKMARK "}, got)
	_, err = srv.Create(ctx, "pods", "demo", newPod("c"))
	require.NoError(t, err)
	assert.Equal(t, watch.Added, recv(t, w).Type, "the same stream goes on with changes")
}

// Stop closes the connection: the server drops its watcher.
func TestCh02_StopFreesTheServersWatcher(t *testing.T) {
	srv, c := start(t)
	lw := listwatch.NewListWatchFromClient(c, "pods", "", fields.Everything())
	w, err := lw.Watch(api.ListOptions{ResourceVersion: "1"})
	require.NoError(t, err)
	require.Len(t, srv.Watchers(), 1)
	w.Stop()
	require.Eventually(t, func() bool { return len(srv.Watchers()) == 0 }, 10*time.Second, time.Millisecond)
	_, open := <-w.ResultChan()
	assert.False(t, open)
}
