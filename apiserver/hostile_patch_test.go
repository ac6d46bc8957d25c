package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The hostile-client catalogue, strategic merge patch directives with values of the wrong
// shape. Each answer is what kube-apiserver v1.37 (apimachinery strategicpatch v0.37.2)
// gives, and the stored state is checked to be what it was.

// smpHostileServer starts a server holding pod default/a with finalizers and labels, the
// fields the directives below aim at.
func smpHostileServer(t *testing.T) *client {
	t.Helper()
	s, c := newServer(t, Options{})
	p := pod("default", "a", map[string]string{"app": "web"})
	p.Finalizers = []string{"example.com/x", "example.com/y"}
	mustCreate(t, s, "pods", "default", p)
	return c
}

// TestCh01_HostileSMPDeleteFromPrimitiveListString: a $deleteFromPrimitiveList whose value is
// a string, not a list, deletes nothing. Upstream's mergeMap skips a deletion list whose value
// has another JSON type than the list it names, so the real server answers 200 with the pod
// as it was, writes nothing and keeps the resourceVersion; so does this one. The other
// non-list shapes go the same way.
func TestCh01_HostileSMPDeleteFromPrimitiveListString(t *testing.T) {
	const ctSMP = "application/strategic-merge-patch+json"
	c := smpHostileServer(t)
	before := serverState(t, c)
	stored := c.get("/api/v1/namespaces/default/pods/a")
	require.Equal(t, http.StatusOK, stored.code)
	var want map[string]any
	stored.decode(t, &want)

	for _, tc := range []struct{ name, body string }{
		{"a string", `{"metadata":{"$deleteFromPrimitiveList/finalizers":"example.com/y"}}`},
		{"a number", `{"metadata":{"$deleteFromPrimitiveList/finalizers":1}}`},
		{"an object", `{"metadata":{"$deleteFromPrimitiveList/finalizers":{"example.com/y":true}}}`},
		{"a bool", `{"metadata":{"$deleteFromPrimitiveList/finalizers":true}}`},
		{"a string naming a map", `{"metadata":{"$deleteFromPrimitiveList/labels":"app"}}`},
		{"a string naming a list of objects", `{"spec":{"$deleteFromPrimitiveList/containers":"c"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(http.MethodPatch, "/api/v1/namespaces/default/pods/a", tc.body, "Content-Type", ctSMP)
			require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
			var got map[string]any
			r.decode(t, &got)
			assert.Equal(t, want, got, "the pod comes back as it was, resourceVersion included")
			requireUnchanged(t, c, before)
		})
	}
}

// TestCh01_HostileSMPDirectives: the sibling directives with a value or a name of the wrong
// shape. Upstream refuses each with the text of its strategicpatch error: 400 for the errors
// the patch handler maps to BadRequest, else a 500 with no reason (the handler passes a plain
// error on). Nothing is written.
func TestCh01_HostileSMPDirectives(t *testing.T) {
	const ctSMP = "application/strategic-merge-patch+json"
	c := smpHostileServer(t)
	before := serverState(t, c)

	for _, tc := range []struct {
		name, body string
		code       int
		reason     api.StatusReason
		msg        string
	}{
		{"$setElementOrder of a field the type lacks", `{"spec":{"$setElementOrder/bogus":[]}}`, 500, api.StatusReasonUnknown,
			`unable to find api field in struct PodSpec for the json field "bogus"`},
		{"$setElementOrder of a field in a list element", `{"spec":{"containers":[{"name":"c","$setElementOrder/bogus":[]}]}}`, 500, api.StatusReasonUnknown,
			`unable to find api field in struct Container for the json field "bogus"`},
		{"$setElementOrder of a field that is no list", `{"spec":{"$setElementOrder/nodeName":[]}}`, 500, api.StatusReasonUnknown,
			"expected slice or array type, but got: struct"},
		{"$setElementOrder inside a map", `{"metadata":{"labels":{"$setElementOrder/x":[]}}}`, 500, api.StatusReasonUnknown,
			"merging an object in json but data type is not struct, instead is: map"},
		{"$setElementOrder a string", `{"metadata":{"$setElementOrder/finalizers":"example.com/x"}}`, 500, api.StatusReasonUnknown,
			"expected a []interface {}, but received a string"},
		{"$setElementOrder an integer", `{"spec":{"$setElementOrder/containers":1}}`, 500, api.StatusReasonUnknown,
			"expected a []interface {}, but received a int64"},
		{"$setElementOrder without a slash", `{"metadata":{"$setElementOrderfinalizers":[]}}`, 400, api.StatusReasonBadRequest,
			"invalid patch format of setElementOrder list"},
		{"$retainKeys a string", `{"metadata":{"$retainKeys":"name"}}`, 400, api.StatusReasonBadRequest,
			"invalid patch format of retainKeys"},
		{"$retainKeys null", `{"metadata":{"$retainKeys":null}}`, 400, api.StatusReasonBadRequest,
			"invalid patch format of retainKeys"},
		{"$deleteFromPrimitiveList without a slash", `{"metadata":{"$deleteFromPrimitiveListfinalizers":["example.com/x"]}}`, 400, api.StatusReasonBadRequest,
			"invalid patch format of primitive list"},
		{"$patch a number", `{"metadata":{"$patch":1}}`, 500, api.StatusReasonUnknown,
			"unknown patch type: %!s(int64=1) in map: map[$patch:1]"},
		{"$patch null in a list element", `{"spec":{"containers":[{"name":"c","$patch":null}]}}`, 500, api.StatusReasonUnknown,
			"unknown patch type: %!s(<nil>) in map: map[$patch:<nil> name:c]"},
		{"$patch an unknown word", `{"metadata":{"labels":{"$patch":"bogus"}}}`, 500, api.StatusReasonUnknown,
			"unknown patch type: bogus in map: map[$patch:bogus]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(http.MethodPatch, "/api/v1/namespaces/default/pods/a", tc.body, "Content-Type", ctSMP)
			assertStatus(t, r, tc.code, tc.reason, tc.msg, true)
			requireUnchanged(t, c, before)
		})
	}
}
