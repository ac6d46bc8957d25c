package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

func rvString(s *Server) string { return strconv.FormatUint(s.ResourceVersion(), 10) }

func setLabels(t *testing.T, s *Server, ns, name string, labels map[string]string) api.Object {
	t.Helper()
	obj, err := s.Get(context.Background(), "pods", ns, name)
	require.NoError(t, err)
	obj.(*api.Pod).Labels = labels
	out, err := s.Update(context.Background(), "pods", ns, obj)
	require.NoError(t, err)
	return out
}

// TestCh01_WatchFraming checks W3, W4 and N6: 200, application/json, chunked, one JSON
// object per line, each object with kind and apiVersion.
func TestCh01_WatchFraming(t *testing.T) {
	s, c := newServer(t, Options{})
	st := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rvString(s))
	assert.Equal(t, 200, st.resp.StatusCode)
	assert.Equal(t, "application/json", st.resp.Header.Get("Content-Type"))
	assert.Equal(t, []string{"chunked"}, st.resp.TransferEncoding)
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	ev := st.next()
	kind, av, name, _, _ := ev.meta(t)
	assert.Equal(t, []string{"ADDED", "Pod", "v1", "a"}, []string{ev.Type, kind, av, name})
}

// TestCh01_ListThenWatch checks W5 (row "N"), W11 and the list→watch contract: a watch from
// a list's RV delivers exactly the changes after it, no initial state, no gap, no duplicate.
func TestCh01_ListThenWatch(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	l := c.list(t, "/api/v1/namespaces/default/pods")
	// Writes after the list but before the watch opens must still be delivered.
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	st := c.watch("/api/v1/namespaces/default/pods?watch=1&resourceVersion=" + l.Metadata.ResourceVersion)
	setLabels(t, s, "default", "a", map[string]string{"x": "1"})
	_, err := s.Delete(context.Background(), "pods", "default", "b", nil)
	require.NoError(t, err)
	rv := s.ResourceVersion()
	assert.Equal(t, []string{
		fmt.Sprintf("ADDED b@%d", rv-2), fmt.Sprintf("MODIFIED a@%d", rv-1), fmt.Sprintf("DELETED b@%d", rv),
	}, st.nextN(3))
}

// TestCh01_WatchInitialState checks W5 rows "" and "0", W6 and R10: synthetic ADDED events in
// key order with their own RVs, then live events; with bookmarks allowed, the W6 defaulting
// adds the initial-events-end bookmark; with the gate off (RejectWatchList) it does not.
func TestCh01_WatchInitialState(t *testing.T) {
	for _, tc := range []struct {
		name   string
		query  string
		reject bool
		end    bool
	}{
		{"unset", "", false, false},
		{"0", "&resourceVersion=0", false, false},
		{"0 with bookmarks (W6)", "&resourceVersion=0&allowWatchBookmarks=true", false, true},
		{"unset with bookmarks, gate off", "&allowWatchBookmarks=true", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newServer(t, Options{RejectWatchList: tc.reject})
			b := mustCreate(t, s, "pods", "default", pod("default", "b", nil))
			a := mustCreate(t, s, "pods", "default", pod("default", "a", nil))
			snap := rvString(s)
			st := c.watch("/api/v1/namespaces/default/pods?watch=true" + tc.query)
			want := []string{"ADDED a@" + rvOf(t, a), "ADDED b@" + rvOf(t, b)}
			if tc.end {
				want = append(want, "BOOKMARK @"+snap)
			}
			assert.Equal(t, want, st.nextN(len(want)))
			mustCreate(t, s, "pods", "default", pod("default", "c", nil))
			assert.Equal(t, "ADDED c@"+rvString(s), st.next().short(t))
		})
	}
}

