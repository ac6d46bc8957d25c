package apiserver

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// A web page the user opens is a hostile client of a server on the user's machine: the
// browser sends its requests from the user's network position. These tests play such a page
// (an Origin header, a rebound Host name, the bodies a page can send without a CORS
// preflight), and check the other small parsers a hostile client reaches first: the fault
// API's body and the Authorization header.

const (
	evilOrigin  = "http://evil.example"
	configmaps  = "/api/v1/namespaces/default/configmaps"
	plantedCM   = `{"metadata":{"name":"planted"}}`
	failListsJS = `{"action":"fail-next","verb":"list","count":1}`
	jsonType    = "application/json"
	crossOrigin = "cross-origin request refused"
	foreignHost = "is not a name of this server"
	notFound404 = "404 page not found\n"
)

// sentinelDrop installs a drop rule a refused request must neither use up nor clear.
func sentinelDrop(s *Server) {
	s.DropNextEvents(DropRule{Count: 1, Key: "default/sentinel"})
}

// requireFaultsUnchanged checks that only the sentinel drop rule is pending.
func requireFaultsUnchanged(t *testing.T, s *Server) {
	t.Helper()
	st := s.Faults()
	require.Equal(t, []DropRule{{Count: 1, Key: "default/sentinel"}}, st.Drops)
	require.Empty(t, st.Fails)
	require.Equal(t, "0s", st.EventDelay)
}

// TestCh01_HostileCrossOriginWrite plays a page on another origin: every request that carries
// a foreign Origin, whatever its method, body type or target, is 403 Forbidden and changes
// nothing; a request whose Origin is the server's own host passes.
func TestCh01_HostileCrossOriginWrite(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	sentinelDrop(s)
	u, err := url.Parse(c.base)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, method, path, body, ctype, origin string
	}{
		// What a page can send without a preflight: text/plain, a form, or no type at all.
		{"fault, text/plain", "POST", "/debug/faults", failListsJS, "text/plain", evilOrigin},
		{"fault, form", "POST", "/debug/faults", failListsJS, "application/x-www-form-urlencoded", evilOrigin},
		{"fault, JSON", "POST", "/debug/faults", failListsJS, jsonType, evilOrigin},
		{"fault clear", "DELETE", "/debug/faults", "", "", evilOrigin},
		{"create, no Content-Type", "POST", configmaps, plantedCM, "", evilOrigin},
		{"create, text/plain", "POST", configmaps, plantedCM, "text/plain", evilOrigin},
		{"create, JSON", "POST", configmaps, plantedCM, jsonType, evilOrigin},
		{"delete", "DELETE", "/api/v1/namespaces/default/pods/a", "", "", evilOrigin},
		{"read", "GET", "/api/v1/pods", "", "", evilOrigin},
		{"preflight", "OPTIONS", configmaps, "", "", evilOrigin},
		// Same scheme and host, another port: another origin (a different local server).
		{"another port", "POST", configmaps, plantedCM, jsonType, "http://" + u.Hostname() + ":1"},
		{"another name for this host", "POST", configmaps, plantedCM, jsonType, "http://localhost:" + u.Port()},
		// Sandboxed frames, file: and data: pages send the opaque origin "null".
		{"opaque origin", "POST", configmaps, plantedCM, jsonType, "null"},
		{"not a URL", "POST", configmaps, plantedCM, jsonType, "::"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := serverState(t, c)
			var body any
			if tc.body != "" {
				body = tc.body
			}
			hdr := []string{"Origin", tc.origin, "Content-Type", tc.ctype}
			r := c.do(tc.method, tc.path, body, hdr...)
			assertStatus(t, r, http.StatusForbidden, api.StatusReasonForbidden, crossOrigin, false)
			assert.Contains(t, r.status(t).Message, tc.origin)
			assert.Empty(t, r.header.Get("Access-Control-Allow-Origin"), "no CORS grant")
			requireUnchanged(t, c, before)
			requireFaultsUnchanged(t, s)
		})
	}

	// The server's own origin (Origin equal to Host) passes, as a page it served would.
	own := "http://" + u.Host
	r := c.do("POST", "/debug/faults", failListsJS, "Origin", own, "Content-Type", jsonType)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	require.Len(t, s.Faults().Fails, 1)
	s.ClearFaults()
	r = c.do("POST", configmaps, plantedCM, "Origin", own, "Content-Type", jsonType)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
}

