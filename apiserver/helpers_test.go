package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// ourGoroutines returns the stacks of live goroutines running this package's code, other
// than tests themselves.
func ourGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "informer-lab/apiserver.") {
			continue
		}
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.runExample") ||
			strings.Contains(g, "testing.(*B)") || strings.Contains(g, "ourGoroutines") {
			continue
		}
		found = append(found, g)
	}
	return found
}

// checkNoLeak fails the test when a goroutine of this package outlives it (after the
// server's own cleanup). It polls for a bounded time.
func checkNoLeak(t testing.TB) {
	t.Helper()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			left := ourGoroutines()
			if len(left) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("leaked %d goroutine(s):\n%s", len(left), strings.Join(left, "\n\n"))
				return
			}
			<-tick.C // bounded polling
		}
	})
}

// newServer starts a test server over HTTP and checks for leaks at the end. Cleanups run
// last-in first-out, so the server closes before the leak check.
func newServer(t *testing.T, opts Options) (*Server, *client) {
	t.Helper()
	checkNoLeak(t)
	s := NewTestServer(t, opts)
	c := &client{t: t, base: s.URL(), hc: &http.Client{Transport: &http.Transport{}}}
	t.Cleanup(c.hc.CloseIdleConnections)
	return s, c
}

// client is a tiny raw HTTP client: tests assert on exact bytes, codes and headers.
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
}

type response struct {
	code   int
	header http.Header
	body   []byte
}

func (r response) status(t *testing.T) *api.Status {
	t.Helper()
	var st api.Status
	require.NoError(t, json.Unmarshal(r.body, &st), "body: %s", r.body)
	return &st
}

func (r response) decode(t *testing.T, into any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, into), "body: %s", r.body)
}

func (c *client) do(method, path string, body any, header ...string) response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(c.t, err)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	require.NoError(c.t, err)
	if rd != nil {
		// As kubectl and client-go do; the server refuses an untyped body. A "Content-Type"
		// of "" in header sends none.
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if req.Header.Get("Content-Type") == "" {
		req.Header.Del("Content-Type")
	}
	resp, err := c.hc.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return response{code: resp.StatusCode, header: resp.Header, body: data}
}

func (c *client) get(path string) response { return c.do(http.MethodGet, path, nil) }

// stream is an open watch over HTTP: each line is one event.
type stream struct {
	t      *testing.T
	resp   *http.Response
	lines  chan string
	cancel context.CancelFunc
	errc   chan error
}

func (c *client) watch(path string, header ...string) *stream {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	require.NoError(c.t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.hc.Do(req)
	require.NoError(c.t, err)
	st := &stream{t: c.t, resp: resp, lines: make(chan string, 100000), cancel: cancel, errc: make(chan error, 1)}
	go func() {
		defer close(st.lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			st.lines <- sc.Text()
		}
		st.errc <- sc.Err()
	}()
	c.t.Cleanup(st.close)
	return st
}

func (st *stream) close() {
	st.cancel()
	st.resp.Body.Close()
	for range st.lines {
	}
}

// wireEvent is one decoded line.
type wireEvent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

func (e wireEvent) meta(t *testing.T) (kind, apiVersion, name, rv string, annotations map[string]string) {
	t.Helper()
	var o struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			Name            string            `json:"name"`
			ResourceVersion string            `json:"resourceVersion"`
			Annotations     map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(e.Object, &o))
	return o.Kind, o.APIVersion, o.Metadata.Name, o.Metadata.ResourceVersion, o.Metadata.Annotations
}

// short is "TYPE name@rv" for compact assertions.
func (e wireEvent) short(t *testing.T) string {
	_, _, name, rv, _ := e.meta(t)
	return e.Type + " " + name + "@" + rv
}

// next returns the next event, failing after a generous bound.
func (st *stream) next() wireEvent {
	st.t.Helper()
	select {
	case line, ok := <-st.lines:
		require.True(st.t, ok, "stream ended")
		var ev wireEvent
		require.NoError(st.t, json.Unmarshal([]byte(line), &ev), "line: %s", line)
		return ev
	case <-time.After(10 * time.Second):
		st.t.Fatal("no event within 10s")
		return wireEvent{}
	}
}

// nextN returns n events in short form.
func (st *stream) nextN(n int) []string {
	st.t.Helper()
	out := make([]string, n)
	for i := range out {
		out[i] = st.next().short(st.t)
	}
	return out
}

// ended waits for the end of the stream and returns the lines that were still to come.
func (st *stream) ended() []string {
	st.t.Helper()
	var rest []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-st.lines:
			if !ok {
				return rest
			}
			rest = append(rest, line)
		case <-timeout:
			st.t.Fatal("stream did not end within 10s")
		}
	}
}

func pod(ns, name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}},
	}
}

func mustCreate(t *testing.T, s *Server, resource, ns string, obj api.Object) api.Object {
	t.Helper()
	out, err := s.Create(context.Background(), resource, ns, obj)
	require.NoError(t, err)
	return out
}

func rvOf(t *testing.T, obj api.Object) string {
	t.Helper()
	m, err := api.Accessor(obj)
	if err != nil {
		l, err := api.ListAccessor(obj)
		require.NoError(t, err)
		return l.GetResourceVersion()
	}
	return m.GetResourceVersion()
}

// fooResource is a registered kind, as the sample-controller's CustomResourceDefinition
// would add one: stored and served like any custom resource.
var fooResource = ResourceInfo{
	Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos", Kind: "Foo",
	Namespaced: true, ShortNames: []string{"fo"}, ReturnDeletedObject: true,
}
