package rest

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

var (
	podsGVR        = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

func newTestClient(t *testing.T, host string) *RESTClient {
	t.Helper()
	c, err := RESTClientFor(&Config{Host: host})
	require.NoError(t, err)
	return c
}

func ptr[T any](v T) *T { return &v }

// encode is what the client sends for obj: the Scheme's JSON, kind and apiVersion filled in.
func encode(t *testing.T, obj api.Object) string {
	t.Helper()
	b, err := api.DefaultScheme.Encode(obj)
	require.NoError(t, err)
	require.Contains(t, string(b), `"kind":"Pod","apiVersion":"v1"`)
	return string(b)
}

// recorded is one request as the server saw it.
type recorded struct {
	Method, Path, Query, ContentType, Accept, Auth, UserAgent, Body string
}

// recorder answers every request with status/contentType/body and records it.
type recorder struct {
	mu          sync.Mutex
	reqs        []recorded
	status      int
	contentType string
	body        string
	header      http.Header
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Accept: r.Header.Get("Accept"), Auth: r.Header.Get("Authorization"),
		UserAgent: r.Header.Get("User-Agent"), Body: string(b)})
	status, ct, body := rec.status, rec.contentType, rec.body
	for k, vs := range rec.header {
		w.Header()[k] = vs
	}
	rec.mu.Unlock()
	if status == 0 {
		status = http.StatusOK
	}
	if ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func (rec *recorder) last(t *testing.T) recorded {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	require.NotEmpty(t, rec.reqs)
	return rec.reqs[len(rec.reqs)-1]
}

const podListJSON = `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1043","continue":"tok"},"items":[{"metadata":{"name":"a","namespace":"demo","resourceVersion":"1001"}}]}`

// U1–U4: the URL of each kind of request.
func TestCh02_URLLayout(t *testing.T) {
	c, err := RESTClientFor(&Config{Host: "https://example.com:6443/prefix/"})
	require.NoError(t, err)
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"core namespaced collection", c.Get().Namespace("demo").Resource("pods"), "/prefix/api/v1/namespaces/demo/pods"},
		{"core all namespaces", c.Get().Resource("pods"), "/prefix/api/v1/pods"},
		{"core item", c.Get().Namespace("demo").Resource("pods").Name("a"), "/prefix/api/v1/namespaces/demo/pods/a"},
		{"subresource", c.Put().Namespace("demo").Resource("pods").Name("a").SubResource("status"), "/prefix/api/v1/namespaces/demo/pods/a/status"},
		{"cluster-scoped item", c.Get().Resource("namespaces").Name("demo"), "/prefix/api/v1/namespaces/demo"},
		{"group collection", c.ForGroupVersion(api.GroupVersion{Group: "apps", Version: "v1"}).Get().Namespace("demo").Resource("deployments"), "/prefix/apis/apps/v1/namespaces/demo/deployments"},
		{"group all namespaces", c.ForGroupVersion(api.GroupVersion{Group: "apps", Version: "v1"}).Get().Resource("deployments"), "/prefix/apis/apps/v1/deployments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.req.err)
			u := tc.req.URL()
			assert.Equal(t, tc.want, u.Path)
			assert.Equal(t, "example.com:6443", u.Host)
		})
	}
	assert.Equal(t, "v1", c.APIVersion().String())
	assert.Equal(t, "apps/v1", deploymentsGVR.GroupVersion().String())
	assert.Equal(t, "deployments.apps", deploymentsGVR.GroupResource().String())
}

