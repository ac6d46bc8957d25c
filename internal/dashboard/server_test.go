package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// fakeActions records calls and can be told to fail.
type fakeActions struct {
	mu    sync.Mutex
	calls []string
	drops []int
	slow  bool
	pods  int
	fail  error
}

func (f *fakeActions) record(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, name)
	return f.fail
}

func (f *fakeActions) DropNextEvents(n int) error {
	f.mu.Lock()
	f.drops = append(f.drops, n)
	f.mu.Unlock()
	return f.record("drop")
}
func (f *fakeActions) Compact() error      { return f.record("compact") }
func (f *fakeActions) CloseWatches() error { return f.record("close-watches") }
func (f *fakeActions) ToggleSlowHandler() (bool, error) {
	if err := f.record("toggle-slow"); err != nil {
		return false, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slow = !f.slow
	return f.slow, nil
}
func (f *fakeActions) CreatePod() (string, error) {
	if err := f.record("create-pod"); err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pods++
	return "pod-" + string(rune('0'+f.pods)), nil
}
func (f *fakeActions) DeletePod() (string, error) {
	if err := f.record("delete-pod"); err != nil {
		return "", err
	}
	return "pod-1", nil
}

func (f *fakeActions) snapshot() ([]string, []int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...), append([]int(nil), f.drops...)
}

func sampleStats() Stats {
	return Stats{
		ServerRV: "120", ServerObjects: 7, QueueLen: 2, IndexerSize: 7,
		Listeners:      []ListenerStats{{Name: "fast", Pending: 0, Capacity: 16}, {Name: "slow", Pending: 9, Capacity: 32}},
		WorkqueueDepth: 3, Processing: 1, Retries: 4, Reconciles: 50, Relists: 1, Lists: 2,
		Watches: 3, Events: 118, Tombstones: 1,
	}
}

func do(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func decodeJSON[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	var v T
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &v), "body: %s", w.Body.String())
	return v
}

func TestDashboard_Page(t *testing.T) {
	h := New(Options{Title: `lab <b>&</b>`, Actions: &fakeActions{}})
	w := do(t, h, http.MethodGet, "/", nil)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, "text/html; charset=utf-8", w.Header().Get("Content-Type"))
	assert.Contains(t, w.Header().Get("Content-Security-Policy"), "default-src 'self'")
	body := w.Body.String()
	assert.Contains(t, body, "<h1>lab &lt;b&gt;&amp;&lt;/b&gt;</h1>", "the title is escaped")
	assert.Contains(t, body, `data-actions="true"`)
	assert.NotContains(t, body, "{{", "every placeholder is filled")
	for _, id := range []string{"box-apiserver", "box-reflector", "box-fifo", "box-indexer",
		"box-processor", "box-workqueue", "box-workers", "c-serverRV", "c-queueLen",
		"c-indexerSize", "c-workqueueDepth", "c-processing", "c-retries", "c-relists",
		`data-action="drop"`, `data-action="compact"`, `data-action="close-watches"`,
		`data-action="toggle-slow"`, `data-action="create-pod"`, `data-action="delete-pod"`,
		`id="log"`, "new EventSource('events')", `id="controllers-panel"`, `id="controller-rows"`} {
		assert.Contains(t, body, id)
	}
	// No external assets: nothing is loaded from another origin.
	for _, bad := range []string{"<script src", `rel="stylesheet"`, "@import", "src=\"http", "href=\"http", "url(http"} {
		assert.NotContains(t, body, bad)
	}
	assert.NotContains(t, strings.ReplaceAll(body, "http://www.w3.org/2000/svg", ""), "http://")
	assert.NotContains(t, body, "https://")

	w = do(t, New(Options{}), http.MethodGet, "/", nil)
	assert.Contains(t, w.Body.String(), `data-actions="false"`)
	assert.Contains(t, w.Body.String(), "<h1>informer-lab</h1>")

	w = do(t, h, http.MethodHead, "/", nil)
	assert.Equal(t, http.StatusOK, w.Code)
}

func TestDashboard_Stats(t *testing.T) {
	h := New(Options{Stats: sampleStats})
	w := do(t, h, http.MethodGet, "/stats", nil)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Empty(t, cmp.Diff(sampleStats(), decodeJSON[Stats](t, w)))
	assert.Contains(t, w.Body.String(), `"serverRV":"120"`)
	assert.Contains(t, w.Body.String(), `"listeners":[{"name":"fast","pending":0,"capacity":16}`)

	// Without a Stats func the answer is zeroes, with an empty (not null) listener list.
	w = do(t, New(Options{}), http.MethodGet, "/stats", nil)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), `"listeners":[]`)
}

