package clientgo_test

import (
	"context"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// podInformer returns the stock pod informer of a client-go SharedInformerFactory for env,
// started, and stopped when the test ends.
func podInformer(t *testing.T, env *wiretest.Env) cache.SharedIndexInformer {
	t.Helper()
	f := informers.NewSharedInformerFactory(env.Clientset(t), 0)
	inf := f.Core().V1().Pods().Informer()
	startFactory(t, f)
	return inf
}

// TestInterop_T8_InformerSyncsThroughWatchList: a stock client-go v0.37 informer syncs with
// exactly one request, a watch-list WATCH, and never LISTs (CG4, T8). The same stream then
// carries later events.
func TestInterop_T8_InformerSyncsThroughWatchList(t *testing.T) {
	require.True(t, clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient),
		"WatchListClient is on by default in client-go v0.37 (CG4); is KUBE_FEATURE_WatchListClient=false set?")
	env := wiretest.Start(t, apiserver.Options{})
	seedPods(t, env.Server, "default", 3)

	inf := podInformer(t, env)
	waitSynced(t, inf)

	reqs := env.Recorder.ResourceRequests("pods")
	require.Len(t, reqs, 1, "exactly one request to sync: %v", wiretest.Verbs(reqs))
	w := reqs[0]
	assert.Equal(t, "watch", w.Verb())
	assert.Equal(t, "/api/v1/pods", w.Path)
	assert.Equal(t, "true", w.Query.Get("sendInitialEvents"))
	assert.Equal(t, "NotOlderThan", w.Query.Get("resourceVersionMatch"))
	assert.Equal(t, "true", w.Query.Get("allowWatchBookmarks"))
	assert.NotContains(t, w.Query, "resourceVersion", "the first attempt omits the RV (CG4)")
	assert.NotEmpty(t, w.Query.Get("timeoutSeconds"))
	assert.Equal(t, http.StatusOK, w.Status)

	evs := w.Events()
	require.Len(t, evs, 4)
	assert.Equal(t, []string{"ADDED", "ADDED", "ADDED", "BOOKMARK"}, wiretest.EventTypes(evs))
	end := evs[3]
	assert.Equal(t, map[string]string{api.InitialEventsAnnotationKey: "true"}, end.Annotations)
	assert.Equal(t, "Pod", end.Kind)
	assert.Equal(t, "v1", end.APIVersion)
	assert.Equal(t, strconv.FormatUint(env.Server.ResourceVersion(), 10), end.ResourceVersion, "the end bookmark carries the snapshot RV (W7)")
	assert.Equal(t, map[apiserver.RequestKey]int{{Verb: "watch", Resource: "pods"}: 1}, readCounts(env.Server),
		"the server counted one WATCH and no LIST")
	assert.Equal(t, serverPods(t, env.Server), cachedRVs(inf.GetStore()))

	// The stream stays open: a new pod arrives over it, still with no other request.
	_, err := env.Server.Create(context.Background(), "pods", "default", newPod("default", "late", nil))
	require.NoError(t, err)
	waitFor(t, "the informer to see pod late", func() bool {
		_, ok, _ := inf.GetStore().GetByKey("default/late")
		return ok
	})
	reqs = env.Recorder.ResourceRequests("pods")
	require.Len(t, reqs, 1, "still one request: %v", wiretest.Verbs(reqs))
	assert.False(t, reqs[0].Done, "the watch-list stream is still open")
	assert.Equal(t, "ADDED", reqs[0].Events()[4].Type)
}

// TestInterop_T9_InformerFallsBackToListAndWatch: against a server that rejects watch-list
// with 422 (a WatchList gate that is off), the same informer falls back to LIST
// (limit=500, resourceVersion=0) then WATCH from the list's RV, and syncs (CG5, CG6, T9).
func TestInterop_T9_InformerFallsBackToListAndWatch(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{RejectWatchList: true})
	seedPods(t, env.Server, "default", 3)

	inf := podInformer(t, env)
	waitSynced(t, inf)
	waitFor(t, "the WATCH after the LIST", func() bool { return len(env.Recorder.ResourceRequests("pods")) >= 3 })

	reqs := env.Recorder.ResourceRequests("pods")
	require.Len(t, reqs, 3, "%v", wiretest.Verbs(reqs))
	assert.Equal(t, []string{"watch", "list", "watch"}, wiretest.Verbs(reqs))
	assert.Equal(t, map[apiserver.RequestKey]int{
		{Verb: "watch", Resource: "pods"}: 2,
		{Verb: "list", Resource: "pods"}:  1,
	}, readCounts(env.Server), "the server counted the same")

	rejected := reqs[0]
	assert.Equal(t, "true", rejected.Query.Get("sendInitialEvents"))
	assert.Equal(t, http.StatusUnprocessableEntity, rejected.Status)
	assert.Equal(t, "Invalid", rejected.StatusReason())

	list := reqs[1]
	assert.Equal(t, "500", list.Query.Get("limit"), "the reflector's pager page size")
	assert.Equal(t, "0", list.Query.Get("resourceVersion"))
	assert.Equal(t, http.StatusOK, list.Status)
	listRV, _ := listMeta(t, list.Response)
	require.NotEmpty(t, listRV)

	watchReq := reqs[2]
	assert.Equal(t, listRV, watchReq.Query.Get("resourceVersion"), "the WATCH starts at the LIST's RV")
	assert.Equal(t, "true", watchReq.Query.Get("allowWatchBookmarks"))
	assert.NotContains(t, watchReq.Query, "sendInitialEvents")
	assert.Equal(t, http.StatusOK, watchReq.Status)
	assert.Equal(t, serverPods(t, env.Server), cachedRVs(inf.GetStore()))

	_, err := env.Server.Create(context.Background(), "pods", "default", newPod("default", "late", nil))
	require.NoError(t, err)
	waitFor(t, "the informer to see pod late", func() bool {
		_, ok, _ := inf.GetStore().GetByKey("default/late")
		return ok
	})
	assert.Len(t, env.Recorder.ResourceRequests("pods"), 3, "the event came over the open WATCH")
}

