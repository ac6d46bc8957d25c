package apiserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

func (c *client) faults(t *testing.T, method, body string) FaultState {
	t.Helper()
	r := c.do(method, "/debug/faults", body)
	require.Equal(t, 200, r.code, "%s %s: %s", method, body, r.body)
	var st FaultState
	r.decode(t, &st)
	return st
}

// TestCh01_DebugFaultsOff checks that /debug/faults is not served unless enabled.
func TestCh01_DebugFaultsOff(t *testing.T) {
	_, c := newServer(t, Options{})
	assert.Equal(t, 404, c.get("/debug/faults").code)
	assert.Equal(t, 404, c.do("POST", "/debug/faults", `{"action":"compact"}`).code)
}

// TestCh01_DebugFaultsState checks GET: revisions, watchers, request counts and an empty
// fault list, all as JSON.
func TestCh01_DebugFaultsState(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	c.get("/api/v1/pods")
	c.watch("/api/v1/namespaces/default/pods?watch=1&labelSelector=app%3Dweb&resourceVersion=" + rvString(s))
	require.Eventually(t, func() bool { return len(s.Watchers()) == 1 }, 5*time.Second, time.Millisecond)

	st := c.faults(t, "GET", "")
	assert.Equal(t, s.ResourceVersion(), st.ResourceVersion)
	assert.Equal(t, uint64(0), st.OldestResourceVersion)
	require.Len(t, st.Watchers, 1)
	assert.Equal(t, WatcherInfo{ID: st.Watchers[0].ID, Resource: "pods", Namespace: "default", LabelSelector: "app=web", StartRV: s.ResourceVersion()}, st.Watchers[0])
	assert.Equal(t, []RequestCount{{Verb: "create", Resource: "pods", Count: 1}, {Verb: "list", Resource: "pods", Count: 1}, {Verb: "watch", Resource: "pods", Count: 1}}, st.RequestCounts)
	assert.Empty(t, st.Drops)
	assert.Empty(t, st.Fails)
	assert.Equal(t, "0s", st.EventDelay)

	r := c.get("/debug/faults")
	assert.Contains(t, string(r.body), `"watchers": [`, "indented for people reading curl output")
	assert.Equal(t, 405, c.do("PUT", "/debug/faults", "{}").code)
}