// docs/behaviour/wire.md §8 (CG4, CG6): list options are encoded exactly as client-go's parameter codec
// encodes them: only set fields, set pointers even at 0/false, sorted keys.
func TestCh02_ListOptionsQuery(t *testing.T) {
	tests := []struct {
		name string
		opts api.ListOptions
		want string
	}{
		{name: "empty", want: ""},
		{name: "reflector first list", opts: api.ListOptions{ResourceVersion: "0", Limit: 500},
			want: "limit=500&resourceVersion=0"},
		{name: "reflector watch", opts: api.ListOptions{Watch: true, ResourceVersion: "1043", AllowWatchBookmarks: true, TimeoutSeconds: ptr[int64](342)},
			want: "allowWatchBookmarks=true&resourceVersion=1043&timeoutSeconds=342&watch=true"},
		{name: "watch-list", opts: api.ListOptions{Watch: true, AllowWatchBookmarks: true, ResourceVersionMatch: "NotOlderThan", SendInitialEvents: ptr(true), TimeoutSeconds: ptr[int64](428)},
			want: "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=428&watch=true"},
		{name: "set pointers at zero values are sent", opts: api.ListOptions{SendInitialEvents: ptr(false), TimeoutSeconds: ptr[int64](0)},
			want: "sendInitialEvents=false&timeoutSeconds=0"},
		{name: "continuation", opts: api.ListOptions{Limit: 2, Continue: "eyJ2Ijoi/+="},
			want: "continue=eyJ2Ijoi%2F%2B%3D&limit=2"},
		{name: "selectors escaped", opts: api.ListOptions{LabelSelector: "app in (a,b),!x", FieldSelector: "metadata.name=x"},
			want: "fieldSelector=metadata.name%3Dx&labelSelector=app+in+%28a%2Cb%29%2C%21x"},
	}
	c := newTestClient(t, "http://127.0.0.1:1")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, c.Get().Resource("pods").VersionedParams(&tc.opts).URL().RawQuery)
		})
	}
	assert.Equal(t, "", c.Get().Resource("pods").VersionedParams(nil).URL().RawQuery)
}