// TestCh01_HostileCrossOriginCheckOrder pins the order of the checks: authentication first,
// so a cross-origin request without credentials on a token server is the 401 any request
// without credentials gets; once authenticated (or anonymous on a public path) a foreign
// Origin or Host is 403.
func TestCh01_HostileCrossOriginCheckOrder(t *testing.T) {
	_, c := newServer(t, Options{BearerToken: "s3cret", DebugFaults: true})
	const right, wrong = "Bearer s3cret", "Bearer nope"
	for _, tc := range []struct {
		name, path, auth, host string
		code                   int
		reason                 api.StatusReason
	}{
		{"no credentials, resource", "/api/v1/pods", "", "", 401, api.StatusReasonUnauthorized},
		{"wrong token, public", "/healthz", wrong, "", 401, api.StatusReasonUnauthorized},
		{"no credentials, public", "/healthz", "", "", 403, api.StatusReasonForbidden},
		{"right token", "/api/v1/pods", right, "", 403, api.StatusReasonForbidden},
		{"right token, faults", "/debug/faults", right, "", 403, api.StatusReasonForbidden},
		{"no credentials, rebound host", "/api/v1/pods", "", "evil.example", 401, api.StatusReasonUnauthorized},
		{"right token, rebound host", "/api/v1/pods", right, "evil.example", 403, api.StatusReasonForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", c.base+tc.path, nil)
			require.NoError(t, err)
			req.Header.Set("Origin", evilOrigin)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			r := send(t, c.hc, req)
			require.Equal(t, tc.code, r.code, "%s", r.body)
			assert.Equal(t, tc.reason, r.status(t).Reason)
		})
	}
}

// send performs req and reads the whole answer.
func send(t *testing.T, hc *http.Client, req *http.Request) response {
	t.Helper()
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{code: resp.StatusCode, header: resp.Header, body: data}
}

