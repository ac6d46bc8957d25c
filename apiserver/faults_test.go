package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// TestCh01_FaultDropNextEvents checks H-7 "drop selected events for selected watchers": a
// rule for all watchers, one filtered by key and type, and one for a single watcher.
func TestCh01_FaultDropNextEvents(t *testing.T) {
	s, c := newServer(t, Options{})
	rv := rvString(s)
	w1 := c.watch("/api/v1/pods?watch=1&resourceVersion=" + rv)
	w2 := c.watch("/api/v1/pods?watch=1&resourceVersion=" + rv)
	require.Eventually(t, func() bool { return len(s.Watchers()) == 2 }, 5*time.Second, time.Millisecond)
	second := s.Watchers()[1].ID

	s.DropNextEvents(DropRule{Count: 1})                                      // drops "a" for both
	s.DropNextEvents(DropRule{Count: 1, Key: "default/c", Type: watch.Added}) // drops "c" for both
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	mustCreate(t, s, "pods", "default", pod("default", "c", nil))
	s.DropNextEvents(DropRule{Count: 1, WatcherID: second})
	mustCreate(t, s, "pods", "default", pod("default", "d", nil))
	mustCreate(t, s, "pods", "default", pod("default", "e", nil))
	cur := s.ResourceVersion()
	at := func(d uint64) string { return fmt.Sprint(cur - d) }
	assert.Equal(t, []string{"ADDED b@" + at(3), "ADDED d@" + at(1), "ADDED e@" + at(0)}, w1.nextN(3))
	assert.Equal(t, []string{"ADDED b@" + at(3), "ADDED e@" + at(0)}, w2.nextN(2))
	// The history still has every event: a new watch from the start sees all five.
	w3 := c.watch("/api/v1/pods?watch=1&resourceVersion=" + rv)
	assert.Len(t, w3.nextN(5), 5)
}

// TestCh01_FaultCloseAllWatches checks H-7 "reset all watchers": streams end cleanly.
func TestCh01_FaultCloseAllWatches(t *testing.T) {
	s, c := newServer(t, Options{})
	w := c.watch("/api/v1/pods?watch=1&resourceVersion=" + rvString(s))
	require.Eventually(t, func() bool { return len(s.Watchers()) == 1 }, 5*time.Second, time.Millisecond)
	s.CloseAllWatches()
	assert.Empty(t, w.ended())
	assert.Empty(t, s.Watchers())
}