func TestDashboard_MethodsAndPaths(t *testing.T) {
	h := New(Options{Actions: &fakeActions{}, Hub: NewHub(), Stats: sampleStats})
	tests := []struct {
		method, target string
		code           int
		allow          string
		errContains    string
	}{
		{http.MethodPost, "/", http.StatusMethodNotAllowed, "GET, HEAD", "method POST not allowed"},
		{http.MethodPut, "/events", http.StatusMethodNotAllowed, "GET", "not allowed"},
		{http.MethodDelete, "/stats", http.StatusMethodNotAllowed, "GET, HEAD", "not allowed"},
		{http.MethodGet, "/actions/compact", http.StatusMethodNotAllowed, "POST", "not allowed"},
		{http.MethodPut, "/actions/drop", http.StatusMethodNotAllowed, "POST", "not allowed"},
		{http.MethodGet, "/nope", http.StatusNotFound, "", "no such path"},
		{http.MethodPost, "/actions/nope", http.StatusNotFound, "", `unknown action "nope"`},
		{http.MethodGet, "/actions/nope", http.StatusNotFound, "", "unknown action"},
		{http.MethodPost, "/actions/", http.StatusNotFound, "", "unknown action"},
		{http.MethodPost, "/actions/compact/x", http.StatusNotFound, "", "unknown action"},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			w := do(t, h, tc.method, tc.target, nil)
			require.Equal(t, tc.code, w.Code)
			assert.Equal(t, tc.allow, w.Header().Get("Allow"))
			assert.Contains(t, decodeJSON[errorBody](t, w).Error, tc.errContains)
		})
	}
}

func TestDashboard_Actions(t *testing.T) {
	boolPtr := func(b bool) *bool { return &b }
	tests := []struct {
		name      string
		target    string
		origin    string
		fail      error
		code      int
		want      ActionResult
		wantCalls []string
		wantDrops []int
	}{
		{name: "drop default one", target: "/actions/drop", code: 200,
			want:      ActionResult{Action: "drop", OK: true, Message: "the server drops the next 1 watch event(s)"},
			wantCalls: []string{"drop"}, wantDrops: []int{1}},
		{name: "drop n", target: "/actions/drop?n=5", code: 200,
			want:      ActionResult{Action: "drop", OK: true, Message: "the server drops the next 5 watch event(s)"},
			wantCalls: []string{"drop"}, wantDrops: []int{5}},
		{name: "drop zero", target: "/actions/drop?n=0", code: 400},
		{name: "drop not a number", target: "/actions/drop?n=abc", code: 400},
		{name: "drop too many", target: "/actions/drop?n=1001", code: 400},
		{name: "compact", target: "/actions/compact", code: 200,
			want:      ActionResult{Action: "compact", OK: true, Message: "history compacted: resuming watches get 410 Gone and relist"},
			wantCalls: []string{"compact"}},
		{name: "close watches", target: "/actions/close-watches", code: 200,
			want:      ActionResult{Action: "close-watches", OK: true, Message: "every watch closed: reflectors re-watch from their last RV"},
			wantCalls: []string{"close-watches"}},
		{name: "toggle slow", target: "/actions/toggle-slow", code: 200,
			want:      ActionResult{Action: "toggle-slow", OK: true, Slow: boolPtr(true), Message: "slow handler on: watch its listener's buffer grow"},
			wantCalls: []string{"toggle-slow"}},
		{name: "create pod", target: "/actions/create-pod", code: 200,
			want:      ActionResult{Action: "create-pod", OK: true, Name: "pod-1", Message: "created pod pod-1"},
			wantCalls: []string{"create-pod"}},
		{name: "delete pod", target: "/actions/delete-pod", code: 200,
			want:      ActionResult{Action: "delete-pod", OK: true, Name: "pod-1", Message: "deleted pod pod-1"},
			wantCalls: []string{"delete-pod"}},
		{name: "same origin allowed", target: "/actions/compact", origin: "http://example.com", code: 200,
			want:      ActionResult{Action: "compact", OK: true, Message: "history compacted: resuming watches get 410 Gone and relist"},
			wantCalls: []string{"compact"}},
		{name: "cross origin refused", target: "/actions/compact", origin: "http://evil.test", code: 403},
		{name: "compact fails", target: "/actions/compact", fail: errors.New("server gone"), code: 500,
			want:      ActionResult{Action: "compact", Error: "server gone"},
			wantCalls: []string{"compact"}},
		{name: "create fails", target: "/actions/create-pod", fail: errors.New("quota"), code: 500,
			want:      ActionResult{Action: "create-pod", Error: "quota"},
			wantCalls: []string{"create-pod"}},
		{name: "toggle fails", target: "/actions/toggle-slow", fail: errors.New("no slow handler"), code: 500,
			want:      ActionResult{Action: "toggle-slow", Error: "no slow handler"},
			wantCalls: []string{"toggle-slow"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeActions{fail: tc.fail}
			h := New(Options{Actions: fake})
			hdr := map[string]string{}
			if tc.origin != "" {
				hdr["Origin"] = tc.origin
			}
			w := do(t, h, http.MethodPost, tc.target, hdr) // httptest's Host is example.com
			require.Equal(t, tc.code, w.Code, "body: %s", w.Body.String())
			calls, drops := fake.snapshot()
			assert.Equal(t, tc.wantCalls, calls)
			assert.Equal(t, tc.wantDrops, drops)
			if tc.code == 200 || tc.code == 500 {
				assert.Empty(t, cmp.Diff(tc.want, decodeJSON[ActionResult](t, w)))
			} else {
				assert.NotEmpty(t, decodeJSON[errorBody](t, w).Error)
			}
		})
	}

	t.Run("toggle twice turns it off", func(t *testing.T) {
		h := New(Options{Actions: &fakeActions{}})
		do(t, h, http.MethodPost, "/actions/toggle-slow", nil)
		res := decodeJSON[ActionResult](t, do(t, h, http.MethodPost, "/actions/toggle-slow", nil))
		require.NotNil(t, res.Slow)
		assert.False(t, *res.Slow)
		assert.Contains(t, do(t, h, http.MethodPost, "/actions/toggle-slow", nil).Body.String(), `"slow":true`)
	})
	t.Run("no actions configured", func(t *testing.T) {
		w := do(t, New(Options{}), http.MethodPost, "/actions/compact", nil)
		require.Equal(t, http.StatusNotImplemented, w.Code)
		assert.Contains(t, decodeJSON[errorBody](t, w).Error, "no actions")
	})
}

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct{ name, data string }

