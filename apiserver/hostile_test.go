package apiserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// The hostile-client catalogue (docs/behaviour/wire.md §10): what a client that means
// harm, or is merely broken, can send, and what the server answers. Every case checks the
// code, the reason and the shape of the message, that the server goes on serving, and that
// its state (every list, with its resourceVersion) is byte for byte what it was.

// serverState is every collection the tests write to, as the server lists it: the bytes
// include the list resourceVersion, so equal states mean nothing was written.
func serverState(t *testing.T, c *client) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{"/api/v1/pods", "/api/v1/configmaps", "/api/v1/namespaces"} {
		r := c.get(p)
		require.Equal(t, http.StatusOK, r.code, "%s: %s", p, r.body)
		out[p] = string(r.body)
	}
	return out
}

// requireUnchanged checks the server still serves and nothing was written since before.
func requireUnchanged(t *testing.T, c *client, before map[string]string) {
	t.Helper()
	if diff := cmp.Diff(before, serverState(t, c)); diff != "" {
		t.Fatalf("server state changed (-before +after):\n%s", diff)
	}
	require.Equal(t, http.StatusOK, c.get("/api/v1/namespaces/default/pods/a").code, "follow-up request")
}

// assertStatus checks a response is a failure Status with code, reason and a message that
// contains msg (or equals it when exact).
func assertStatus(t *testing.T, r response, code int, reason api.StatusReason, msg string, exact bool) {
	t.Helper()
	require.Equal(t, code, r.code, "body: %.300s", r.body)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	st := r.status(t)
	assert.Equal(t, "Status", st.Kind)
	assert.Equal(t, "v1", st.APIVersion)
	assert.Equal(t, api.StatusFailure, st.Status)
	assert.Equal(t, int32(code), st.Code)
	assert.Equal(t, reason, st.Reason)
	if exact {
		assert.Equal(t, msg, st.Message)
	} else {
		assert.Contains(t, st.Message, msg)
	}
	assert.True(t, utf8.Valid(r.body), "the body is valid UTF-8")
	assert.NotContains(t, st.Message, "goroutine ")
}

// nested is depth levels of {"a": … } (objects) or [ … ] (arrays) around 1.
func nested(depth int, arrays bool) string {
	open, closing := `{"a":`, "}"
	if arrays {
		open, closing = "[", "]"
	}
	return strings.Repeat(open, depth) + "1" + strings.Repeat(closing, depth)
}