// The CRUD verbs: method, path, headers and body on the wire, and the decoded answers.
func TestCh02_CRUD(t *testing.T) {
	rec := &recorder{contentType: "application/json"}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	c, err := RESTClientFor(&Config{Host: srv.URL, BearerToken: "s3cret", UserAgent: "ch02-test/1"})
	require.NoError(t, err)
	pods := c.Resource(podsGVR).Namespace("demo")
	ctx := context.Background()
	podJSON := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"demo","resourceVersion":"7"}}`
	newPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a", ResourceVersion: "6"}}

	tests := []struct {
		name     string
		call     func() (api.Object, error)
		respBody string
		want     recorded
	}{
		{name: "list", respBody: podListJSON,
			call: func() (api.Object, error) { return pods.List(ctx, api.ListOptions{Limit: 1, Watch: true}) },
			want: recorded{Method: "GET", Path: "/api/v1/namespaces/demo/pods", Query: "limit=1"}},
		{name: "get", respBody: podJSON,
			call: func() (api.Object, error) { return pods.Get(ctx, "a") },
			want: recorded{Method: "GET", Path: "/api/v1/namespaces/demo/pods/a"}},
		{name: "create", respBody: podJSON,
			call: func() (api.Object, error) { return pods.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a"}}) },
			want: recorded{Method: "POST", Path: "/api/v1/namespaces/demo/pods", ContentType: "application/json",
				Body: encode(t, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a"}})}},
		{name: "update", respBody: podJSON,
			call: func() (api.Object, error) { return pods.Update(ctx, newPod) },
			want: recorded{Method: "PUT", Path: "/api/v1/namespaces/demo/pods/a", ContentType: "application/json",
				Body: encode(t, newPod)}},
		{name: "merge patch", respBody: podJSON,
			call: func() (api.Object, error) {
				return pods.Patch(ctx, "a", api.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`))
			},
			want: recorded{Method: "PATCH", Path: "/api/v1/namespaces/demo/pods/a", ContentType: "application/merge-patch+json",
				Body: `{"metadata":{"labels":{"x":"y"}}}`}},
		{name: "json patch", respBody: podJSON,
			call: func() (api.Object, error) {
				return pods.Patch(ctx, "a", api.JSONPatchType, []byte(`[{"op":"remove","path":"/metadata/labels/x"}]`))
			},
			want: recorded{Method: "PATCH", Path: "/api/v1/namespaces/demo/pods/a", ContentType: "application/json-patch+json",
				Body: `[{"op":"remove","path":"/metadata/labels/x"}]`}},
		{name: "strategic merge patch", respBody: podJSON,
			call: func() (api.Object, error) {
				return pods.Patch(ctx, "a", api.StrategicMergePatchType, []byte(`{"spec":{}}`))
			},
			want: recorded{Method: "PATCH", Path: "/api/v1/namespaces/demo/pods/a", ContentType: "application/strategic-merge-patch+json", Body: `{"spec":{}}`}},
		{name: "delete with options", respBody: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"pods"}}`,
			call: func() (api.Object, error) {
				return nil, pods.Delete(ctx, "a", &api.DeleteOptions{PropagationPolicy: ptr("Background")})
			},
			want: recorded{Method: "DELETE", Path: "/api/v1/namespaces/demo/pods/a", ContentType: "application/json",
				Body: `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`}},
		{name: "delete without options", respBody: podJSON,
			call: func() (api.Object, error) { return nil, pods.Delete(ctx, "a", nil) },
			want: recorded{Method: "DELETE", Path: "/api/v1/namespaces/demo/pods/a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec.mu.Lock()
			rec.body = tc.respBody
			rec.mu.Unlock()
			obj, err := tc.call()
			require.NoError(t, err)
			got := rec.last(t)
			tc.want.Accept, tc.want.Auth, tc.want.UserAgent = "application/json, */*", "Bearer s3cret", "ch02-test/1"
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			switch o := obj.(type) {
			case nil:
			case *api.PodList:
				assert.Equal(t, "1043", o.ResourceVersion)
				assert.Equal(t, "tok", o.Continue)
				assert.Equal(t, "a", o.Items[0].Name)
			case *api.Pod:
				assert.Equal(t, "7", o.ResourceVersion)
			default:
				t.Fatalf("unexpected %T", obj)
			}
		})
	}

	// Group resources and Into.
	rec.mu.Lock()
	rec.body = `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"d","namespace":"demo"}}`
	rec.mu.Unlock()
	obj, err := c.Resource(deploymentsGVR).Namespace("demo").Get(ctx, "d")
	require.NoError(t, err)
	assert.Equal(t, "/apis/apps/v1/namespaces/demo/deployments/d", rec.last(t).Path)
	assert.IsType(t, &api.Unstructured{}, obj, "no Go type for Deployment: Unstructured")

	rec.mu.Lock()
	rec.body = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}`
	rec.mu.Unlock()
	var p api.Pod
	var code int
	var created bool
	require.NoError(t, c.Get().Namespace("demo").Resource("pods").Name("a").Do(ctx).StatusCode(&code).WasCreated(&created).Into(&p))
	assert.Equal(t, "a", p.Name)
	assert.Equal(t, 200, code)
	assert.False(t, created)
	raw, err := c.Get().Resource("pods").Do(ctx).Raw()
	require.NoError(t, err)
	assert.JSONEq(t, rec.body, string(raw))
}

