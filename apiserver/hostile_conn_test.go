package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// Connections that must not stall: a small body that never arrives in full, a watcher
// that never reads, a watch stuck past its timeoutSeconds. Each case shows the server
// answers, closes the connection and frees what the connection held within a bound.

// dialTiny is dialRaw with tinyBufferDialer: a client whose socket buffers fill after a few
// KiB, so a watch it does not read stalls the server quickly.
func dialTiny(t *testing.T, base string) *rawConn {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	conn, err := tinyBufferDialer().Dial("tcp", u.Host)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	// A generous bound, so a broken server fails the test instead of hanging it.
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	return &rawConn{Conn: conn, br: bufio.NewReader(conn)}
}

// openRawWatch sends a watch request and reads the response head only: from then on the
// client reads nothing.
func openRawWatch(t *testing.T, rc *rawConn, path string) {
	t.Helper()
	_, err := fmt.Fprintf(rc, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, rc.RemoteAddr())
	require.NoError(t, err)
	resp, err := http.ReadResponse(rc.br, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// readAnswer reads one response and whether it announced the end of the connection
// (Connection: close, which net/http's parser takes out of the header into Close).
func (rc *rawConn) readAnswer(t *testing.T) (response, bool) {
	t.Helper()
	resp, err := http.ReadResponse(rc.br, nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{code: resp.StatusCode, header: resp.Header, body: data}, resp.Close
}

// requireServerClosed reads what is left on rc and checks the server, not our own
// deadline, ended the connection. It returns what was read.
func requireServerClosed(t *testing.T, rc *rawConn) []byte {
	t.Helper()
	data, err := io.ReadAll(rc.br)
	if err != nil {
		// A reset is a close too; only our own deadline means the server kept it open.
		require.False(t, errors.Is(err, os.ErrDeadlineExceeded), "the server never closed the connection")
	}
	return data
}

// watchServing counts the goroutines serving an HTTP watch. The dump grows until it holds
// every goroutine, so it stays right with thousands of them.
func watchServing() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return bytes.Count(buf, []byte("apiserver.(*endpoints).serveWatchHTTP("))
}

// paddedPod is a pod carrying about size bytes, so a few of them fill socket buffers.
func paddedPod(name string, size int) *api.Pod {
	p := pod("default", name, nil)
	p.Annotations = map[string]string{"pad": strings.Repeat("x", size)}
	return p
}

// overflowWatchers writes padded pods until no watcher is registered any more: each one
// has stalled on a client that does not read and been closed for overflow. It returns the
// names written.
func overflowWatchers(t *testing.T, s *Server) []string {
	t.Helper()
	const maxWrites = 4000 // turns a writer that waits for the watchers into a failure
	var names []string
	for len(s.Watchers()) > 0 {
		require.Less(t, len(names), maxWrites, "the stalled watchers were never closed")
		name := fmt.Sprintf("pad%05d", len(names))
		mustCreate(t, s, "pods", "default", paddedPod(name, 16<<10))
		names = append(names, name)
	}
	return names
}

// watchStatus opens a watch, closes it at once and returns the status code.
func watchStatus(t *testing.T, c *client, path string) int {
	t.Helper()
	resp, err := c.hc.Get(c.base + path)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// TestCh01_HostileSmallBodyEarlyAnswer: a request whose Content-Length promises a small body
// (well under the 256 KiB net/http would drain before answering) and sends only part of it.
// Whatever the server answers without reading the body reaches the client at once, marked
// Connection: close; a body that stops arriving is 408 after BodyReadTimeout; either way the
// server closes the connection within BodyReadTimeout of the request.
func TestCh01_HostileSmallBodyEarlyAnswer(t *testing.T) {
	const timeout = 500 * time.Millisecond
	const cms = "/api/v1/namespaces/default/configmaps"
	tests := []struct {
		name   string
		opts   Options
		method string
		path   string
		ctype  string
		code   int
		reason api.StatusReason
		early  bool // answered without waiting for the body
	}{
		{"401 before authentication", Options{BearerToken: "secret"}, "POST", cms, "application/json", 401, api.StatusReasonUnauthorized, true},
		{"405 method not allowed", Options{}, "POST", "/api/v1/pods", "application/json", 405, api.StatusReasonMethodNotAllowed, true},
		{"413 declared over the cap", Options{MaxBodyBytes: 64}, "POST", cms, "application/json", 413, api.StatusReasonRequestEntityTooLarge, true},
		{"415 not JSON", Options{}, "POST", cms, "application/yaml", 415, api.StatusReasonUnsupportedMediaType, true},
		{"408 body too slow", Options{}, "POST", cms, "application/json", 408, api.StatusReasonTimeout, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.BodyReadTimeout = timeout
			_, c := newServer(t, tt.opts)
			rc := dialRaw(t, c.base)
			require.NoError(t, rc.SetDeadline(time.Now().Add(10*time.Second)))
			start := time.Now()
			_, err := fmt.Fprintf(rc, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 100\r\n\r\n{\"metadata\":",
				tt.method, tt.path, rc.RemoteAddr(), tt.ctype)
			require.NoError(t, err)

			r, closing := rc.readAnswer(t)
			answered := time.Since(start)
			assertStatus(t, r, tt.code, tt.reason, "", false)
			assert.True(t, closing, "Connection: close, the rest of the body is not awaited")
			if tt.early {
				assert.Less(t, answered, timeout, "answered without waiting for the body")
			} else {
				assert.GreaterOrEqual(t, answered, timeout, "the server waited for the body")
			}

			assert.Empty(t, requireServerClosed(t, rc))
			assert.Less(t, time.Since(start), timeout+3*time.Second, "closed within BodyReadTimeout")
		})
	}

	// A body that arrives in full keeps the connection for the next request.
	t.Run("complete body keeps the connection", func(t *testing.T) {
		_, c := newServer(t, Options{BodyReadTimeout: timeout})
		rc := dialRaw(t, c.base)
		body := `{"metadata":{"name":"ok"}}`
		_, err := fmt.Fprintf(rc, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", cms, rc.RemoteAddr(), len(body), body)
		require.NoError(t, err)
		r, closing := rc.readAnswer(t)
		require.Equal(t, http.StatusCreated, r.code, "body: %s", r.body)
		assert.False(t, closing)
		_, err = fmt.Fprintf(rc, "GET %s/ok HTTP/1.1\r\nHost: %s\r\n\r\n", cms, rc.RemoteAddr())
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, rc.readResponse(t).code)
	})
}

// TestCh01_HostileWatchNonReader: a watcher that never reads stalls its stream, overflows
// and is unregistered; the server then cannot even write the ERROR event. Within
// WatchWriteTimeout its goroutine is gone and the connection closed.
func TestCh01_HostileWatchNonReader(t *testing.T) {
	const writeTimeout = 500 * time.Millisecond
	s, c := newServer(t, Options{WatchBufferSize: 8, WatchWriteTimeout: writeTimeout})
	rc := dialTiny(t, c.base)
	openRawWatch(t, rc, fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", s.ResourceVersion()))
	require.Len(t, s.Watchers(), 1)
	require.Equal(t, 1, watchServing())

	overflowWatchers(t, s)
	overflowed := time.Now()
	require.Eventually(t, func() bool { return watchServing() == 0 }, writeTimeout+5*time.Second, 10*time.Millisecond,
		"the stalled watch still has its goroutine")
	assert.Less(t, time.Since(overflowed), writeTimeout+2*time.Second, "released within WatchWriteTimeout")
	requireServerClosed(t, rc)
}

// TestCh01_HostileStalledWatchesKeepTheirPlaces: a stalled watch counts against
// MaxOpenWatches until its connection is gone, not merely until it is unregistered, so
// watchers that never read cannot open more streams than the cap. Once the write timeout
// closes them, their places are free.
func TestCh01_HostileStalledWatchesKeepTheirPlaces(t *testing.T) {
	const writeTimeout = 2 * time.Second
	s, c := newServer(t, Options{MaxOpenWatches: 2, WatchBufferSize: 8, WatchWriteTimeout: writeTimeout})
	watchPath := func() string {
		return fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", s.ResourceVersion())
	}
	conns := []*rawConn{dialTiny(t, c.base), dialTiny(t, c.base)}
	for _, rc := range conns {
		openRawWatch(t, rc, watchPath())
	}
	require.Equal(t, http.StatusTooManyRequests, watchStatus(t, c, watchPath()))

	overflowWatchers(t, s)
	require.Empty(t, s.Watchers(), "both were closed for overflow")
	assert.Equal(t, http.StatusTooManyRequests, watchStatus(t, c, watchPath()),
		"stalled watches keep their places while their connections live")

	require.Eventually(t, func() bool { return watchServing() == 0 }, writeTimeout+5*time.Second, 10*time.Millisecond)
	for _, rc := range conns {
		requireServerClosed(t, rc)
	}
	for range 2 {
		st := c.watch(watchPath())
		assert.Equal(t, http.StatusOK, st.resp.StatusCode, "the places are free again")
	}
}

// TestCh01_HostileStalledWatchEndsAtTimeout: a watch whose client stops reading, with room
// in its buffer (no overflow), ends at its timeoutSeconds, not a write timeout later: the
// write stuck at that moment is cut and the connection closed.
func TestCh01_HostileStalledWatchEndsAtTimeout(t *testing.T) {
	s, c := newServer(t, Options{WatchBufferSize: 100_000}) // the default write timeout, a minute
	rc := dialTiny(t, c.base)
	// 10 s: the writes below took up to 2.5 s under -race on a loaded machine, and more than
	// 3 s once, and the watch must still be open when they are done; 10 s is still far from
	// the write timeout's minute.
	openRawWatch(t, rc, fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=10&resourceVersion=%d", s.ResourceVersion()))
	opened := time.Now()
	const size = 16 << 10
	n := stallBytes/size + 1
	for i := range n {
		mustCreate(t, s, "pods", "default", paddedPod(fmt.Sprintf("pad%05d", i), size))
	}
	require.Len(t, s.Watchers(), 1, "no overflow: the watch is merely stuck")

	require.Eventually(t, func() bool { return watchServing() == 0 }, 30*time.Second, 10*time.Millisecond,
		"the stuck watch outlived its timeoutSeconds")
	assert.Less(t, time.Since(opened), 30*time.Second, "ended at timeoutSeconds, long before the write timeout")
	data := requireServerClosed(t, rc)
	assert.Less(t, bytes.Count(data, []byte(`"type":"ADDED"`)), n, "the stream was cut, not delivered in full")
	assert.Empty(t, s.Watchers())
}

// TestCh01_WatchNegativeTimeout: as on the real server, only timeoutSeconds=0 (or none) gets
// the default lifetime; a negative one has already expired, so the watch answers 200 and
// ends at once with no events, over HTTP and in process.
func TestCh01_WatchNegativeTimeout(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))

	for _, q := range []string{
		"watch=1&timeoutSeconds=-1",
		"watch=1&timeoutSeconds=-30&allowWatchBookmarks=true&resourceVersion=" + rvString(s),
		"watch=1&timeoutSeconds=-9223372036854775808", // times a second, this would wrap to 0
	} {
		st := c.watch("/api/v1/namespaces/default/pods?" + q)
		assert.Equal(t, http.StatusOK, st.resp.StatusCode, q)
		assert.Empty(t, st.ended(), q)
	}
	assert.Empty(t, s.Watchers())

	neg := int64(-1)
	w, err := s.Watch(context.Background(), "pods", "default", api.ListOptions{TimeoutSeconds: &neg})
	require.NoError(t, err)
	defer w.Stop()
	var got []string
	timeout := time.After(10 * time.Second)
	for open := true; open; {
		select {
		case ev, ok := <-w.ResultChan():
			if ok {
				got = append(got, string(ev.Type))
			}
			open = ok
		case <-timeout:
			t.Fatal("the in-process watch did not end")
		}
	}
	assert.Empty(t, got)

	// Zero is not "already expired": it is the default lifetime.
	st := c.watch("/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=0&resourceVersion=" + rvString(s))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	assert.Equal(t, "ADDED b@"+rvString(s), st.next().short(t))
}

// TestCh01_WatchTooOldMessage: the 410 of a watch from a compacted RV reads
// "too old resource version: N (M)" where M, as in the real watch cache, is the oldest RV a
// watch may still start from (one below the oldest retained event).
func TestCh01_WatchTooOldMessage(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, "pods", "default", pod("default", n, nil))
	}
	s.Compact(s.ResourceVersion() - 1)
	oldest := s.OldestResourceVersion()

	st := c.watch(fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", oldest))
	assert.Equal(t, fmt.Sprintf("ADDED c@%d", oldest+1), st.next().short(t), "M itself is served")

	msgs := map[string]string{}
	st = c.watch(fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", oldest-1))
	ev := st.next()
	require.Equal(t, "ERROR", ev.Type)
	var status api.Status
	require.NoError(t, json.Unmarshal(ev.Object, &status))
	msgs["http"] = status.Message
	w, err := s.Watch(context.Background(), "pods", "default", api.ListOptions{ResourceVersion: fmt.Sprint(oldest - 1)})
	require.NoError(t, err)
	defer w.Stop()
	msgs["in process"] = api.FromObject((<-w.ResultChan()).Object).Error()

	want := fmt.Sprintf("too old resource version: %d (%d)", oldest-1, oldest)
	if diff := cmp.Diff(map[string]string{"http": want, "in process": want}, msgs); diff != "" {
		t.Errorf("410 messages (-want +got):\n%s", diff)
	}
}

// The soak of make abuse. By default it is a small round that make test runs too; make abuse
// runs three rounds of 2,000 of each kind of connection.
var (
	abuseN      = flag.Int("abuse.n", 200, "TestCh01_Abuse: non-reading watches per round, which is also the watch cap")
	abuseBodies = flag.Int("abuse.bodies", 200, "TestCh01_Abuse: slow-body connections per round")
	abuseRounds = flag.Int("abuse.rounds", 1, "TestCh01_Abuse: rounds")
)

// slowBodyResult is what one slow-body connection saw.
type slowBodyResult struct {
	code   int
	closed time.Duration // from the request to the server's close
	err    error
}

// slowBody sends a request that promises a 1,000-byte body and sends 12 bytes, reads the
// answer and waits for the server to close the connection. The kind (i%3) picks the answer:
// 408 once BodyReadTimeout passes, or an early 405 or 415.
func slowBody(addr string, i int, bound time.Duration) slowBodyResult {
	method, path, ctype := "POST", "/api/v1/namespaces/default/configmaps", "application/json"
	switch i % 3 {
	case 1:
		path = "/api/v1/pods"
	case 2:
		ctype = "application/yaml"
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return slowBodyResult{err: err}
	}
	defer conn.Close()
	start := time.Now()
	if err := conn.SetDeadline(start.Add(bound)); err != nil {
		return slowBodyResult{err: err}
	}
	if _, err := fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 1000\r\n\r\n{\"metadata\":",
		method, path, addr, ctype); err != nil {
		return slowBodyResult{err: err}
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return slowBodyResult{err: fmt.Errorf("no answer: %w", err)}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := io.Copy(io.Discard, br); errors.Is(err, os.ErrDeadlineExceeded) {
		return slowBodyResult{code: resp.StatusCode, err: errors.New("the server kept the connection open")}
	}
	return slowBodyResult{code: resp.StatusCode, closed: time.Since(start)}
}

// heapInuse is the heap in use after a full collection (two, so pooled buffers are gone).
func heapInuse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestCh01_Abuse is the soak: per round, abuse.n watches that never read (the watch cap is
// abuse.n) stall, overflow and are closed, while abuse.bodies connections send a small body
// in part. Stalled watches keep their places until their connections are gone, so extra
// watches meanwhile get 429; then everything is released, and goroutines and heap return
// to their baseline. It logs the figures; make abuse runs it at size.
func TestCh01_Abuse(t *testing.T) {
	n, bodies, rounds := *abuseN, *abuseBodies, *abuseRounds
	probes := max(1, min(n/10, 100))
	limit, err := raiseFileLimit()
	require.NoError(t, err)
	// Both ends of every connection are in this process.
	need := uint64(2*(n+bodies+probes) + 512)
	require.GreaterOrEqual(t, limit, need, "the open-file limit is too low for -abuse.n=%d -abuse.bodies=%d: raise ulimit -n", n, bodies)
	// Long enough for the probes to arrive while the first stalled write still waits.
	writeTimeout := 3*time.Second + time.Duration(n)*2*time.Millisecond
	const bodyTimeout = time.Second
	const padSize = 8 << 10

	checkNoLeak(t)
	s := New(Options{MaxOpenWatches: n, WatchBufferSize: 8, HistorySize: 64, WatchWriteTimeout: writeTimeout, BodyReadTimeout: bodyTimeout})
	base, err := s.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(s.Close)
	u, err := url.Parse(base)
	require.NoError(t, err)
	openWatches := func() int {
		return s.store.OpenWatches()
	}

	baseG, baseHeap := runtime.NumGoroutine(), heapInuse()
	var peakG, peakWatches int
	var peakHeap uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			peakG = max(peakG, runtime.NumGoroutine())
			peakWatches = max(peakWatches, openWatches())
			if i%5 == 0 { // ReadMemStats stops the world: not every tick
				runtime.ReadMemStats(&ms)
				peakHeap = max(peakHeap, ms.HeapInuse)
			}
		}
	}()
	hc := &http.Client{Transport: &http.Transport{}}
	began := time.Now()
	refused := 0
	for round := range rounds {
		roundStart := time.Now()
		results := make(chan slowBodyResult, bodies)
		var bodiesDone sync.WaitGroup
		for i := range bodies {
			bodiesDone.Add(1)
			go func() {
				defer bodiesDone.Done()
				results <- slowBody(u.Host, i, bodyTimeout+30*time.Second)
			}()
		}

		// n watches that read their response head and nothing more, opened by a few workers.
		watchPath := func() string {
			return fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", s.ResourceVersion())
		}
		conns := make([]net.Conn, n)
		codes := make([]int, n)
		errs := make(chan error, n)
		var opened sync.WaitGroup
		const workers = 64
		for w := range workers {
			opened.Add(1)
			go func() {
				defer opened.Done()
				for i := w; i < n; i += workers {
					conn, err := tinyBufferDialer().Dial("tcp", u.Host)
					if err != nil {
						errs <- err
						continue
					}
					conns[i] = conn
					_ = conn.SetDeadline(time.Now().Add(writeTimeout + time.Minute))
					if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", watchPath(), u.Host); err != nil {
						errs <- err
						continue
					}
					resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 512), nil)
					if err != nil {
						errs <- err
						continue
					}
					codes[i] = resp.StatusCode
				}
			}()
		}
		opened.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		for i, code := range codes {
			require.Equal(t, http.StatusOK, code, "watch %d of round %d: every place was free", i, round)
		}
		openedIn := time.Since(roundStart)

		// Overflow them all; then they hold their places while their writes wait.
		overflowAt := time.Now()
		pads := 0
		for len(s.Watchers()) > 0 {
			require.Less(t, pads, 4000, "the stalled watchers were never closed")
			mustCreate(t, s, "pods", "default", paddedPod(fmt.Sprintf("r%d-%05d", round, pads), padSize))
			pads++
		}
		stalledIn := time.Since(overflowAt)
		got429 := 0
		for range probes {
			resp, err := hc.Get(base + watchPath())
			require.NoError(t, err)
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests {
				got429++
			}
		}
		hc.CloseIdleConnections()
		refused += got429
		assert.Equal(t, probes, got429, "round %d: stalled watches still hold their places, so the cap refuses more", round)

		// The write timeout closes them; every place comes back.
		require.Eventually(t, func() bool { return openWatches() == 0 }, writeTimeout+time.Minute, 10*time.Millisecond)
		drainedIn := time.Since(overflowAt)
		var closedByServer sync.WaitGroup
		kept := make(chan int, n)
		for w := range workers {
			closedByServer.Add(1)
			go func() {
				defer closedByServer.Done()
				for i := w; i < n; i += workers {
					if _, err := io.Copy(io.Discard, conns[i]); errors.Is(err, os.ErrDeadlineExceeded) {
						kept <- i
					}
					conns[i].Close()
				}
			}()
		}
		closedByServer.Wait()
		close(kept)
		for i := range kept {
			t.Errorf("round %d: watch %d: the server never closed the connection", round, i)
		}

		bodiesDone.Wait()
		close(results)
		byCode := map[int]int{}
		var slowest time.Duration
		for r := range results {
			require.NoError(t, r.err)
			byCode[r.code]++
			slowest = max(slowest, r.closed)
		}
		if diff := cmp.Diff(map[int]int{408: (bodies + 2) / 3, 405: (bodies + 1) / 3, 415: bodies / 3}, byCode); diff != "" {
			t.Errorf("round %d: slow-body answers (-want +got):\n%s", round, diff)
		}
		assert.Less(t, slowest, bodyTimeout+10*time.Second, "round %d: slow bodies closed within BodyReadTimeout", round)
		t.Logf("round %d: %d watches opened in %v, stalled and closed for overflow after %d pods of %d KiB (%v); %d/%d further watches refused with 429; every place back %v after the overflow (WatchWriteTimeout %v); %d slow bodies answered %v, the last connection closed %v after its request (BodyReadTimeout %v)",
			round, n, openedIn.Round(time.Millisecond), pads, padSize>>10, stalledIn.Round(time.Millisecond), got429, probes,
			drainedIn.Round(time.Millisecond), writeTimeout, bodies, byCode, slowest.Round(time.Millisecond), bodyTimeout)
	}
	close(stop)
	<-sampled
	hc.CloseIdleConnections()

	// net/http's connection goroutines end just after the close: wait for them, bounded.
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= baseG+5 }, 30*time.Second, 10*time.Millisecond,
		"goroutines did not return to the baseline of %d", baseG)
	afterG, afterHeap := runtime.NumGoroutine(), heapInuse()
	t.Logf("%d round(s) of %d non-reading watches (cap %d) and %d slow bodies in %v: goroutines %d → peak %d → %d; heap in use %.1f MiB → peak %.1f MiB → %.1f MiB; open watches peaked at %d; %d watches refused with 429",
		rounds, n, n, bodies, time.Since(began).Round(time.Millisecond), baseG, peakG, afterG,
		float64(baseHeap)/(1<<20), float64(peakHeap)/(1<<20), float64(afterHeap)/(1<<20), peakWatches, refused)
	assert.LessOrEqual(t, peakWatches, n, "the watch cap held")
	assert.Less(t, afterHeap, baseHeap+16<<20, "the heap returned to its baseline")
}