// TestCh01_WatchListHTTP checks W7, W8 and H-5: ADDED for the snapshot, the annotated BOOKMARK at
// the snapshot RV, then live events on the same stream; only that bookmark is annotated.
func TestCh01_WatchListHTTP(t *testing.T) {
	s, c := newServer(t, Options{BookmarkPeriod: 20e6})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	snap := rvString(s)
	st := c.watch("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	assert.Equal(t, "ADDED a@"+snap, st.next().short(t))
	bm := st.next()
	kind, av, _, rv, ann := bm.meta(t)
	assert.Equal(t, "BOOKMARK", bm.Type)
	assert.Equal(t, []string{"Pod", "v1", snap}, []string{kind, av, rv})
	assert.Equal(t, map[string]string{"k8s.io/initial-events-end": "true"}, ann)
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	for {
		ev := st.next()
		if ev.Type == "BOOKMARK" {
			_, _, _, _, ann := ev.meta(t)
			assert.Empty(t, ann, "W7: later bookmarks carry no annotation")
			continue
		}
		assert.Equal(t, "ADDED b@"+rvString(s), ev.short(t))
		break
	}
}

// TestCh01_WatchListGoAPI checks that the in-process ListerWatcher accepts watch-list options
// as a watch=true request does: the reflector's first request through it is a watch-list.
func TestCh01_WatchListGoAPI(t *testing.T) {
	s, _ := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	send := true
	w, err := s.ListerWatcher("pods", "").Watch(api.ListOptions{
		SendInitialEvents: &send, ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true,
	})
	require.NoError(t, err)
	defer w.Stop()
	ev := <-w.ResultChan()
	assert.Equal(t, "ADDED", string(ev.Type))
	ev = <-w.ResultChan()
	require.Equal(t, "BOOKMARK", string(ev.Type))
	m, err := api.Accessor(ev.Object)
	require.NoError(t, err)
	assert.Equal(t, "true", m.GetAnnotations()[api.InitialEventsAnnotationKey])
}

// TestCh01_WatchListWithoutBookmarks checks the W5 watch-list row: the end bookmark is sent
// iff allowWatchBookmarks=true.
func TestCh01_WatchListWithoutBookmarks(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	st := c.watch("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan")
	assert.Equal(t, "ADDED a@"+rvString(s), st.next().short(t))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	assert.Equal(t, "ADDED b@"+rvString(s), st.next().short(t))
}

// TestCh01_WatchListRejectedHTTP checks the RejectWatchList option (CG5, T9): 422 before the
// stream.
func TestCh01_WatchListRejectedHTTP(t *testing.T) {
	_, c := newServer(t, Options{RejectWatchList: true})
	r := c.get("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	require.Equal(t, 422, r.code)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonInvalid, st.Reason)
	assert.Equal(t, `ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled`, st.Message)
}

// TestCh01_WatchTooOld checks W12, R8 and T10: a compacted start RV gets 200, one ERROR event
// with 410 Expired, and the end of the stream.
func TestCh01_WatchTooOld(t *testing.T) {
	s, c := newServer(t, Options{})
	old := rvString(s)
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	s.CompactAll()
	st := c.watch("/api/v1/pods?watch=true&resourceVersion=" + old)
	assert.Equal(t, 200, st.resp.StatusCode)
	ev := st.next()
	require.Equal(t, "ERROR", ev.Type)
	var status api.Status
	require.NoError(t, json.Unmarshal(ev.Object, &status))
	assert.Equal(t, int32(410), status.Code)
	assert.Equal(t, api.StatusReasonExpired, status.Reason)
	assert.Equal(t, "Status", status.Kind)
	assert.Equal(t, fmt.Sprintf("too old resource version: %s (%d)", old, s.OldestResourceVersion()), status.Message)
	assert.Empty(t, st.ended())
}

// TestCh01_WatchHistoryWindow checks 0.5: the history ring keeps HistorySize events; a
// watch from the oldest retained boundary replays, one before it is 410.
func TestCh01_WatchHistoryWindow(t *testing.T) {
	s, c := newServer(t, Options{HistorySize: 3})
	for i := range 5 {
		mustCreate(t, s, "pods", "default", pod("default", fmt.Sprintf("p%d", i), nil))
	}
	oldest := s.OldestResourceVersion()
	assert.Equal(t, s.ResourceVersion()-3, oldest)
	st := c.watch(fmt.Sprintf("/api/v1/pods?watch=true&resourceVersion=%d", oldest))
	assert.Equal(t, []string{"ADDED p2@" + strconv.FormatUint(oldest+1, 10), "ADDED p3@" + strconv.FormatUint(oldest+2, 10), "ADDED p4@" + strconv.FormatUint(oldest+3, 10)}, st.nextN(3))
	st2 := c.watch(fmt.Sprintf("/api/v1/pods?watch=true&resourceVersion=%d", oldest-1))
	assert.Equal(t, "ERROR", st2.next().Type)
}

// TestCh01_WatchFutureRV checks W5: from an RV beyond the current revision, no error; events
// appear once revisions pass it.
func TestCh01_WatchFutureRV(t *testing.T) {
	s, c := newServer(t, Options{})
	future := s.ResourceVersion() + 2
	st := c.watch(fmt.Sprintf("/api/v1/pods?watch=true&resourceVersion=%d", future))
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, "pods", "default", pod("default", n, nil))
	}
	assert.Equal(t, fmt.Sprintf("ADDED c@%d", future+1), st.next().short(t))
}