// sseReader parses an event stream.
type sseReader struct{ r *bufio.Reader }

func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.data != "" || ev.name != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data += strings.TrimPrefix(line, "data: ")
		}
	}
}

// nextNamed skips to the next event called name ("" for a trace record).
func (s *sseReader) nextNamed(t *testing.T, name string) sseEvent {
	t.Helper()
	for {
		ev, err := s.next()
		require.NoError(t, err)
		if ev.name == name {
			return ev
		}
	}
}

// TestDashboard_SSEOverHTTP streams from a real HTTP server, reads stats and trace records,
// then disconnects and checks that the handler returned and unsubscribed (contract 5).
func TestDashboard_SSEOverHTTP(t *testing.T) {
	hub := NewHub()
	returned := make(chan struct{}, 1)
	h := New(Options{Hub: hub, Stats: sampleStats, StatsInterval: time.Hour})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.URL.Path == "/events" {
			returned <- struct{}{}
		}
	}))
	defer srv.Close()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
	require.NoError(t, err)
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))

	r := &sseReader{r: bufio.NewReader(resp.Body)}
	first := r.nextNamed(t, "stats") // sent at once, not after the first tick
	var st Stats
	require.NoError(t, json.Unmarshal([]byte(first.data), &st))
	assert.Empty(t, cmp.Diff(sampleStats(), st))
	// The handler subscribes before it writes anything, so the subscriber exists by now.
	require.Equal(t, 1, hub.Subscribers())

	l := slog.New(hub)
	keys := []string{"default/a", "default/b", "default/c"}
	for i, k := range keys {
		trace.Hop(l, "reflector", "watch-event", k, string(rune('1'+i)), slog.String(trace.KeyType, "ADDED"))
	}
	for i, k := range keys {
		ev := r.nextNamed(t, "")
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(ev.data), &rec))
		assert.Equal(t, "reflector watch-event", rec["msg"])
		assert.Equal(t, k, rec["key"])
		assert.Equal(t, string(rune('1'+i)), rec["rv"])
		assert.Equal(t, "ADDED", rec["type"])
	}

	cancel() // the browser tab closes
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		require.Fail(t, "the /events handler did not return after the client went away")
	}
	assert.Equal(t, 0, hub.Subscribers())
	_, _ = io.Copy(io.Discard, resp.Body)
}

// pipeWriter is a ResponseWriter whose every Write waits for the test to take it, so the test
// decides when the "browser" reads. Flush is a no-op; it has no write deadline to clear.
type pipeWriter struct {
	header http.Header
	chunks chan string
	done   <-chan struct{}
}

func (p *pipeWriter) Header() http.Header { return p.header }
func (p *pipeWriter) WriteHeader(int)     {}
func (p *pipeWriter) Flush()              {}
func (p *pipeWriter) Write(b []byte) (int, error) {
	select {
	case p.chunks <- string(b):
		return len(b), nil
	case <-p.done:
		return 0, errors.New("client gone")
	}
}