// TestInterop_T10_CompactionMakesInformerRelist: after one live event, the informer's stream
// loses two events (dropped), the history is compacted past its last RV and the stream is
// closed. Its resumed WATCH gets 200 + ERROR 410 Expired (W12); it then streams the state
// again (watch-list, which is never 410 because it re-reads the state, W5) and its cache
// equals the server's, the missed delete reaching the handler as a delete (T10).
//
// The live event matters: a stream that closes within a second of (re)use with no event is a
// "very short watch" to client-go (CG7), which then relists at once instead of resuming.
func TestInterop_T10_CompactionMakesInformerRelist(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	seedPods(t, env.Server, "default", 5)

	inf := podInformer(t, env)
	notes := &notifications{}
	_, err := inf.AddEventHandler(notes.handler())
	require.NoError(t, err)
	waitSynced(t, inf)

	ctx := context.Background()
	_, err = env.Server.Create(ctx, "pods", "default", newPod("default", "seen", nil))
	require.NoError(t, err)
	waitFor(t, "the informer to see pod seen", func() bool {
		_, ok, _ := inf.GetStore().GetByKey("default/seen")
		return ok
	})
	lastRV := strconv.FormatUint(env.Server.ResourceVersion(), 10)

	env.Server.DropNextEvents(apiserver.DropRule{Count: 2})
	_, err = env.Server.Delete(ctx, "pods", "default", "pod-00000", nil)
	require.NoError(t, err)
	_, err = env.Server.Patch(ctx, "pods", "default", "pod-00001", api.MergePatchType, []byte(`{"metadata":{"labels":{"changed":"yes"}}}`))
	require.NoError(t, err)
	_, stale, _ := inf.GetStore().GetByKey("default/pod-00000")
	require.True(t, stale, "the dropped delete has not reached the cache")

	want := serverPods(t, env.Server)
	env.Server.ResetRequestCounts()
	env.Server.CompactAll()
	env.Server.CloseAllWatches()
	waitFor(t, "the cache to equal the server", func() bool {
		return maps.Equal(want, cachedRVs(inf.GetStore()))
	})

	reqs := env.Recorder.ResourceRequests("pods")
	require.Len(t, reqs, 3, "%v", wiretest.Verbs(reqs))
	assert.Equal(t, []string{"watch", "watch", "watch"}, wiretest.Verbs(reqs), "no LIST at any point")

	resumed := reqs[1]
	assert.Equal(t, lastRV, resumed.Query.Get("resourceVersion"), "the resumed WATCH starts at the last RV seen")
	assert.NotContains(t, resumed.Query, "sendInitialEvents")
	assert.Equal(t, http.StatusOK, resumed.Status, "a too-old watch RV is never an HTTP 410 (W12)")
	evs := resumed.Events()
	require.Len(t, evs, 1)
	assert.Equal(t, "ERROR", evs[0].Type)
	assert.Equal(t, "Expired", evs[0].Reason)
	assert.Equal(t, http.StatusGone, evs[0].Code)

	relist := reqs[2]
	assert.Equal(t, "true", relist.Query.Get("sendInitialEvents"))
	assert.Equal(t, "NotOlderThan", relist.Query.Get("resourceVersionMatch"))
	assert.Equal(t, lastRV, relist.Query.Get("resourceVersion"), "the relist asks for state not older than the last RV")
	relistEvents := relist.Events()
	require.Len(t, relistEvents, 6, "5 ADDED and the end bookmark: %v", wiretest.EventTypes(relistEvents))
	assert.Equal(t, "BOOKMARK", relistEvents[5].Type)
	assert.Equal(t, map[apiserver.RequestKey]int{{Verb: "watch", Resource: "pods"}: 2}, readCounts(env.Server),
		"after the compaction: the resumed WATCH and the watch-list")

	assert.Contains(t, notes.list(), "delete default/pod-00000", "the missed delete reached the handler")
	assert.Contains(t, notes.list(), "update default/pod-00001", "the missed update reached the handler")
}

// notifications records handler calls as "add|update|delete namespace/name".
type notifications struct {
	mu    sync.Mutex
	notes []string
}

func (n *notifications) add(op string, obj any) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		key = "?"
	}
	n.mu.Lock()
	n.notes = append(n.notes, op+" "+key)
	n.mu.Unlock()
}

func (n *notifications) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { n.add("add", obj) },
		UpdateFunc: func(_, obj any) { n.add("update", obj) },
		DeleteFunc: func(obj any) { n.add("delete", obj) },
	}
}

func (n *notifications) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.notes...)
}

// readCounts returns the server's counts of list and watch requests. The server also counts
// what the tests do in process (seeding, serverPods), so writes are left out, and it must be
// called before serverPods.
func readCounts(srv *apiserver.Server) map[apiserver.RequestKey]int {
	out := map[apiserver.RequestKey]int{}
	for k, n := range srv.RequestCounts() {
		if k.Verb == "list" || k.Verb == "watch" {
			out[k] = n
		}
	}
	return out
}