// TestCh01_WatchListTooLargeRV checks W9: a watch-list from a future RV fails, after the
// wait, with an ERROR event carrying the 504 ResourceVersionTooLarge Status.
func TestCh01_WatchListTooLargeRV(t *testing.T) {
	s, c := newServer(t, Options{TooLargeResourceVersionWait: -1})
	st := c.watch(fmt.Sprintf("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=%d", s.ResourceVersion()+10))
	assert.Equal(t, 200, st.resp.StatusCode)
	ev := st.next()
	require.Equal(t, "ERROR", ev.Type)
	var status api.Status
	require.NoError(t, json.Unmarshal(ev.Object, &status))
	assert.Equal(t, int32(504), status.Code)
	assert.Equal(t, api.CauseTypeResourceVersionTooLarge, status.Details.Causes[0].Type)
	assert.Empty(t, st.ended())
}

// TestCh01_WatchDeleteRV checks W10: DELETED carries the last state at the delete's RV, and
// the DELETE response carries the same RV.
func TestCh01_WatchDeleteRV(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", map[string]string{"k": "v"}))
	st := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rvString(s))
	r := c.do("DELETE", "/api/v1/namespaces/default/pods/a", nil)
	require.Equal(t, 200, r.code)
	var deleted api.Pod
	r.decode(t, &deleted)
	ev := st.next()
	assert.Equal(t, "DELETED a@"+deleted.ResourceVersion, ev.short(t))
	assert.Equal(t, rvString(s), deleted.ResourceVersion)
	var last api.Pod
	require.NoError(t, json.Unmarshal(ev.Object, &last))
	assert.Equal(t, map[string]string{"k": "v"}, last.Labels)
}

// TestCh01_WatchSelectorTransitions checks W14, R11 and T14: relabelled out of the selector →
// DELETED with the previous state at the new RV; back in → ADDED.
func TestCh01_WatchSelectorTransitions(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "x", map[string]string{"app": "a"}))
	mustCreate(t, s, "pods", "default", pod("default", "other", map[string]string{"app": "b"}))
	st := c.watch("/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Da&resourceVersion=" + rvString(s))

	setLabels(t, s, "default", "x", map[string]string{"app": "a", "v": "2"})
	modRV := rvString(s)
	setLabels(t, s, "default", "other", map[string]string{"app": "c"}) // never matches: nothing
	setLabels(t, s, "default", "x", map[string]string{"app": "b"})
	outRV := rvString(s)
	setLabels(t, s, "default", "x", map[string]string{"app": "a"})
	inRV := rvString(s)
	assert.Equal(t, []string{"MODIFIED x@" + modRV, "DELETED x@" + outRV, "ADDED x@" + inRV}, st.nextN(3))

	// The DELETED event carries the previous, matching state.
	st2 := c.watch("/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3Da&resourceVersion=" + modRV)
	ev := st2.next()
	var p api.Pod
	require.NoError(t, json.Unmarshal(ev.Object, &p))
	assert.Equal(t, "DELETED", ev.Type)
	assert.Equal(t, map[string]string{"app": "a", "v": "2"}, p.Labels)
	assert.Equal(t, outRV, p.ResourceVersion)
	assert.Equal(t, "ADDED x@"+inRV, st2.next().short(t))
}