func startEvents(t *testing.T, h http.Handler) (chunks <-chan string, cancel func(), done <-chan struct{}) {
	ctx, cancelCtx := context.WithCancel(t.Context())
	w := &pipeWriter{header: http.Header{}, chunks: make(chan string), done: ctx.Done()}
	req := httptest.NewRequest(http.MethodGet, "/events", nil).WithContext(ctx)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		h.ServeHTTP(w, req)
	}()
	return w.chunks, cancelCtx, finished
}

// TestDashboard_SSEStatsEveryInterval: stats go out at once and then on every tick, with the
// counters of that moment (synctest's fake clock makes the ticks instant).
func TestDashboard_SSEStatsEveryInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		relists := int64(0)
		stats := func() Stats {
			mu.Lock()
			defer mu.Unlock()
			relists++
			return Stats{Relists: relists}
		}
		start := time.Now()
		chunks, cancel, done := startEvents(t, New(Options{Stats: stats}))
		for want := int64(1); want <= 3; want++ {
			chunk := <-chunks
			assert.Contains(t, chunk, "event: stats\ndata: {")
			assert.Contains(t, chunk, `"relists":`+string(rune('0'+want)))
		}
		assert.Equal(t, 2*DefaultStatsInterval, time.Since(start), "one at once, then one per interval")
		cancel()
		<-done
	})
}

// TestDashboard_SSESlowClientDrops: while the client does not read, the logger keeps going,
// the surplus is dropped, and the client is told how many it missed (contract 2).
func TestDashboard_SSESlowClientDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := NewHub()
		chunks, cancel, done := startEvents(t, New(Options{Hub: hub, StatsInterval: time.Second}))
		<-chunks // retry and the first stats: the handler is now subscribed
		require.Equal(t, 1, hub.Subscribers())

		l := slog.New(hub)
		total := DefaultSubscriberBuffer + maxBatch + 100
		for i := range total {
			l.Debug("hop", "i", i) // never waits for the stuck client
		}
		require.Positive(t, hub.Dropped())

		got := 0
		var dropped string
		for dropped == "" {
			chunk := <-chunks
			got += strings.Count(chunk, `data: {"seq"`)
			if i := strings.Index(chunk, "event: dropped\ndata: "); i >= 0 {
				dropped = chunk[i:]
			}
		}
		assert.Equal(t, total, got+int(hub.Dropped()), "every record was either delivered or counted")
		assert.Contains(t, dropped, `{"dropped":`+itoa(hub.Dropped())+`}`)
		cancel()
		<-done
		assert.Equal(t, 0, hub.Subscribers())
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestDashboard_SSEWithoutHub(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		chunks, cancel, done := startEvents(t, New(Options{Stats: sampleStats}))
		first := <-chunks
		assert.True(t, strings.HasPrefix(first, "retry: 1000\n\nevent: stats\ndata: "), first)
		assert.Contains(t, <-chunks, "event: stats")
		cancel()
		<-done
	})
}

// noFlushWriter hides the recorder's Flush, as a careless middleware wrapper would.
type noFlushWriter struct{ rec *httptest.ResponseRecorder }

func (n noFlushWriter) Header() http.Header         { return n.rec.Header() }
func (n noFlushWriter) Write(b []byte) (int, error) { return n.rec.Write(b) }
func (n noFlushWriter) WriteHeader(code int)        { n.rec.WriteHeader(code) }

func TestDashboard_SSEWithoutFlusher(t *testing.T) {
	hub := NewHub()
	rec := httptest.NewRecorder()
	New(Options{Hub: hub}).ServeHTTP(noFlushWriter{rec}, httptest.NewRequest(http.MethodGet, "/events", nil))
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	assert.Contains(t, decodeJSON[errorBody](t, rec).Error, "cannot stream")
	assert.Equal(t, 0, hub.Subscribers())
}

// TestDashboard_CheckHost: with CheckHost, a request whose Host is not an IP literal or
// localhost is refused before any route runs (DNS rebinding), whatever Origin it carries; the
// dashboard's own addresses pass. Without it, mounting the handler elsewhere is unchecked.
func TestDashboard_CheckHost(t *testing.T) {
	tests := []struct {
		host      string
		checkHost bool
		code      int
	}{
		{"evil.example:8080", true, http.StatusForbidden},
		{"localhost.evil.example", true, http.StatusForbidden},
		{"127.0.0.1:8080", true, http.StatusOK},
		{"[::1]:8080", true, http.StatusOK},
		{"localhost:8080", true, http.StatusOK},
		{"evil.example:8080", false, http.StatusOK},
	}
	for _, tc := range tests {
		h := New(Options{CheckHost: tc.checkHost})
		for _, path := range []string{"/", "/stats"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Host = tc.host
			req.Header.Set("Origin", "http://"+tc.host) // a rebound page is same-origin
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tc.code, rec.Code, "GET %s with Host %q (CheckHost %v)", path, tc.host, tc.checkHost)
		}
	}
}