// S1, S6: error answers become *api.Status, the server's own when it sent one.
func TestCh02_ErrorResponses(t *testing.T) {
	notFound := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}`
	tests := []struct {
		name        string
		verb        string
		status      int
		contentType string
		body        string
		header      http.Header
		want        api.Status
	}{
		{name: "server Status kept", verb: "GET", status: 404, contentType: "application/json", body: notFound,
			want: api.Status{Code: 404, Reason: api.StatusReasonNotFound, Message: `pods "x" not found`}},
		{name: "Status without apiVersion", verb: "GET", status: 410, contentType: "application/json",
			body: `{"kind":"Status","status":"Failure","reason":"Expired","code":410,"message":"too old"}`,
			want: api.Status{Code: 410, Reason: api.StatusReasonExpired, Message: "too old"}},
		{name: "plain text 404 (Go mux)", verb: "GET", status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n",
			want: api.Status{Code: 404, Reason: api.StatusReasonNotFound, Message: "the server could not find the requested resource (get pods x)"}},
		{name: "409 on POST is AlreadyExists", verb: "POST", status: 409, contentType: "text/html", body: "<html>conflict</html>",
			want: api.Status{Code: 409, Reason: api.StatusReasonAlreadyExists, Message: "the server reported a conflict (post pods x)"}},
		{name: "409 on PUT is Conflict", verb: "PUT", status: 409, body: "",
			want: api.Status{Code: 409, Reason: api.StatusReasonConflict, Message: "the server reported a conflict (put pods x)"}},
		{name: "JSON that is not a Status", verb: "GET", status: 500, contentType: "application/json", body: `{"oops":true}`,
			want: api.Status{Code: 500, Reason: api.StatusReasonInternalError, Message: `an error on the server ("unknown") has prevented the request from succeeding (get pods x)`}},
		{name: "text 500 keeps the text", verb: "GET", status: 502, contentType: "text/plain", body: "bad gateway",
			want: api.Status{Code: 502, Reason: api.StatusReasonInternalError, Message: `an error on the server ("bad gateway") has prevented the request from succeeding (get pods x)`}},
		{name: "success Status on an error code is not trusted", verb: "GET", status: 403, contentType: "application/json",
			body: `{"kind":"Status","apiVersion":"v1","status":"Success"}`,
			want: api.Status{Code: 403, Reason: api.StatusReasonForbidden, Message: "unknown (get pods x)"}},
		{name: "429 with Retry-After", verb: "GET", status: 429, contentType: "text/plain", body: "slow down", header: http.Header{"Retry-After": {"3"}},
			want: api.Status{Code: 429, Reason: api.StatusReasonTooManyRequests, Message: "the server has received too many requests and has asked us to try again later (get pods x)"}},
		{name: "422", verb: "PATCH", status: 422, want: api.Status{Code: 422, Reason: api.StatusReasonInvalid, Message: "the server rejected our request due to an error in our request (patch pods x)"}},
		{name: "401", verb: "GET", status: 401, want: api.Status{Code: 401, Reason: api.StatusReasonUnauthorized, Message: "the server has asked for the client to provide credentials (get pods x)"}},
		{name: "unknown 4xx", verb: "GET", status: 418, want: api.Status{Code: 418, Message: "the server responded with the status code 418 but did not return more information (get pods x)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&recorder{status: tc.status, contentType: tc.contentType, body: tc.body, header: tc.header})
			defer srv.Close()
			c := newTestClient(t, srv.URL)
			// MaxRetries(0): the 429 and 5xx rows would otherwise be retried (with_retry_test.go).
			_, err := c.Verb(tc.verb).Namespace("demo").Resource("pods").Name("x").MaxRetries(0).Do(context.Background()).Get()
			require.Error(t, err)
			st, ok := err.(*api.Status)
			require.True(t, ok, "want *api.Status, got %T", err)
			got := api.Status{Code: st.Code, Reason: st.Reason, Message: st.Message}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, api.StatusFailure, st.Status)
			if tc.header != nil {
				assert.Equal(t, int32(3), st.Details.RetryAfterSeconds)
			}
		})
	}
}

// A 200 carrying a failure Status is still an error; bad bodies are clear errors.
func TestCh02_SuccessBodies(t *testing.T) {
	tests := []struct {
		name, contentType, body, wantErr string
	}{
		{name: "failure Status in a 200", contentType: "application/json",
			body:    `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nope","reason":"BadRequest","code":400}`,
			wantErr: "nope"},
		{name: "broken protobuf answer", contentType: "application/vnd.kubernetes.protobuf", body: "k8s\x00", wantErr: `decoding the protobuf response of GET /api/v1/pods: protobuf: envelope without kind or apiVersion`},
		{name: "YAML answer", contentType: "application/yaml", body: "kind: Pod", wantErr: `response Content-Type "application/yaml" is not JSON`},
		{name: "empty body", contentType: "application/json", body: "", wantErr: "0-length response"},
		{name: "garbage", contentType: "application/json", body: "{{{", wantErr: "decoding the response of GET /api/v1/pods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&recorder{contentType: tc.contentType, body: tc.body})
			defer srv.Close()
			c := newTestClient(t, srv.URL)
			_, err := c.Get().Resource("pods").Do(context.Background()).Get()
			require.ErrorContains(t, err, tc.wantErr)
			err = c.Get().Resource("pods").Do(context.Background()).Into(&api.PodList{})
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
	// A body without kind cannot be decoded blind, but decodes into a typed target, as in
	// client-go.
	noKind := httptest.NewServer(&recorder{contentType: "application/json", body: `{"metadata":{"resourceVersion":"9"}}`})
	defer noKind.Close()
	_, err := newTestClient(t, noKind.URL).Get().Resource("pods").Do(context.Background()).Get()
	require.ErrorContains(t, err, "object 'Kind' is missing")
	var l api.PodList
	require.NoError(t, newTestClient(t, noKind.URL).Get().Resource("pods").Do(context.Background()).Into(&l))
	assert.Equal(t, "9", l.ResourceVersion)

	// A success Status is not an error.
	srv := httptest.NewServer(&recorder{contentType: "application/json", body: `{"kind":"Status","apiVersion":"v1","status":"Success"}`})
	defer srv.Close()
	obj, err := newTestClient(t, srv.URL).Delete().Resource("configmaps").Name("c").Do(context.Background()).Get()
	require.NoError(t, err)
	assert.Equal(t, api.StatusSuccess, obj.(*api.Status).Status)
}