// TestCh01_WatchSingleObject checks K9/R10 and U6: a field-selected watch from "0" starts
// with the object's ADDED; the legacy item path does the same; a conflicting name is E42.
func TestCh01_WatchSingleObject(t *testing.T) {
	s, c := newServer(t, Options{})
	a := mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	st := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Da")
	legacy := c.watch("/api/v1/watch/namespaces/default/pods/a")
	legacyAll := c.watch("/api/v1/watch/pods?resourceVersion=" + rvString(s))
	assert.Equal(t, "ADDED a@"+rvOf(t, a), st.next().short(t))
	assert.Equal(t, "ADDED a@"+rvOf(t, a), legacy.next().short(t))
	setLabels(t, s, "default", "b", map[string]string{"z": "1"})
	setLabels(t, s, "default", "a", map[string]string{"z": "1"})
	assert.Equal(t, "MODIFIED a@"+rvString(s), st.next().short(t))
	assert.Equal(t, "MODIFIED a@"+rvString(s), legacy.next().short(t))
	assert.Equal(t, "MODIFIED b@"+strconv.FormatUint(s.ResourceVersion()-1, 10), legacyAll.next().short(t))

	r := c.get("/api/v1/watch/namespaces/default/pods/a?fieldSelector=metadata.name%3Db")
	require.Equal(t, 400, r.code)
	assert.Equal(t, "fieldSelector metadata.name doesn't match requested name", r.status(t).Message)
}

// TestCh01_BookmarksHTTP checks W16, T15 and H-6 over HTTP: with allowWatchBookmarks, BOOKMARKs
// with kind, apiVersion and non-decreasing RVs, one shortly before the timeout; without it,
// none. W18: timeoutSeconds ends the stream cleanly.
func TestCh01_BookmarksHTTP(t *testing.T) {
	for _, allow := range []bool{true, false} {
		t.Run(fmt.Sprint("allow=", allow), func(t *testing.T) {
			t.Parallel()
			s, c := newServer(t, Options{BookmarkPeriod: 100e6})
			st := c.watch(fmt.Sprintf("/api/v1/pods?watch=true&timeoutSeconds=1&allowWatchBookmarks=%v&resourceVersion=%s", allow, rvString(s)))
			mustCreate(t, s, "pods", "default", pod("default", "a", nil))
			events := st.ended()
			var bookmarks []uint64
			sawAdd := false
			for _, line := range events {
				var ev wireEvent
				require.NoError(t, json.Unmarshal([]byte(line), &ev))
				kind, av, _, rv, _ := ev.meta(t)
				if ev.Type == "ADDED" {
					sawAdd = true
					continue
				}
				require.Equal(t, "BOOKMARK", ev.Type)
				assert.Equal(t, "Pod", kind)
				assert.Equal(t, "v1", av)
				n, err := strconv.ParseUint(rv, 10, 64)
				require.NoError(t, err)
				bookmarks = append(bookmarks, n)
			}
			assert.True(t, sawAdd)
			if !allow {
				assert.Empty(t, bookmarks, "R4: no bookmark unless allowed")
				return
			}
			assert.GreaterOrEqual(t, len(bookmarks), 3, "about 9 periodic + 1 before the timeout")
			for i := 1; i < len(bookmarks); i++ {
				assert.GreaterOrEqual(t, bookmarks[i], bookmarks[i-1], "W17: never back")
			}
			assert.Equal(t, s.ResourceVersion(), bookmarks[len(bookmarks)-1])
		})
	}
}