// TestCh01_FaultFailNext checks H-7 "return 429 / 500 / 504 on open or as ERROR events" and
// R9 (Retry-After only on 429 unless asked).
func TestCh01_FaultFailNext(t *testing.T) {
	s, c := newServer(t, Options{})
	s.FailNext(FailRule{Verb: "list", Resource: "pods", Count: 2, Code: 429})
	for range 2 {
		r := c.get("/api/v1/pods")
		require.Equal(t, 429, r.code)
		assert.Equal(t, "1", r.header.Get("Retry-After"))
		assert.Equal(t, api.StatusReasonTooManyRequests, r.status(t).Reason)
	}
	assert.Equal(t, 200, c.get("/api/v1/pods").code, "only the next two")

	s.FailNext(FailRule{Verb: "create", Count: 1, Code: 500})
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"x"}}`)
	require.Equal(t, 500, r.code)
	assert.Empty(t, r.header.Get("Retry-After"))
	assert.Equal(t, api.StatusReasonInternalError, r.status(t).Reason)

	s.FailNext(FailRule{Verb: "watch", Count: 1, Code: 504})
	r = c.get("/api/v1/pods?watch=1")
	require.Equal(t, 504, r.code)
	assert.Equal(t, api.StatusReasonTimeout, r.status(t).Reason)

	s.FailNext(FailRule{Verb: "watch", Count: 1, Code: 500, AsWatchEvent: true})
	w := c.watch("/api/v1/pods?watch=1")
	assert.Equal(t, 200, w.resp.StatusCode)
	assert.Equal(t, "ERROR", w.next().Type)
	assert.Empty(t, w.ended())

	// The Go API sees the same faults.
	s.FailNext(FailRule{Verb: "get", Count: 1, Code: 503})
	_, err := s.Get(context.Background(), "namespaces", "", "default")
	assert.True(t, api.IsServiceUnavailable(err))
	assert.Equal(t, 2+1, s.RequestCounts()[RequestKey{"list", "pods"}])
}

// TestCh01_FaultCloseNextWatches checks H-7 "close immediately": the very short watch of CG7.
func TestCh01_FaultCloseNextWatches(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	s.CloseNextWatches(1)
	assert.Empty(t, c.watch("/api/v1/pods?watch=1").ended())
	assert.Equal(t, "ADDED", c.watch("/api/v1/pods?watch=1").next().Type)
}

// TestCh01_FaultCutMidEvent checks the "close a stream in the middle of a chunk" fault: the
// client reads half an event and then an unexpected EOF.
func TestCh01_FaultCutMidEvent(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	s.CutNextEvent(0)
	resp, err := c.hc.Get(c.base + "/api/v1/pods?watch=1")
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.NotEmpty(t, data)
	var ev wireEvent
	assert.Error(t, json.Unmarshal(bytes.TrimSpace(data), &ev), "half an event: %s", data)
	assert.Equal(t, 200, c.get("/api/v1/pods").code, "the server goes on")
}

// TestCh01_FaultDelayAndBookmarksVirtualTime runs the server in process inside a synctest
// bubble (H-9): delayed events and periodic bookmarks follow virtual time, and writers are
// not slowed by the delay.
func TestCh01_FaultDelayAndBookmarksVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{BookmarkPeriod: time.Minute})
		defer s.Close()
		ctx := context.Background()
		timeout := int64(590) // not a multiple of the period: no tick races the end
		w, err := s.Watch(ctx, "pods", "", api.ListOptions{ResourceVersion: rvString(s), AllowWatchBookmarks: true, TimeoutSeconds: &timeout})
		require.NoError(t, err)
		defer w.Stop()
		s.DelayEvents(10 * time.Second)
		start := time.Now()
		mustCreate(t, s, "pods", "default", pod("default", "a", nil))
		assert.Zero(t, time.Since(start), "the write did not wait")
		ev := <-w.ResultChan()
		assert.Equal(t, watch.Added, ev.Type)
		assert.Equal(t, 10*time.Second, time.Since(start))
		s.DelayEvents(0)

		ev = <-w.ResultChan()
		assert.Equal(t, watch.Bookmark, ev.Type)
		assert.Equal(t, time.Minute, time.Since(start), "first periodic bookmark")
		assert.Equal(t, rvString(s), ev.Object.(*api.Pod).ResourceVersion)
		var n int
		for ev := range w.ResultChan() {
			require.Equal(t, watch.Bookmark, ev.Type)
			n++
		}
		assert.Equal(t, 590*time.Second, time.Since(start), "timeoutSeconds ends the watch")
		assert.Equal(t, 8+1, n, "periodic bookmarks at 120 … 540 s, one 2 s before the timeout")
	})
}

// TestCh01_InProcessListWatch shows the Go API as a ListerWatcher inside a synctest bubble:
// list, then watch from the list's RV (W11), with the request counts.
func TestCh01_InProcessListWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		s := New(Options{Logger: trace.NewPlainLogger(&logs)})
		defer s.Close()
		mustCreate(t, s, "pods", "default", pod("default", "a", nil))
		lw := s.ListerWatcher("pods", "default")
		list, err := lw.List(api.ListOptions{})
		require.NoError(t, err)
		pl := list.(*api.PodList)
		require.Len(t, pl.Items, 1)
		w, err := lw.Watch(api.ListOptions{ResourceVersion: pl.ResourceVersion})
		require.NoError(t, err)
		mustCreate(t, s, "pods", "default", pod("default", "b", nil))
		ev := <-w.ResultChan()
		assert.Equal(t, "b", ev.Object.(*api.Pod).Name)
		w.Stop()
		for range w.ResultChan() {
		}
		assert.Equal(t, map[RequestKey]int{{"create", "pods"}: 2, {"list", "pods"}: 1, {"watch", "pods"}: 1}, s.RequestCounts())
		synctest.Wait()
		assert.Contains(t, logs.String(), `msg="apiserver watch-send" component=apiserver op=watch-send key=default/b rv=5 type=ADDED watcher=1`)
		assert.Contains(t, logs.String(), `op=watch-close`)
	})
}

// TestCh01_CloseEndsEverything checks that Close ends HTTP and in-process watches and that
// requests afterwards get 503.
func TestCh01_CloseEndsEverything(t *testing.T) {
	checkNoLeak(t)
	s := New(Options{})
	base, err := s.Start("")
	require.NoError(t, err)
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	resp, err := hc.Get(base + "/api/v1/pods?watch=1")
	require.NoError(t, err)
	w, err := s.Watch(context.Background(), "pods", "", api.ListOptions{})
	require.NoError(t, err)
	s.Close()
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	for range w.ResultChan() {
	}
	_, err = s.Get(context.Background(), "pods", "default", "a")
	assert.True(t, api.IsServiceUnavailable(err))
	s.Close() // twice is fine
}