// Bad input to the builder or the config is a clear error, never a panic, and no request
// is sent.
func TestCh02_BadInput(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	tests := []struct {
		name    string
		req     *Request
		wantErr string
	}{
		{"empty name", c.Get().Resource("pods").Name(""), "resource name may not be empty"},
		{"name with slash", c.Get().Resource("pods").Name("a/b"), `invalid resource name "a/b"`},
		{"dot-dot namespace", c.Get().Namespace("..").Resource("pods"), `invalid namespace ".."`},
		{"empty resource", c.Get().Resource(""), "resource may not be empty"},
		{"percent in subresource", c.Get().Resource("pods").Name("a").SubResource("st%61tus"), "invalid subresource"},
		{"unsupported body", c.Post().Resource("pods").Body(42), "unsupported request body type int"},
		{"nil object body", c.Post().Resource("pods").Body((*api.Pod)(nil)), "cannot encode a nil object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.req.Do(ctx).Get()
			require.ErrorContains(t, err, tc.wantErr)
			_, err = tc.req.Watch(ctx)
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
	assert.Empty(t, rec.reqs, "no request was sent")
	_, err := c.Resource(podsGVR).Update(ctx, &api.Status{})
	require.ErrorContains(t, err, "has no metadata")

	configs := []struct {
		name    string
		cfg     *Config
		wantErr string
	}{
		{"nil", nil, "needs a Config"},
		{"no host", &Config{}, "Host must be set"},
		{"bad scheme", &Config{Host: "ftp://x"}, "scheme must be http or https"},
		{"query", &Config{Host: "https://x/?a=b"}, "must not carry a query"},
		{"unparsable", &Config{Host: "https://[::1"}, "invalid Config.Host"},
		{"insecure with CA", &Config{Host: "https://x", Insecure: true, CAData: []byte("x")}, "insecure flag is not allowed"},
		{"CA not PEM", &Config{Host: "https://x", CAData: []byte("not pem")}, "no PEM certificate"},
		{"negative timeout", &Config{Host: "https://x", Timeout: -1}, "Timeout must not be negative"},
		{"negative frame", &Config{Host: "https://x", MaxWatchFrameBytes: -1}, "MaxWatchFrameBytes must not be negative"},
	}
	for _, tc := range configs {
		t.Run("config "+tc.name, func(t *testing.T) {
			_, err := RESTClientFor(tc.cfg)
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
	// A bare host:port means https, as in client-go.
	c2, err := RESTClientFor(&Config{Host: "10.0.0.1:6443"})
	require.NoError(t, err)
	assert.Equal(t, "https://10.0.0.1:6443/api/v1/pods", c2.Get().Resource("pods").URL().String())
}

// Config.Timeout bounds a request (but not a watch).
func TestCh02_Timeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c, err := RESTClientFor(&Config{Host: srv.URL, Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	_, err = c.Get().Resource("pods").Do(context.Background()).Get()
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// TLS with CA data and a bearer token, as a kubeconfig for a real cluster gives them.
func TestCh02_TLSWithCAAndToken(t *testing.T) {
	rec := &recorder{contentType: "application/json", body: podListJSON}
	srv := httptest.NewTLSServer(rec)
	defer srv.Close()
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})

	c, err := RESTClientFor(&Config{Host: srv.URL, CAData: caPEM, BearerToken: "tok-123"})
	require.NoError(t, err)
	obj, err := c.Resource(podsGVR).List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1043", obj.(*api.PodList).ResourceVersion)
	assert.Equal(t, "Bearer tok-123", rec.last(t).Auth)

	// Without the CA the certificate is not trusted …
	c, err = RESTClientFor(&Config{Host: srv.URL})
	require.NoError(t, err)
	_, err = c.Resource(podsGVR).List(context.Background(), api.ListOptions{})
	require.ErrorContains(t, err, "certificate")

	// … unless verification is skipped.
	c, err = RESTClientFor(&Config{Host: srv.URL, Insecure: true})
	require.NoError(t, err)
	_, err = c.Resource(podsGVR).List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
}

// A server that is gone: connection refused is an error (the reflector backs off on it).
func TestCh02_WatchConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	_, err := newTestClient(t, addr).Resource(podsGVR).Watch(context.Background(), api.ListOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connect")
}

// The encoded DeleteOptions body is valid JSON with every field the caller set.
func TestCh02_DeleteOptionsBody(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1")
	r := c.Delete().Resource("pods").Name("a").Body(&api.DeleteOptions{GracePeriodSeconds: ptr[int64](0),
		Preconditions: &api.Preconditions{ResourceVersion: ptr("5")}})
	require.NoError(t, r.err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(r.body, &got))
	assert.Equal(t, map[string]any{"kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": float64(0),
		"preconditions": map[string]any{"resourceVersion": "5"}}, got)
	assert.True(t, strings.HasPrefix(r.contentType, "application/json"))
}

// LW-3: a list result exposes its items, its resourceVersion and its continue token, typed
// or unstructured.
func TestCh02_LW3_ListResult(t *testing.T) {
	for _, scheme := range []*api.Scheme{nil, api.NewScheme()} {
		srv := httptest.NewServer(&recorder{contentType: "application/json", body: podListJSON})
		c, err := RESTClientFor(&Config{Host: srv.URL, Scheme: scheme})
		require.NoError(t, err)
		obj, err := c.Resource(podsGVR).List(context.Background(), api.ListOptions{Limit: 1})
		srv.Close()
		require.NoError(t, err)
		l, ok := obj.(api.ListObject)
		require.True(t, ok, "%T", obj)
		assert.Equal(t, "1043", l.GetResourceVersion())
		assert.Equal(t, "tok", l.GetContinue())
		items := l.GetItems()
		require.Len(t, items, 1)
		m, err := api.Accessor(items[0])
		require.NoError(t, err)
		assert.Equal(t, "a", m.GetName())
	}
}