// TestCh01_HostileDNSRebinding plays DNS rebinding: a page on evil.example whose name now
// resolves to 127.0.0.1 talks to the server as its own origin, with Host evil.example. A
// started server answers only to IP literals, localhost and *.localhost, and to the names
// of its certificate; anything else is 403 and reads nothing. In-process use (Handler with
// httptest, whose Host is example.com) is not checked.
func TestCh01_HostileDNSRebinding(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	sentinelDrop(s)
	u, err := url.Parse(c.base)
	require.NoError(t, err)
	port := u.Port()
	for _, host := range []string{
		"evil.example:6443", "evil.example", "EVIL.example:" + port, "127.0.0.1.nip.io:" + port,
		"localhost.evil.example:" + port, "localhost:" + port + ".evil.example", "localhost:x",
		"example.com", "[evil.example]:" + port,
	} {
		t.Run("refused "+host, func(t *testing.T) {
			before := serverState(t, c)
			for _, tc := range []struct{ method, path, body string }{
				{"GET", "/api/v1/namespaces/default/pods/a", ""},
				{"GET", "/debug/faults", ""},
				{"POST", configmaps, plantedCM},
				{"POST", "/debug/faults", failListsJS},
				{"GET", "/healthz", ""},
			} {
				req, err := http.NewRequest(tc.method, c.base+tc.path, strings.NewReader(tc.body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", jsonType)
				req.Host = host
				r := send(t, c.hc, req)
				assertStatus(t, r, http.StatusForbidden, api.StatusReasonForbidden, foreignHost, false)
				assert.NotContains(t, string(r.body), `"name":"a"`, "nothing is read")
			}
			requireUnchanged(t, c, before)
			requireFaultsUnchanged(t, s)
		})
	}
	for _, host := range []string{
		"127.0.0.1:" + port, "127.0.0.1", "localhost:" + port, "LocalHost:" + port, "localhost.:" + port,
		"app.localhost:" + port, "[::1]:" + port, "[::1]", "10.1.2.3:" + port, "[fe80::1%25eth0]:" + port,
	} {
		req, err := http.NewRequest("GET", c.base+"/api/v1/namespaces/default/pods/a", nil)
		require.NoError(t, err)
		req.Host = host
		r := send(t, c.hc, req)
		assert.Equal(t, http.StatusOK, r.code, "Host %s: %s", host, r.body)
	}

	// In process: httptest.NewRequest's Host is example.com, and a server the caller runs
	// around Handler is the caller's to guard.
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/namespaces/default/pods/a", nil))
	assert.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	req, err := http.NewRequest("GET", hs.URL+"/api/v1/namespaces/default/pods/a", nil)
	require.NoError(t, err)
	req.Host = "evil.example"
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	assert.Equal(t, http.StatusOK, send(t, hc, req).code)
}

// TestCh01_HostileDNSRebindingTLS checks the rule on StartTLS: localhost (a name of its
// certificate) passes, a foreign name is refused even over a trusted connection.
func TestCh01_HostileDNSRebindingTLS(t *testing.T) {
	checkNoLeak(t)
	s := NewTLSTestServer(t, Options{})
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(s.CACertPEM()))
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	u, err := url.Parse(s.URL())
	require.NoError(t, err)
	for host, code := range map[string]int{
		"localhost:" + u.Port(): http.StatusOK,
		u.Host:                  http.StatusOK,
		"evil.example":          http.StatusForbidden,
	} {
		req, err := http.NewRequest("GET", s.URL()+"/api/v1/namespaces", nil)
		require.NoError(t, err)
		req.Host = host
		r := send(t, hc, req)
		assert.Equal(t, code, r.code, "Host %s: %s", host, r.body)
	}
}

// TestCh01_HostileBodyContentType checks that a body is read only in the type the endpoint
// speaks: /debug/faults wants application/json, and a create or update body without any
// Content-Type is 415 as well (the real server would assume JSON).
func TestCh01_HostileBodyContentType(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm"}})
	sentinelDrop(s)
	const unsupported = "the body of the request was in an unknown format - accepted media types include: application/json"
	for _, tc := range []struct{ name, method, path, body, ctype string }{
		{"faults text/plain", "POST", "/debug/faults", failListsJS, "text/plain"},
		{"faults text/plain charset", "POST", "/debug/faults", failListsJS, "text/plain;charset=UTF-8"},
		{"faults form (curl -d)", "POST", "/debug/faults", failListsJS, "application/x-www-form-urlencoded"},
		{"faults multipart", "POST", "/debug/faults", failListsJS, "multipart/form-data; boundary=x"},
		{"faults no Content-Type", "POST", "/debug/faults", failListsJS, ""},
		{"faults bad media type", "POST", "/debug/faults", failListsJS, "application/json; ="},
		{"faults json-seq", "POST", "/debug/faults", failListsJS, "application/json-seq"},
		{"create no Content-Type", "POST", configmaps, plantedCM, ""},
		{"update no Content-Type", "PUT", configmaps + "/cm", `{"metadata":{"name":"cm"},"data":{"k":"v"}}`, ""},
		{"delete options no Content-Type", "DELETE", configmaps + "/cm", `{"gracePeriodSeconds":0}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := serverState(t, c)
			r := c.do(tc.method, tc.path, tc.body, "Content-Type", tc.ctype)
			want := unsupported
			if strings.HasPrefix(tc.path, configmaps) {
				want += ", application/vnd.kubernetes.protobuf" // a built-in kind also reads protobuf
			}
			assertStatus(t, r, http.StatusUnsupportedMediaType, api.StatusReasonUnsupportedMediaType, want, true)
			requireUnchanged(t, c, before)
			requireFaultsUnchanged(t, s)
		})
	}
	// A patch needs a patch type, as before.
	r := c.do("PATCH", configmaps+"/cm", `{"data":{"k":"v"}}`, "Content-Type", "")
	assertStatus(t, r, http.StatusUnsupportedMediaType, api.StatusReasonUnsupportedMediaType, "application/merge-patch+json", false)
	// An empty create body without a type is still the decoder's 400.
	r = c.do("POST", configmaps, nil)
	assertStatus(t, r, http.StatusBadRequest, api.StatusReasonBadRequest, "unexpected end of JSON input", false)

	// JSON, with or without parameters, works.
	r = c.do("POST", "/debug/faults", failListsJS, "Content-Type", "Application/JSON; charset=utf-8")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do("POST", configmaps, plantedCM, "Content-Type", jsonType)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
}

// TestCh01_HostileUnservedGroupWrite checks that a write to a path that does not exist (an
// API group that is not served, an unknown health check or OpenAPI document) is the same
// plain 404 a GET gets, as the real server's NotFound handler answers; below /api/ and below
// a served group's /apis/<group>/ (an unserved version) every method gets the group
// handler's 404 Status, with empty details, as the reference answers (checked with curl);
// only paths that exist answer another method with 405.
func TestCh01_HostileUnservedGroupWrite(t *testing.T) {
	_, c := newServer(t, Options{})
	statusNotFound := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}` + "\n"
	for _, tc := range []struct{ path, body string }{
		{"/apis/nope.example.com/v1/widgets", notFound404}, {"/apis/nope.example.com/v1", notFound404},
		{"/apis/nope.example.com", notFound404}, {"/apis/apps/v2", statusNotFound}, {"/apis/apps/v2/deployments", statusNotFound},
		{"/apis/apps/v2/namespaces/default/deployments", statusNotFound}, {"/healthz/bogus", notFound404},
		{"/openapi/v3/apis/nope/v1", notFound404}, {"/openapi/v2/bogus", notFound404}, {"/nonexistent", notFound404},
		{"/api/v2", statusNotFound},
	} {
		path := tc.path
		get := c.get(path)
		require.Equal(t, http.StatusNotFound, get.code, "GET %s: %s", path, get.body)
		require.Equal(t, tc.body, string(get.body), "GET %s", path)
		for _, method := range []string{"POST", "PUT", "PATCH", "DELETE"} {
			r := c.do(method, path, "{}", "Content-Type", jsonType)
			assert.Equal(t, get.code, r.code, "%s %s: %s", method, path, r.body)
			assert.Equal(t, string(get.body), string(r.body), "%s %s", method, path)
			assert.Equal(t, get.header.Get("Content-Type"), r.header.Get("Content-Type"), "%s %s", method, path)
		}
	}
	for _, path := range []string{
		"/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/apis/apps/v1/", "/version",
		"/healthz", "/readyz/ping", "/openapi/v3", "/openapi/v3/apis/apps/v1", "/openapi/v3/api/v1",
	} {
		require.Equal(t, http.StatusOK, c.get(path).code, "GET %s", path)
		r := c.do("POST", path, "{}", "Content-Type", jsonType)
		assertStatus(t, r, http.StatusMethodNotAllowed, api.StatusReasonMethodNotAllowed,
			"the server does not allow this method on the requested resource", true)
	}
}

// TestCh01_HostileDebugFaultsBody checks the fault API's body parser: integers outside the
// range the fault can hold, and anything after the one JSON object, are 400 naming the
// problem; nothing is applied.
func TestCh01_HostileDebugFaultsBody(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	sentinelDrop(s)
	for _, tc := range []struct{ body, want string }{
		{`{"action":"fail-next","retryAfterSeconds":2147483648}`, "fail-next: retryAfterSeconds must be at most 2147483647, got 2147483648"},
		{`{"action":"fail-next","retryAfterSeconds":4294967297}`, "fail-next: retryAfterSeconds must be at most 2147483647, got 4294967297"},
		{`{"action":"fail-next","count":2147483648}`, "fail-next: count must be at most 2147483647, got 2147483648"},
		{`{"action":"drop-next-events","count":9223372036854775807}`, "drop-next-events: count must be at most 2147483647, got 9223372036854775807"},
		{`{"action":"close-next-watches","count":2147483648}`, "close-next-watches: count must be at most 2147483647, got 2147483648"},
		{`{"action":"drop-next-events","count":9223372036854775808}`, "count must be an integer, got number 9223372036854775808"},
		{`{"action":"drop-next-events","count":-9223372036854775809}`, "count must be an integer, got number -9223372036854775809"},
		{`{"action":"fail-next","count":1.5}`, "count must be an integer, got number 1.5"},
		{`{"action":"fail-next","count":"2"}`, "count must be an integer, got string"},
		{`{"action":"fail-next","code":4294967796}`, "code must be an HTTP error code (400–599), got 4294967796"},
		{`{"action":"cut-next-event","watcherID":-1}`, "watcherID must be a non-negative integer, got number -1"},
		{`{"action":"cut-next-event","watcherID":18446744073709551616}`, "watcherID must be a non-negative integer, got number 18446744073709551616"},
		{`{"action":"compact","resourceVersion":-1}`, "resourceVersion must be a non-negative integer, got number -1"},
		{`{"action":"fail-next","asWatchEvent":1}`, "asWatchEvent must be true or false, got number"},
		{`{"action":"fail-next","verb":7}`, "verb must be a string, got number"},
		{`{"action":"fail-next","verb":"list"}{"action":"clear"}`, "after the JSON object"},
		{`{"action":"fail-next","verb":"list"} {"action":"clear"}`, "after the JSON object"},
		{`{"action":"fail-next","verb":"list"} x`, "after the JSON object"},
		{`{"action":"fail-next","verb":"list"}[]`, "after the JSON object"},
		{`{"action":"fail-next","verb":"list"} "`, "after the JSON object"},
	} {
		r := c.do("POST", "/debug/faults", tc.body, "Content-Type", jsonType)
		assertStatus(t, r, http.StatusBadRequest, api.StatusReasonBadRequest, tc.want, false)
		requireFaultsUnchanged(t, s)
	}
	// White space after the object is fine; the largest values are accepted.
	r := c.do("POST", "/debug/faults", "{\"action\":\"fail-next\",\"count\":2147483647,\"retryAfterSeconds\":2147483647,\"code\":503}\r\n\t \n", "Content-Type", jsonType)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	want := []FailRule{{Count: 2147483647, Code: 503, RetryAfterSeconds: 2147483647}}
	if diff := cmp.Diff(want, s.Faults().Fails); diff != "" {
		t.Fatalf("fails (-want +got):\n%s", diff)
	}
}

// TestCh01_BearerTokenHeaderShapes is the table of Authorization headers, parsed as the real
// bearer-token authenticator parses them: the header is trimmed, the scheme is "bearer" in
// any case, the token is what lies between the first and a second single space. A header it
// cannot read (another scheme, no token, a second space before it) counts as no credentials
// (anonymous: health and /version only); a token that is read but wrong fails everywhere.
func TestCh01_BearerTokenHeaderShapes(t *testing.T) {
	const (
		ok     = "ok"     // authenticated: everything served
		none   = "none"   // no credentials: anonymous, the public paths only
		failed = "failed" // wrong credentials: 401 everywhere
	)
	checkNoLeak(t)
	token := New(Options{BearerToken: "s3cret"})
	defer token.Close()
	certs := New(Options{ClientCertAuth: true}) // no token authenticator: every token fails
	defer certs.Close()
	for _, tc := range []struct {
		name, header, withToken, withCerts string
	}{
		{"exact", "Bearer s3cret", ok, failed},
		{"lower-case scheme", "bearer s3cret", ok, failed},
		{"upper-case scheme", "BEARER s3cret", ok, failed},
		{"surrounding white space", " \t Bearer s3cret \t ", ok, failed},
		{"trailing no-break space", "Bearer s3cret\u00a0", ok, failed},
		{"words after the token", "Bearer s3cret extra words", ok, failed},
		{"right token second", "Bearer nope s3cret", failed, failed},
		{"two spaces", "Bearer  s3cret", none, none},
		{"tab", "Bearer\ts3cret", none, none},
		{"scheme only", "Bearer", none, none},
		{"scheme and space", "Bearer ", none, none},
		{"scheme with colon", "Bearer: s3cret", none, none},
		{"other scheme", "Basic czNjcmV0", none, none},
		{"token alone", "s3cret", none, none},
		{"white space only", "  ", none, none},
		{"absent", "", none, none},
		{"wrong token", "Bearer nope", failed, failed},
		{"token prefix", "Bearer s3c", failed, failed},
		{"token extended", "Bearer s3cret2", failed, failed},
		{"token case", "Bearer S3CRET", failed, failed},
	} {
		for _, srv := range []struct {
			s    *Server
			want string
		}{{token, tc.withToken}, {certs, tc.withCerts}} {
			got := map[string]int{}
			for _, path := range []string{"/api/v1/namespaces", "/healthz"} {
				req := httptest.NewRequest("GET", path, nil)
				if tc.name != "absent" {
					req.Header["Authorization"] = []string{tc.header}
				}
				rec := httptest.NewRecorder()
				srv.s.Handler().ServeHTTP(rec, req)
				got[path] = rec.Code
			}
			want := map[string]int{"/api/v1/namespaces": 401, "/healthz": 401}
			switch srv.want {
			case ok:
				want = map[string]int{"/api/v1/namespaces": 200, "/healthz": 200}
			case none:
				want["/healthz"] = 200
			}
			assert.Equal(t, want, got, "%s %q (BearerToken %q)", tc.name, tc.header, srv.s.opts.BearerToken)
		}
	}
}