// TestCh01_HostileInputs is the table of hostile requests that get a Status: huge and deeply
// nested JSON, a 1 MB query string, path traversal in names and invalid UTF-8. None may
// write, crash the server or cost more memory than the body cap.
func TestCh01_HostileInputs(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "kube-system", pod("kube-system", "victim", nil))
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}})

	const pods = "/api/v1/namespaces/default/pods"
	const jsonCT = "application/json"
	const mergeCT = "application/merge-patch+json"
	huge := `{"metadata":{"name":"big","annotations":{"a":"` + strings.Repeat("z", 4<<20) + `"}}}`
	deep := nested(100_000, false)
	deepArrays := `{"metadata":{"name":"x"},"spec":` + nested(100_000, true) + `}`
	// 9,000 levels is within encoding/json's limit of 10,000: the body parses, and the
	// strict-field scanner walks it to find the unknown member.
	deepValid := `{"metadata":{"name":"deep"},"spec":{"containers":[],"bogus":` + nested(9_000, false) + `}}`
	oneMB := "labelSelector=" + strings.Repeat("a", 1_000_000-len("labelSelector="))
	const nameInvalid = "Name parameter invalid: "
	const e1 = "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: "

	tests := []struct {
		name   string
		method string
		path   string
		body   string
		ctype  string
		code   int
		reason api.StatusReason
		msg    string
		exact  bool
	}{
		// Huge JSON: over MaxBodyBytes on every verb that reads a body (E8).
		{"huge create", "POST", pods, huge, jsonCT, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true},
		{"huge update", "PUT", pods + "/a", huge, jsonCT, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true},
		{"huge patch", "PATCH", pods + "/a", huge, mergeCT, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true},
		{"huge delete options", "DELETE", pods + "/a", huge, jsonCT, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true},
		{"huge list-shaped create", "POST", pods, `{"metadata":{"name":"x"},"spec":{"containers":[` + strings.Repeat(`{"name":"c"},`, 300_000) + `{}]}}`, jsonCT,
			413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true},

		// Deeply nested JSON: encoding/json stops at 10,000 levels with a syntax error, so
		// no recursion goes deeper and the answer is E1's 400.
		{"deep objects create", "POST", pods, deep, jsonCT, 400, api.StatusReasonBadRequest, e1 + "invalid character '{' exceeded max depth", false},
		{"deep arrays create", "POST", pods, deepArrays, jsonCT, 400, api.StatusReasonBadRequest, e1 + "invalid character '[' exceeded max depth", false},
		{"deep objects update", "PUT", pods + "/a", deep, jsonCT, 400, api.StatusReasonBadRequest, e1 + "invalid character '{' exceeded max depth", false},
		{"deep merge patch", "PATCH", pods + "/a", deep, mergeCT, 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"deep strategic patch", "PATCH", pods + "/a", deep, "application/strategic-merge-patch+json", 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"deep json patch", "PATCH", pods + "/a", "[" + deep + "]", "application/json-patch+json", 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"deep delete options", "DELETE", pods + "/a", deep, jsonCT, 400, api.StatusReasonBadRequest, "exceeded max depth", false},
		{"deep but parseable, strict", "POST", pods + "?fieldValidation=Strict", deepValid, jsonCT, 400, api.StatusReasonBadRequest,
			`Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"`, true},

		// A 1 MB query string: within net/http's 1 MiB header limit, so the handler sees it
		// and answers 414 with a Status (no Kubernetes reason exists for 414).
		{"1 MB query on list", "GET", pods + "?" + oneMB, "", "", 414, api.StatusReasonUnknown,
			"the request URI is too long: the query string has 1000000 bytes, the limit is 131072", true},
		{"1 MB query on watch", "GET", pods + "?watch=1&" + oneMB, "", "", 414, api.StatusReasonUnknown, "the request URI is too long", false},
		{"1 MB query on create", "POST", pods + "?" + oneMB, `{"metadata":{"name":"q"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 414, api.StatusReasonUnknown, "the request URI is too long", false},

		// Path traversal in names: a dot name or a "%" is refused as the real registry's key
		// functions refuse it; a %2F becomes an extra path segment, hence 404. Nothing
		// outside the addressed collection is read or written.
		{"get ..", "GET", pods + "/..", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"get .", "GET", pods + "/.", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `".": may not be '.'`, true},
		{"get %2e%2e", "GET", pods + "/%2e%2e", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"delete ..", "DELETE", pods + "/..", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"update ..", "PUT", pods + "/..", `{"metadata":{"name":".."},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"patch ..", "PATCH", pods + "/..", `{}`, mergeCT, 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"status of ..", "PUT", pods + "/../status", `{}`, jsonCT, 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"namespace ..", "DELETE", "/api/v1/namespaces/..", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `"..": may not be '..'`, true},
		{"%25 in a name", "GET", pods + "/a%25", "", "", 400, api.StatusReasonBadRequest, nameInvalid + `"a%": may not contain '%'`, true},
		{"../ into another namespace", "GET", pods + "/../../kube-system/pods/victim", "", "", 404, api.StatusReasonNotFound,
			"the server could not find the requested resource", true},
		{"%2F into another namespace", "DELETE", pods + "/x%2F..%2F..%2Fkube-system%2Fpods%2Fvictim", "", "", 404, api.StatusReasonNotFound,
			"the server could not find the requested resource", true},
		{"%2F in a name", "GET", pods + "/a%2Fb", "", "", 404, api.StatusReasonNotFound, "the server could not find the requested resource", true},
		{"../ into another resource", "GET", pods + "/../configmaps/cm", "", "", 404, api.StatusReasonNotFound,
			"the server could not find the requested resource", true},
		{"../ out of the API", "GET", "/api/v1/namespaces/default/pods/../../../../debug/faults", "", "", 404, api.StatusReasonNotFound,
			"the server could not find the requested resource", true},
		{"traversal in the body name", "POST", pods, `{"metadata":{"name":"../kube-system/victim"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 422, api.StatusReasonInvalid,
			`Pod "../kube-system/victim" is invalid: metadata.name: Invalid value: "../kube-system/victim": a lowercase RFC 1123 subdomain must consist of`, false},
		{"dot-dot body name", "POST", pods, `{"metadata":{"name":".."},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 422, api.StatusReasonInvalid, `Pod ".." is invalid: metadata.name: Invalid value: ".."`, false},
		{"traversal in the body namespace", "POST", pods, `{"metadata":{"name":"x","namespace":"../kube-system"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 400, api.StatusReasonBadRequest,
			"the namespace of the provided object does not match the namespace sent on the request", true},
		{"get in namespace ..", "GET", "/api/v1/namespaces/../pods/victim", "", "", 404, api.StatusReasonNotFound, `pods "victim" not found`, true},
		{"create in namespace ..", "POST", "/api/v1/namespaces/../pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 422, api.StatusReasonInvalid,
			`Pod "x" is invalid: metadata.namespace: Invalid value: "..": a lowercase RFC 1123 label must consist of`, false},

		// Invalid UTF-8. encoding/json (like the real decoder) turns an invalid byte inside a
		// string into U+FFFD, so a name or label with one fails validation (422) and the
		// message is valid UTF-8; bytes outside strings are a syntax error (400).
		{"invalid UTF-8 name", "POST", pods, "{\"metadata\":{\"name\":\"a\xffb\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}", jsonCT, 422, api.StatusReasonInvalid,
			"Pod \"a\uFFFDb\" is invalid: metadata.name: Invalid value: \"a\uFFFDb\"", false},
		{"invalid UTF-8 label value", "POST", pods, "{\"metadata\":{\"name\":\"l\",\"labels\":{\"k\":\"v\xc3\x28\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}", jsonCT, 422, api.StatusReasonInvalid,
			`Pod "l" is invalid: metadata.labels: Invalid value: "v`, false},
		{"invalid UTF-8 label key", "POST", pods, "{\"metadata\":{\"name\":\"l\",\"labels\":{\"k\xfe\":\"v\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}", jsonCT, 422, api.StatusReasonInvalid,
			`Pod "l" is invalid: metadata.labels: Invalid value: "k`, false},
		{"invalid UTF-8 body", "POST", pods, "\xff\xfe\xfd", jsonCT, 400, api.StatusReasonBadRequest, e1 + "invalid character 'ÿ' looking for beginning of value (fffefd)", true},
		{"invalid UTF-8 in the URL name", "GET", pods + "/a%FF", "", "", 404, api.StatusReasonNotFound, "pods \"a\uFFFD\" not found", true},
		{"invalid UTF-8 in a label selector", "GET", pods + "?labelSelector=k%3Dv%FF", "", "", 400, api.StatusReasonBadRequest, `unable to parse requirement: values[0][k]: Invalid value: "v\xff": a valid label must be`, false},
		{"invalid UTF-8 in a field selector", "GET", pods + "?fieldSelector=metadata.name%3D%FF", "", "", 200, "", "", false},
		{"invalid UTF-8 in a merge patch", "PATCH", pods + "/a", "{\"metadata\":{\"labels\":{\"k\":\"\xff\"}}}", mergeCT, 422, api.StatusReasonInvalid,
			`Pod "a" is invalid: metadata.labels: Invalid value`, false},
		{"invalid UTF-8 in the Content-Type", "POST", pods, `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, "application/\xffjson", 415, api.StatusReasonUnsupportedMediaType,
			"the body of the request was in an unknown format - accepted media types include: application/json, application/vnd.kubernetes.protobuf", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := serverState(t, c)
			var body any
			if tt.body != "" {
				body = tt.body
			}
			var hdr []string
			if tt.ctype != "" {
				hdr = []string{"Content-Type", tt.ctype}
			}
			r := c.do(tt.method, tt.path, body, hdr...)
			if tt.code == http.StatusOK {
				// A field selector value is not validated: no object matches, nothing breaks.
				require.Equal(t, http.StatusOK, r.code, "body: %.300s", r.body)
				assert.Contains(t, string(r.body), `"items":[]`)
			} else {
				assertStatus(t, r, tt.code, tt.reason, tt.msg, tt.exact)
			}
			requireUnchanged(t, c, before)
		})
	}
	// The victim in the other namespace is still there, untouched.
	v, err := s.Get(context.Background(), "pods", "kube-system", "victim")
	require.NoError(t, err)
	assert.Equal(t, "victim", v.(*api.Pod).Name)
}

// TestCh01_HostileInvalidUTF8Stored shows what becomes of invalid UTF-8 where the API allows
// any string (an annotation value): the write succeeds with U+FFFD in place of the bad byte,
// as with the real decoder, and everything the server sends back is valid UTF-8.
func TestCh01_HostileInvalidUTF8Stored(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"u\",\"annotations\":{\"note\":\"caf\xe9\"}},\"data\":{\"k\":\"\xff\"}}")
	require.Equal(t, http.StatusCreated, r.code, "body: %s", r.body)
	var cm api.ConfigMap
	c.get("/api/v1/namespaces/default/configmaps/u").decode(t, &cm)
	assert.Equal(t, "caf\uFFFD", cm.Annotations["note"])
	assert.Equal(t, "\uFFFD", cm.Data["k"])
	for _, p := range []string{"/api/v1/namespaces/default/configmaps/u", "/api/v1/configmaps"} {
		assert.True(t, utf8.Valid(c.get(p).body), p)
	}
}

// countingReader yields n bytes of a JSON body without holding them, and counts what the
// transport actually read.
type countingReader struct {
	prefix []byte
	left   int64
	read   atomic.Int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		if len(r.prefix) > 0 {
			k := copy(p[n:], r.prefix)
			r.prefix = r.prefix[k:]
			n += k
			r.left -= int64(k)
			continue
		}
		p[n] = 'z'
		n++
		r.left--
	}
	r.read.Add(int64(n))
	return n, nil
}

// TestCh01_HostileHugeStreamedBody sends a 256 MiB body with no Content-Length (chunked):
// the server stops reading just past its 3 MiB cap and answers 413, so a body of any size
// costs at most the cap. A declared Content-Length over the cap is refused before a byte of
// the body is read.
func TestCh01_HostileHugeStreamedBody(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)

	body := &countingReader{prefix: []byte(`{"metadata":{"name":"big","annotations":{"a":"`), left: 256 << 20}
	req, err := http.NewRequest("POST", c.base+"/api/v1/namespaces/default/configmaps", io.NopCloser(body))
	require.NoError(t, err)
	req.ContentLength = -1 // chunked
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	require.NoError(t, err)
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assertStatus(t, response{code: resp.StatusCode, header: resp.Header, body: data}, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true)
	// What the client managed to push: the cap, plus what sat in socket buffers and the
	// 256 KiB net/http drains after a handler, nowhere near 256 MiB.
	assert.Less(t, body.read.Load(), int64(DefaultMaxBodyBytes+16<<20), "bytes the server let in")
	requireUnchanged(t, c, before)

	// Declared too large: refused at once. The body is never sent in full (Expect-less
	// clients push some before they see the answer, net/http then closes the connection).
	big := &countingReader{left: 1 << 30}
	req, err = http.NewRequest("PUT", c.base+"/api/v1/namespaces/default/pods/a", io.NopCloser(big))
	require.NoError(t, err)
	req.ContentLength = 1 << 30
	req.Header.Set("Content-Type", "application/json")
	resp, err = c.hc.Do(req)
	require.NoError(t, err)
	data, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assertStatus(t, response{code: resp.StatusCode, header: resp.Header, body: data}, 413, api.StatusReasonRequestEntityTooLarge, "Request entity too large: limit is 3145728", true)
	assert.Less(t, big.read.Load(), int64(16<<20))
	requireUnchanged(t, c, before)
}

// rawConn is a hand-driven HTTP/1.1 connection for the slow-client cases.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, base string) *rawConn {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	// A generous bound, so a broken server fails the test instead of hanging it.
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	return &rawConn{Conn: conn, br: bufio.NewReader(conn)}
}

func (rc *rawConn) readResponse(t *testing.T) response {
	t.Helper()
	resp, err := http.ReadResponse(rc.br, nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{code: resp.StatusCode, header: resp.Header, body: data}
}

// TestCh01_HostileSlowlorisBody sends a body one byte at a time, for ever. The server gives
// up when BodyReadTimeout passes, answers 408 Timeout, and serves everyone else meanwhile.
func TestCh01_HostileSlowlorisBody(t *testing.T) {
	const timeout = 300 * time.Millisecond
	s, c := newServer(t, Options{BodyReadTimeout: timeout})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)

	rc := dialRaw(t, c.base)
	start := time.Now()
	_, err := fmt.Fprintf(rc, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{")
	require.NoError(t, err)
	stop := make(chan struct{})
	dribbled := make(chan struct{})
	go func() {
		defer close(dribbled)
		tick := time.NewTicker(10 * time.Millisecond) // pacing the attack, not synchronising
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := rc.Write([]byte(" ")); err != nil {
					return // the server closed the connection
				}
			}
		}
	}()
	// Everyone else is served while the slow body trickles in.
	assert.Equal(t, http.StatusOK, c.get("/api/v1/namespaces/default/pods").code)

	r := rc.readResponse(t)
	elapsed := time.Since(start)
	close(stop)
	<-dribbled
	assertStatus(t, r, http.StatusRequestTimeout, api.StatusReasonTimeout, "Timeout: the request body was not received within 300ms", false)
	assert.GreaterOrEqual(t, elapsed, timeout, "the server waited for the body")
	assert.Less(t, elapsed, 10*time.Second)
	requireUnchanged(t, c, before)
}

// TestCh01_HostileSlowHeaders is the classic slowloris: headers that never end. The
// connection is closed after ReadHeaderTimeout. No handler has run, so there is no Status:
// net/http closes the connection without a response.
func TestCh01_HostileSlowHeaders(t *testing.T) {
	s, c := newServer(t, Options{ReadHeaderTimeout: 200 * time.Millisecond})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)

	rc := dialRaw(t, c.base)
	_, err := io.WriteString(rc, "GET /api/v1/pods HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
	require.NoError(t, err)
	start := time.Now()
	data, err := io.ReadAll(rc.br) // returns when the server closes the connection
	assert.NoError(t, err, "closed by the server, not by our 20 s bound")
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Empty(t, data, "no response to a request that never finished")
	requireUnchanged(t, c, before)
}

// TestCh01_IdleTimeout: a keep-alive connection left idle is closed after IdleTimeout.
func TestCh01_IdleTimeout(t *testing.T) {
	s, c := newServer(t, Options{IdleTimeout: 200 * time.Millisecond})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	rc := dialRaw(t, c.base)
	_, err := io.WriteString(rc, "GET /api/v1/namespaces/default/pods/a HTTP/1.1\r\nHost: localhost\r\n\r\n")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, rc.readResponse(t).code)
	start := time.Now()
	data, err := io.ReadAll(rc.br)
	assert.NoError(t, err, "closed by the server, not by our 20 s bound")
	assert.Empty(t, data)
	assert.Less(t, time.Since(start), 10*time.Second)
}

// TestCh01_HostileQueryOverHeaderLimit: a query longer than MaxHeaderBytes never reaches a
// handler. net/http answers 431 in plain text and closes; client-go makes a Status of it
// from the code (S6). The server goes on.
func TestCh01_HostileQueryOverHeaderLimit(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)
	r := c.get("/api/v1/pods?labelSelector=" + strings.Repeat("a", 2<<20))
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, r.code)
	assert.Contains(t, string(r.body), "431 Request Header Fields Too Large")
	requireUnchanged(t, c, before)
}

// TestCh01_HostileManyWatches opens watches until the cap and then 10,000 watches in all:
// every one over MaxOpenWatches is 429 TooManyRequests with Retry-After, in process too; the
// open ones keep working, memory stays bounded, and closing one frees a place.
func TestCh01_HostileManyWatches(t *testing.T) {
	assert.Equal(t, DefaultMaxOpenWatches, New(Options{}).opts.MaxOpenWatches, "the default cap")
	const limit = 100
	const total = 10_000
	s, c := newServer(t, Options{MaxOpenWatches: limit})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapInuse

	// The open watches are bare responses, read only when needed: the stream helper's
	// large line buffers would swamp the memory figure.
	open := make([]*http.Response, limit)
	for i := range open {
		resp, err := c.hc.Get(c.base + fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", s.ResourceVersion()))
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		open[i] = resp
		t.Cleanup(func() { resp.Body.Close() })
	}
	require.Len(t, s.Watchers(), limit)

	var refused, other atomic.Int64
	var firstBad atomic.Value
	var wg sync.WaitGroup
	const workers = 8
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			for i := w; i < total-limit; i += workers {
				resp, err := hc.Get(c.base + "/api/v1/namespaces/default/pods?watch=1")
				if err != nil {
					other.Add(1)
					firstBad.CompareAndSwap(nil, err.Error())
					continue
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "1" &&
					strings.Contains(string(data), `"reason":"TooManyRequests"`) {
					refused.Add(1)
				} else {
					other.Add(1)
					firstBad.CompareAndSwap(nil, fmt.Sprintf("%d %s", resp.StatusCode, data))
				}
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int64(0), other.Load(), "first unexpected answer: %v", firstBad.Load())
	assert.Equal(t, int64(total-limit), refused.Load())

	// One refused attempt in full, over HTTP and in process.
	r := c.get("/api/v1/pods?watch=1")
	assertStatus(t, r, http.StatusTooManyRequests, api.StatusReasonTooManyRequests, "too many open watches (the limit is 100), please try again later", true)
	assert.Equal(t, "1", r.header.Get("Retry-After"))
	assert.Equal(t, &api.StatusDetails{RetryAfterSeconds: 1}, r.status(t).Details)
	_, err := s.Watch(context.Background(), "pods", "", api.ListOptions{})
	var st *api.Status
	require.True(t, errors.As(err, &st), "in-process watch: %v", err)
	assert.Equal(t, api.StatusReasonTooManyRequests, st.Reason)

	runtime.GC()
	runtime.ReadMemStats(&ms)
	assert.Less(t, int64(ms.HeapInuse)-int64(heapBefore), int64(64<<20), "heap growth with %d open watches after %d refused", limit, total-limit)
	requireUnchanged(t, c, before)

	// The open watches still work.
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	for _, resp := range []*http.Response{open[0], open[limit-1]} {
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		require.NoError(t, err)
		assert.Contains(t, line, `{"type":"ADDED","object":{"kind":"Pod"`)
		assert.Contains(t, line, `"name":"b"`)
	}
	// Closing one frees its place (the server notices the client left).
	open[0].Body.Close()
	tick := time.NewTicker(time.Millisecond) // bounded polling for the server to see the disconnect
	defer tick.Stop()
	for deadline := time.Now().Add(10 * time.Second); len(s.Watchers()) >= limit && time.Now().Before(deadline); {
		<-tick.C
	}
	require.Len(t, s.Watchers(), limit-1)
	again := c.watch(fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", s.ResourceVersion()))
	assert.Equal(t, http.StatusOK, again.resp.StatusCode)
}

// TestCh01_HostilePanicNoStackTrace: a handler that panics with an error is a 500 Status
// whose message carries the error text and nothing of the stack (no goroutine dump, no file
// names), the stack goes to the Logger only, and the server goes on with its state intact.
func TestCh01_HostilePanicNoStackTrace(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	lg := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, &slog.HandlerOptions{Level: slog.LevelError}))
	s, c := newServer(t, Options{Logger: lg})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)
	prev := s.table.Get("", "pods").Info.FieldSet
	s.table.Get("", "pods").Info.FieldSet = func(api.Object) fields.Set { panic(errors.New("kaboom")) }
	r := c.get("/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dx")
	assertStatus(t, r, 500, api.StatusReasonInternalError, "kaboom", false)
	for _, leak := range []string{"goroutine", ".go:", "runtime/", "panic(", "debug.Stack"} {
		assert.NotContains(t, string(r.body), leak)
	}
	s.table.Get("", "pods").Info.FieldSet = prev
	requireUnchanged(t, c, before)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, logs.String(), "handler panic", "the stack goes to the log")
	assert.Contains(t, logs.String(), "goroutine")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestCh01_LoopbackByDefault: Start with no host binds 127.0.0.1; binding any other address
// logs a Warn naming it (to slog.Default when no Logger is set).
func TestCh01_LoopbackByDefault(t *testing.T) {
	checkNoLeak(t)
	for _, addr := range []string{"", ":0"} {
		s := New(Options{})
		u, err := s.Start(addr)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(u, "http://127.0.0.1:"), u)
		s.Close()
	}
	var logs strings.Builder
	var mu sync.Mutex
	s := New(Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))})
	_, err := s.Start("0.0.0.0:0")
	require.NoError(t, err)
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "apiserver binds a non-loopback address without authentication")
	assert.Contains(t, logs.String(), "addr=0.0.0.0")
}
