package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// TestCh01_BadInputTable is the end-to-end E-table of docs/behaviour/wire.md §10 over HTTP: every row that
// applies to our kinds, with its code, reason and message. Afterwards the server still
// serves and its revision has not moved: no failed request wrote anything. (The pure parsing
// behind E1–E7, E23–E40 and E48 is table-tested in decode_test.go, params_test.go,
// continue_test.go and the patch tests; E7, which succeeds, is TestCh01_E7_UnknownFieldWarning;
// E9 is etcd's limit, which we do not have; E43 is TestCh01_E43_IncludeObject in table_test.go.)
func TestCh01_BadInputTable(t *testing.T) {
	s, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	ctx := context.Background()
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "doomed"}})
	held := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}}}
	mustCreate(t, s, "configmaps", "doomed", held)
	_, err := s.Delete(ctx, "namespaces", "", "doomed", nil)
	require.NoError(t, err)
	mustCreate(t, s, "foos", "default", &api.Unstructured{Object: map[string]any{
		"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo", "metadata": map[string]any{"name": "d"}, "spec": map[string]any{"replicas": int64(1)},
	}})
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	tok := c.list(t, "/api/v1/namespaces/default/pods?limit=1").Metadata.Continue
	require.NotEmpty(t, tok)
	uid := func() string {
		p, err := s.Get(ctx, "pods", "default", "a")
		require.NoError(t, err)
		return p.(*api.Pod).UID
	}()
	bigData := strings.Repeat("x", 1<<20+1)
	bigAnn := strings.Repeat("y", 256*1024+1)
	manyOps := "[" + strings.TrimSuffix(strings.Repeat(`{"op":"test","path":"/kind","value":"Pod"},`, 10001), ",") + "]"
	const pods = "/api/v1/namespaces/default/pods"
	const json = "application/json"

	tests := []struct {
		id     string
		method string
		path   string
		body   string
		ctype  string
		code   int
		reason api.StatusReason
		msg    string // the message contains it (or equals it when exact)
		exact  bool
	}{
		{"E1", "POST", pods, `{"apiVersion":"v1","kind":"Pod",`, json, 400, api.StatusReasonBadRequest,
			"the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input", false},
		{"E2", "POST", pods, `[1,2]`, json, 400, api.StatusReasonBadRequest, "the object provided is unrecognized (must be of type Pod)", false},
		{"E3", "POST", pods, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":5}}`, json, 400, api.StatusReasonBadRequest,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string`, false},
		{"E4", "POST", pods, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`, json, 400, api.StatusReasonBadRequest,
			`ConfigMap in version "v1" cannot be handled as a Pod`, false},
		{"E5", "POST", pods, `{"apiVersion":"apps/v1","kind":"Pod","metadata":{"name":"x"}}`, json, 400, api.StatusReasonBadRequest,
			"the API version in the data (apps/v1) does not match the expected API version (v1)", true},
		{"E6", "POST", pods + "?fieldValidation=Strict", `{"metadata":{"name":"x"},"spec":{"bogus":1,"containers":[]}}`, json, 400, api.StatusReasonBadRequest,
			`strict decoding error: unknown field "spec.bogus"`, false},
		{"E8", "POST", pods, `{"metadata":{"name":"big","annotations":{"a":"` + strings.Repeat("z", 3<<20) + `"}}}`, json, 413, api.StatusReasonRequestEntityTooLarge,
			"Request entity too large: limit is 3145728", true},
		{"E10", "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"big"},"data":{"k":"` + bigData + `"}}`, json, 422, api.StatusReasonInvalid,
			`ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes`, false},
		{"E11", "POST", pods, `{"metadata":{"name":"ann","annotations":{"a":"` + bigAnn + `"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 422, api.StatusReasonInvalid,
			`Pod "ann" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`, false},
		{"E12", "POST", pods, `{"metadata":{"name":"Bad_Name"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 422, api.StatusReasonInvalid,
			`Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of`, false},
		{"E13", "POST", "/api/v1/namespaces", `{"metadata":{"name":"Bad_NS"}}`, json, 422, api.StatusReasonInvalid,
			`Namespace "Bad_NS" is invalid: metadata.name: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of`, false},
		{"E14", "POST", pods, `{"metadata":{"name":"` + strings.Repeat("a", 254) + `"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 422, api.StatusReasonInvalid, "Pod \"" + strings.Repeat("a", 254) + "\" is invalid: metadata.name: Invalid value:", false},
		{"E15", "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{}}`, json, 422, api.StatusReasonInvalid,
			`ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required`, true},
		{"E16", "POST", pods, `{"metadata":{"name":"l","labels":{"k":"v@l"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 422, api.StatusReasonInvalid, `Pod "l" is invalid: metadata.labels: Invalid value`, false},
		{"E17", "PUT", pods + "/a", `{"metadata":{"name":"b"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 400, api.StatusReasonBadRequest,
			"the name of the object (b) does not match the name on the URL (a)", true},
		{"E18", "POST", pods, `{"metadata":{"name":"x","namespace":"kube-system"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 400, api.StatusReasonBadRequest,
			"the namespace of the provided object does not match the namespace sent on the request", true},
		{"E19", "POST", pods, `{"metadata":{"name":"x","resourceVersion":"5"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 500, api.StatusReasonUnknown,
			"resourceVersion should not be set on objects to be created", true},
		{"E20", "PUT", pods + "/a", `{"metadata":{"name":"a","resourceVersion":"1"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 409, api.StatusReasonConflict,
			`Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again`, true},
		{"E21", "POST", pods, "k8s\x00proto", "application/yaml", 415, api.StatusReasonUnsupportedMediaType,
			"the body of the request was in an unknown format - accepted media types include: application/json, application/vnd.kubernetes.protobuf", true},
		{"E21 protobuf that is not a message", "POST", pods, "k8s\x00proto", "application/vnd.kubernetes.protobuf", 400, api.StatusReasonBadRequest,
			"the object provided is unrecognized (must be of type Pod): protobuf: illegal wire type 7 (6b38730070726f746f)", true},
		{"E22", "PATCH", pods + "/a", `{}`, "text/plain", 415, api.StatusReasonUnsupportedMediaType,
			"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml", true},
		{"E22 SMP on a registered kind", "PATCH", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/d", `{"spec":{}}`, "application/strategic-merge-patch+json", 415, api.StatusReasonUnsupportedMediaType,
			"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", true},
		{"E23 merge", "PATCH", pods + "/a", `{not json`, "application/merge-patch+json", 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"E23 json-patch", "PATCH", pods + "/a", `[{not json`, "application/json-patch+json", 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"E23 strategic", "PATCH", pods + "/a", `{not json`, "application/strategic-merge-patch+json", 400, api.StatusReasonBadRequest, "invalid JSON patch", true},
		{"E24", "PATCH", pods + "/a", `[{"op":"test","path":"/metadata/name","value":"zzz"}]`, "application/json-patch+json", 422, api.StatusReasonInvalid,
			"the server rejected our request due to an error in our request", true},
		{"E25", "PATCH", pods + "/a", `{"metadata":{"name":"a"}}`, "application/apply-patch+yaml", 422, api.StatusReasonInvalid,
			`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, true},
		{"E26", "GET", pods + "?resourceVersion=abc", "", "", 400, api.StatusReasonBadRequest,
			`invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`, true},
		{"E26 -1", "GET", pods + "?resourceVersion=-1", "", "", 400, api.StatusReasonBadRequest,
			`invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax`, true},
		{"E27 watch (sim: 400)", "GET", pods + "?watch=true&resourceVersion=abc", "", "", 400, api.StatusReasonBadRequest, `resourceVersion: Invalid value: "abc": strconv.ParseUint`, false},
		{"E27 GET (sim: 400)", "GET", pods + "/a?resourceVersion=abc", "", "", 400, api.StatusReasonBadRequest, `resourceVersion: Invalid value: "abc": strconv.ParseUint`, false},
		{"E28 limit", "GET", pods + "?limit=abc", "", "", 400, api.StatusReasonBadRequest, `strconv.ParseInt: parsing "abc": invalid syntax`, true},
		{"E28 timeoutSeconds", "GET", pods + "?watch=1&timeoutSeconds=x", "", "", 400, api.StatusReasonBadRequest, `strconv.ParseInt: parsing "x": invalid syntax`, true},
		{"E29", "GET", pods + "?labelSelector=a+b", "", "", 400, api.StatusReasonBadRequest,
			"unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt", false},
		{"E30", "GET", pods + "?fieldSelector=a", "", "", 400, api.StatusReasonBadRequest, "invalid selector: 'a'; can't understand 'a'", true},
		{"E31 pods", "GET", pods + "?fieldSelector=spec.bogus%3Dx", "", "", 400, api.StatusReasonBadRequest, "field label not supported: spec.bogus", true},
		{"E31 watch", "GET", pods + "?watch=1&fieldSelector=spec.bogus%3Dx", "", "", 400, api.StatusReasonBadRequest, "field label not supported: spec.bogus", true},
		{"E31 configmaps", "GET", "/api/v1/configmaps?fieldSelector=data.k%3Dx", "", "", 400, api.StatusReasonBadRequest,
			`"data.k" is not a known field selector: only "metadata.name", "metadata.namespace"`, true},
		{"E31 namespaces", "GET", "/api/v1/namespaces?fieldSelector=metadata.namespace%3Dx", "", "", 400, api.StatusReasonBadRequest, "field label not supported: metadata.namespace", true},
		{"E32", "GET", pods + "?resourceVersionMatch=NotOlderThan", "", "", 422, api.StatusReasonInvalid,
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`, true},
		{"E33", "GET", pods + "?resourceVersionMatch=Exact&resourceVersion=0", "", "", 422, api.StatusReasonInvalid,
			`resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`, false},
		{"E34", "GET", pods + "?resourceVersionMatch=Bogus&resourceVersion=1", "", "", 422, api.StatusReasonInvalid, `resourceVersionMatch: Unsupported value: "Bogus"`, false},
		{"E35", "GET", pods + "?sendInitialEvents=true", "", "", 422, api.StatusReasonInvalid, `sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`, false},
		{"E36", "GET", pods + "?watch=1&sendInitialEvents=true", "", "", 422, api.StatusReasonInvalid,
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`, true},
		{"E37", "GET", pods + "?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1", "", "", 422, api.StatusReasonInvalid,
			`resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`, false},
		{"E38", "GET", pods + "?continue=" + tok + "&resourceVersionMatch=NotOlderThan&resourceVersion=1", "", "", 422, api.StatusReasonInvalid, "resourceVersionMatch: Forbidden", false},
		{"E39", "GET", pods + "?limit=1&continue=" + tok + "&resourceVersion=3", "", "", 400, api.StatusReasonBadRequest, "specifying resource version is not allowed when using continue", true},
		{"E40", "GET", pods + "?limit=1&continue=bm90LWEtdG9rZW4", "", "", 400, api.StatusReasonBadRequest, "invalid continue token: continue key is not valid", false},
		{"E42", "GET", "/api/v1/watch/namespaces/default/pods/a?fieldSelector=metadata.name%3Db", "", "", 400, api.StatusReasonBadRequest,
			"fieldSelector metadata.name doesn't match requested name", true},
		{"E44 missing", "POST", "/api/v1/namespaces/nope/pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 404, api.StatusReasonNotFound, `namespaces "nope" not found`, true},
		{"E44 terminating", "POST", "/api/v1/namespaces/doomed/pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 403, api.StatusReasonForbidden,
			`pods "x" is forbidden: unable to create new content in namespace doomed because it is being terminated`, true},
		{"E45", "DELETE", "/api/v1/namespaces/default", "", "", 403, api.StatusReasonForbidden, `namespaces "default" is forbidden: this namespace may not be deleted`, true},
		{"E45 kube-system", "DELETE", "/api/v1/namespaces/kube-system", "", "", 403, api.StatusReasonForbidden, `namespaces "kube-system" is forbidden: this namespace may not be deleted`, true},
		{"E46", "POST", "/api/v1/pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 405, api.StatusReasonMethodNotAllowed, "the server does not allow this method on the requested resource", true},
		{"E46 item POST", "POST", pods + "/a", `{}`, json, 405, api.StatusReasonMethodNotAllowed, "the server does not allow this method on the requested resource", true},
		{"E47", "DELETE", pods + "/a", `{"preconditions":{"uid":"not-it"}}`, json, 409, api.StatusReasonConflict,
			`Operation cannot be fulfilled on pods "a": Precondition failed: UID in precondition: not-it, UID in object meta: ` + uid, true},
		{"E47 rv", "DELETE", pods + "/a", `{"preconditions":{"resourceVersion":"1"}}`, json, 409, api.StatusReasonConflict, `Operation cannot be fulfilled on pods "a": Precondition failed: ResourceVersion in precondition: 1`, false},
		{"E48", "PATCH", pods + "/a", manyOps, "application/json-patch+json", 413, api.StatusReasonRequestEntityTooLarge,
			"Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001", true},
		{"U9 unknown resource", "GET", "/api/v1/widgets", "", "", 404, api.StatusReasonNotFound, "the server could not find the requested resource", true},
		{"P4 update missing", "PUT", pods + "/ghost", `{"metadata":{"name":"ghost"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, json, 404, api.StatusReasonNotFound, `pods "ghost" not found`, true},
		{"X5 patch missing", "PATCH", pods + "/ghost", `{}`, "application/merge-patch+json", 404, api.StatusReasonNotFound, `pods "ghost" not found`, true},
		{"D4 delete missing", "DELETE", "/api/v1/namespaces/default/configmaps/cfg", "", "", 404, api.StatusReasonNotFound, `configmaps "cfg" not found`, true},
		{"U8 get in missing namespace", "GET", "/api/v1/namespaces/nope/pods/a", "", "", 404, api.StatusReasonNotFound, `pods "a" not found`, true},
		{"group not found", "GET", "/apis/apps/v1/namespaces/default/deployments/zz", "", "", 404, api.StatusReasonNotFound, `deployments.apps "zz" not found`, true},
	}
	before := s.ResourceVersion()
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			var body any
			if tt.body != "" {
				body = tt.body
			}
			hdr := []string{}
			if tt.ctype != "" {
				hdr = append(hdr, "Content-Type", tt.ctype)
			}
			r := c.do(tt.method, tt.path, body, hdr...)
			require.Equal(t, tt.code, r.code, "body: %.300s", r.body)
			st := r.status(t)
			assert.Equal(t, "Status", st.Kind)
			assert.Equal(t, "v1", st.APIVersion)
			assert.Equal(t, api.StatusFailure, st.Status)
			assert.Equal(t, int32(tt.code), st.Code)
			assert.Equal(t, tt.reason, st.Reason)
			if tt.exact {
				assert.Equal(t, tt.msg, st.Message)
			} else {
				assert.Contains(t, st.Message, tt.msg)
			}
		})
	}
	assert.Equal(t, before, s.ResourceVersion(), "no failed request may write")
	// Still serving.
	assert.Equal(t, 200, c.get(pods).code)
}

// TestCh01_StatusDetails checks S1: details name the resource for NotFound, AlreadyExists
// and Conflict, the Kind for Invalid; Retry-After goes with retryAfterSeconds.
func TestCh01_StatusDetails(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	r := c.get("/api/v1/namespaces/default/pods/zz")
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"zz\" not found","reason":"NotFound","details":{"name":"zz","kind":"pods"},"code":404}`, string(r.body))
	r = c.do("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	require.Equal(t, http.StatusConflict, r.code)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonAlreadyExists, st.Reason)
	assert.Equal(t, `pods "a" already exists`, st.Message)
	assert.Equal(t, &api.StatusDetails{Name: "a", Kind: "pods"}, st.Details)
	r = c.do("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"B"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	st = r.status(t)
	assert.Equal(t, "Pod", st.Details.Kind)
	require.Len(t, st.Details.Causes, 1)
	assert.Equal(t, "metadata.name", st.Details.Causes[0].Field)
	assert.Equal(t, api.CauseTypeFieldValueInvalid, st.Details.Causes[0].Type)
}

// TestCh01_PanicBecomes500 checks §6/§10's "the server goes on": a panicking handler answers a
// 500 Status without a stack trace, and the next request is served.
func TestCh01_PanicBecomes500(t *testing.T) {
	s, c := newServer(t, Options{})
	s.table.Get("", "pods").Info.FieldSet = func(api.Object) fields.Set { panic("boom") }
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	r := c.get("/api/v1/pods?fieldSelector=spec.nodeName%3Dx")
	require.Equal(t, 500, r.code)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonInternalError, st.Reason)
	assert.NotContains(t, st.Message, "goroutine")
	assert.Equal(t, 200, c.get("/api/v1/pods").code)
	assert.Equal(t, 200, c.get(fmt.Sprintf("/api/v1/namespaces/default/pods/%s", "a")).code)
}