// TestCh01_WatchIdleNotClosed checks R3/CG7: an idle watch without timeoutSeconds stays open
// (the default lifetime is 30–60 min, W18) while other traffic flows.
func TestCh01_WatchIdleNotClosed(t *testing.T) {
	s, c := newServer(t, Options{})
	idle := c.watch("/api/v1/namespaces/idle/pods?watch=true&resourceVersion=" + rvString(s))
	busy := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rvString(s))
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	busy.next()
	require.Len(t, s.Watchers(), 2)
	select {
	case line := <-idle.lines:
		t.Fatalf("idle watch got %q", line)
	default:
	}
	assert.Less(t, s.ep.defaultWatchTimeout(), 2*DefaultMinRequestTimeout)
	assert.GreaterOrEqual(t, s.ep.defaultWatchTimeout(), DefaultMinRequestTimeout)
}

// TestCh01_SlowWatcherInProcess checks W19, R12: a watcher that does not read is closed once
// its buffer is full; writers are never blocked; the client gets every queued event, then
// one ERROR.
func TestCh01_SlowWatcherInProcess(t *testing.T) {
	checkNoLeak(t)
	s := New(Options{WatchBufferSize: 5})
	defer s.Close()
	w, err := s.Watch(context.Background(), "pods", "default", api.ListOptions{ResourceVersion: rvString(s)})
	require.NoError(t, err)
	defer w.Stop()
	for i := range 20 { // would block forever if writers waited for the watcher
		mustCreate(t, s, "pods", "default", pod("default", fmt.Sprintf("p%02d", i), nil))
	}
	var got []string
	var last watch.Event
	for ev := range w.ResultChan() {
		last = ev
		if ev.Type == watch.Added {
			got = append(got, ev.Object.(*api.Pod).Name)
		}
	}
	require.Equal(t, watch.Error, last.Type)
	st := last.Object.(*api.Status)
	assert.Equal(t, api.StatusReasonInternalError, st.Reason)
	assert.Contains(t, st.Message, "did not keep up")
	// One event may be held by the consumer, blocked on the unread channel, beside the 5
	// buffered ones; everything delivered is a gapless prefix.
	require.GreaterOrEqual(t, len(got), 5)
	for i, n := range got {
		assert.Equal(t, fmt.Sprintf("p%02d", i), n)
	}
	assert.Empty(t, s.Watchers())
}

// TestCh01_WatchNamespacedAndAllNamespaces checks W15.
func TestCh01_WatchNamespacedAndAllNamespaces(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "other"}})
	rv := rvString(s)
	one := c.watch("/api/v1/namespaces/other/pods?watch=true&resourceVersion=" + rv)
	all := c.watch("/api/v1/pods?watch=true&resourceVersion=" + rv)
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "other", pod("other", "b", nil))
	assert.Equal(t, []string{"ADDED a@" + strconv.FormatUint(s.ResourceVersion()-1, 10), "ADDED b@" + rvString(s)}, all.nextN(2))
	assert.Equal(t, "ADDED b@"+rvString(s), one.next().short(t))
	assert.True(t, strings.HasPrefix(one.resp.Header.Get("Content-Type"), "application/json"))
}

// TestCh01_ListGoAPIUntypedBuiltin checks that the Go API lists a built-in kind that has no Go
// view (deployments, events) as an UnstructuredList, as it returns its items, so an in-process
// informer of such a kind syncs.
func TestCh01_ListGoAPIUntypedBuiltin(t *testing.T) {
	s, _ := newServer(t, Options{})
	for _, resource := range []string{"deployments.apps", "events"} {
		obj, err := s.ListerWatcher(resource, "").List(api.ListOptions{})
		require.NoError(t, err, resource)
		assert.IsType(t, &api.UnstructuredList{}, obj, resource)
	}
}