// TestCh01_DebugFaultsActions checks every POST action of /debug/faults against the fault
// API it drives (H-7), and DELETE as "clear".
func TestCh01_DebugFaultsActions(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})

	// drop-next-events: the watcher misses the next event, the history keeps it.
	w := c.watch("/api/v1/namespaces/default/pods?watch=1&resourceVersion=" + rvString(s))
	require.Eventually(t, func() bool { return len(s.Watchers()) == 1 }, 5*time.Second, time.Millisecond)
	st := c.faults(t, "POST", `{"action":"drop-next-events","key":"default/a"}`)
	assert.Equal(t, []DropRule{{Count: 1, Key: "default/a"}}, st.Drops)
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	assert.Equal(t, []string{fmt.Sprintf("ADDED b@%d", s.ResourceVersion())}, w.nextN(1))
	assert.Empty(t, c.faults(t, "GET", "").Drops, "the rule was used up")

	// close-all-watches ends the stream cleanly.
	c.faults(t, "POST", `{"action":"close-all-watches"}`)
	assert.Empty(t, w.ended())

	// fail-next: the next two pod lists get 500.
	st = c.faults(t, "POST", `{"action":"fail-next","verb":"list","resource":"pods","count":2}`)
	assert.Equal(t, []FailRule{{Verb: "list", Resource: "pods", Count: 2, Code: 500}}, st.Fails)
	for range 2 {
		assert.Equal(t, 500, c.get("/api/v1/pods").code)
	}
	assert.Equal(t, 200, c.get("/api/v1/pods").code)

	// fail-next as a watch ERROR event.
	c.faults(t, "POST", `{"action":"fail-next","verb":"watch","code":410,"asWatchEvent":true}`)
	ev := c.watch("/api/v1/pods?watch=1").next()
	assert.Equal(t, "ERROR", ev.Type)

	// compact with and without a resourceVersion.
	st = c.faults(t, "POST", `{"action":"compact","resourceVersion":4}`)
	assert.Equal(t, uint64(4), st.OldestResourceVersion)
	st = c.faults(t, "POST", `{"action":"compact"}`)
	assert.Equal(t, s.ResourceVersion(), st.OldestResourceVersion)

	// delay-events, close-next-watches and cut-next-event show up as pending, and clear (or
	// DELETE) removes them.
	st = c.faults(t, "POST", `{"action":"delay-events","delay":"1.5s"}`)
	assert.Equal(t, "1.5s", st.EventDelay)
	st = c.faults(t, "POST", `{"action":"close-next-watches","count":2}`)
	assert.Equal(t, 2, st.CloseNextWatches)
	st = c.faults(t, "POST", `{"action":"cut-next-event","watcherID":7}`)
	assert.Equal(t, []CutRule{{WatcherID: 7, Count: 1}}, st.CutNextEvents)
	st = c.faults(t, "POST", `{"action":"clear"}`)
	assert.Equal(t, "0s", st.EventDelay)
	assert.Zero(t, st.CloseNextWatches)
	assert.Empty(t, st.CutNextEvents)
	c.faults(t, "POST", `{"action":"delay-events","delay":"1s"}`)
	assert.Equal(t, "0s", c.faults(t, "DELETE", "").EventDelay)

	// close-next-watches: the next watch ends at once with no event.
	c.faults(t, "POST", `{"action":"close-next-watches"}`)
	assert.Empty(t, c.watch("/api/v1/pods?watch=1&resourceVersion="+rvString(s)).ended())

	// reset-request-counts.
	st = c.faults(t, "POST", `{"action":"reset-request-counts"}`)
	assert.Empty(t, st.RequestCounts)
}

// TestCh01_DebugFaultsBadInput checks that bad bodies are 400 Statuses saying what is wrong,
// and change nothing.
func TestCh01_DebugFaultsBadInput(t *testing.T) {
	_, c := newServer(t, Options{DebugFaults: true})
	for _, tc := range []struct{ body, want string }{
		{``, "the body must be one JSON object"},
		{`[1]`, "the body must be one JSON object"},
		{`{"action":"compact","bogus":1}`, `unknown field "bogus"`},
		{`{"action":"explode"}`, `unknown action "explode": expected one of drop-next-events, fail-next`},
		{`{"action":"drop-next-events","count":0}`, "drop-next-events: count must be at least 1, got 0"},
		{`{"action":"drop-next-events","type":"BOOKMARK"}`, `type must be ADDED, MODIFIED, DELETED or empty, got "BOOKMARK"`},
		{`{"action":"fail-next","verb":"explode"}`, `verb must be one of get, list`},
		{`{"action":"fail-next","code":200}`, "code must be an HTTP error code (400–599), got 200"},
		{`{"action":"fail-next","resource":"widgets"}`, `resource "widgets" is not served`},
		{`{"action":"fail-next","retryAfterSeconds":-1}`, "retryAfterSeconds must not be negative"},
		{`{"action":"delay-events","delay":"soon"}`, `delay must be a non-negative duration such as "2s" or "0s", got "soon"`},
		{`{"action":"delay-events","delay":"-1s"}`, "delay must be a non-negative duration"},
		{`{"action":"close-next-watches","count":-3}`, "count must be at least 1"},
	} {
		r := c.do("POST", "/debug/faults", tc.body)
		require.Equal(t, 400, r.code, "%s: %s", tc.body, r.body)
		st := r.status(t)
		assert.Equal(t, api.StatusReasonBadRequest, st.Reason)
		assert.Contains(t, st.Message, tc.want, tc.body)
	}
	st := c.faults(t, "GET", "")
	assert.Empty(t, st.Fails)
	assert.Empty(t, st.Drops)
}
