package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The hostile-client catalogue, writes that must not write: server-side dry runs, options
// the server refuses, and the update rules kube-apiserver v1.36 enforces. Every case checks
// the answer and that the stored state is what it was.

const (
	jsonCT      = "application/json"
	mergeCT     = "application/merge-patch+json"
	strategicCT = "application/strategic-merge-patch+json"
	jsonPatchCT = "application/json-patch+json"
	applyCT     = "application/apply-patch+yaml"
)

// objectJSON is the part of an answer the dry-run cases look at.
type objectJSON struct {
	Metadata struct {
		Name              string            `json:"name"`
		UID               string            `json:"uid"`
		ResourceVersion   string            `json:"resourceVersion"`
		CreationTimestamp string            `json:"creationTimestamp"`
		DeletionTimestamp string            `json:"deletionTimestamp"`
		Labels            map[string]string `json:"labels"`
		Finalizers        []string          `json:"finalizers"`
	} `json:"metadata"`
	Spec struct {
		Finalizers []string `json:"finalizers"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase"`
	} `json:"status"`
	Items []objectJSON `json:"items"`
}

func (r response) object(t *testing.T) objectJSON {
	t.Helper()
	var o objectJSON
	r.decode(t, &o)
	return o
}

// dryRunWorld is a server with pod a, pod held (a finalizer keeps it), configmaps cm1 and
// cm2, and namespace team holding pod t1.
func dryRunWorld(t *testing.T) (*Server, *client) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	held := pod("default", "held", nil)
	held.Finalizers = []string{"example.com/hold"}
	mustCreate(t, s, "pods", "default", held)
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm1"}})
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm2"}})
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}})
	mustCreate(t, s, "pods", "team", pod("team", "t1", nil))
	return s, c
}

// requireNoTrace runs op and checks it stored nothing: every collection lists the same
// bytes, the revision did not move, and watches opened before op see as their first event
// the marker writes made after it, so op sent no event.
func requireNoTrace(t *testing.T, s *Server, c *client, op func()) {
	t.Helper()
	before := serverState(t, c)
	rv := s.ResourceVersion()
	watches := map[string]*stream{}
	for _, res := range []string{"pods", "configmaps", "namespaces"} {
		watches[res] = c.watch(fmt.Sprintf("/api/v1/%s?watch=1&resourceVersion=%d", res, rv))
	}
	op()
	requireUnchanged(t, c, before)
	require.Equal(t, rv, s.ResourceVersion(), "a dry run consumed a resourceVersion")
	mustCreate(t, s, "pods", "default", pod("default", "marker", nil))
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "marker"}})
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "marker"}})
	for res, w := range watches {
		ev := w.next()
		assert.Equal(t, "ADDED", ev.Type, "%s: first event after the dry run", res)
		_, _, name, _, _ := ev.meta(t)
		assert.Equal(t, "marker", name, "%s: first event after the dry run", res)
	}
}

func TestCh01_HostileDryRun(t *testing.T) {
	const pods = "/api/v1/namespaces/default/pods"
	newPod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"new"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		ctype  string
		code   int
		check  func(t *testing.T, s *Server, o objectJSON)
	}{
		{"create", "POST", pods + "?dryRun=All", newPod, jsonCT, 201, func(t *testing.T, _ *Server, o objectJSON) {
			assert.Equal(t, "new", o.Metadata.Name)
			assert.NotEmpty(t, o.Metadata.UID, "the uid is filled in as on a real create")
			assert.NotEmpty(t, o.Metadata.CreationTimestamp)
			assert.Empty(t, o.Metadata.ResourceVersion, "nothing was stored, so there is no resourceVersion")
			assert.Equal(t, "Pending", o.Status.Phase, "defaulting ran")
		}},
		{"create with generateName", "POST", pods + "?dryRun=All",
			`{"metadata":{"generateName":"gen-"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`, jsonCT, 201,
			func(t *testing.T, _ *Server, o objectJSON) {
				assert.True(t, strings.HasPrefix(o.Metadata.Name, "gen-") && len(o.Metadata.Name) == len("gen-")+5, o.Metadata.Name)
			}},
		{"create namespace", "POST", "/api/v1/namespaces?dryRun=All", `{"metadata":{"name":"fresh"}}`, jsonCT, 201,
			func(t *testing.T, _ *Server, o objectJSON) {
				assert.Equal(t, []string{api.FinalizerKubernetes}, o.Spec.Finalizers)
				assert.Equal(t, "Active", o.Status.Phase)
			}},
		{"create invalid", "POST", pods + "?dryRun=All", `{"metadata":{"name":"Bad_Name"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 422, nil},
		{"create existing", "POST", pods + "?dryRun=All", `{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 409, nil},
		{"create in a missing namespace", "POST", "/api/v1/namespaces/nope/pods?dryRun=All", newPod, jsonCT, 404, nil},
		{"update", "PUT", "/api/v1/namespaces/default/configmaps/cm1?dryRun=All", `{"metadata":{"name":"cm1","labels":{"x":"y"}}}`, jsonCT, 200,
			func(t *testing.T, s *Server, o objectJSON) {
				assert.Equal(t, map[string]string{"x": "y"}, o.Metadata.Labels)
				assert.Equal(t, getRV(t, s, "configmaps", "default", "cm1"), o.Metadata.ResourceVersion, "the answer keeps the stored RV")
			}},
		{"update stale", "PUT", pods + "/a?dryRun=All", `{"metadata":{"name":"a","resourceVersion":"1"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 409, nil},
		{"update status", "PUT", pods + "/a/status?dryRun=All", `{"metadata":{"name":"a"},"status":{"phase":"Running"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, 200,
			func(t *testing.T, _ *Server, o objectJSON) { assert.Equal(t, "Running", o.Status.Phase) }},
		{"merge patch", "PATCH", pods + "/a?dryRun=All", `{"metadata":{"labels":{"x":"y"}}}`, mergeCT, 200,
			func(t *testing.T, _ *Server, o objectJSON) {
				assert.Equal(t, map[string]string{"x": "y"}, o.Metadata.Labels)
			}},
		{"strategic patch", "PATCH", pods + "/a?dryRun=All", `{"metadata":{"labels":{"x":"y"}}}`, strategicCT, 200,
			func(t *testing.T, _ *Server, o objectJSON) {
				assert.Equal(t, map[string]string{"x": "y"}, o.Metadata.Labels)
			}},
		{"json patch", "PATCH", pods + "/a?dryRun=All", `[{"op":"add","path":"/metadata/labels","value":{"x":"y"}}]`, jsonPatchCT, 200,
			func(t *testing.T, _ *Server, o objectJSON) {
				assert.Equal(t, map[string]string{"x": "y"}, o.Metadata.Labels)
			}},
		{"apply creating", "PATCH", pods + "/applied?dryRun=All&fieldManager=test",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"applied"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`, applyCT, 201,
			func(t *testing.T, _ *Server, o objectJSON) { assert.Empty(t, o.Metadata.ResourceVersion) }},
		{"delete", "DELETE", pods + "/a?dryRun=All", "", "", 200, nil},
		{"delete with options body", "DELETE", pods + "/a", `{"dryRun":["All"]}`, jsonCT, 200, nil},
		{"delete held by a finalizer", "DELETE", pods + "/held?dryRun=All", "", "", 200, func(t *testing.T, s *Server, o objectJSON) {
			assert.NotEmpty(t, o.Metadata.DeletionTimestamp, "the answer is the object as the delete would mark it")
			assert.Equal(t, getRV(t, s, "pods", "default", "held"), o.Metadata.ResourceVersion)
		}},
		{"deletecollection", "DELETE", "/api/v1/namespaces/default/configmaps?dryRun=All", "", "", 200, func(t *testing.T, _ *Server, o objectJSON) {
			var names []string
			for _, it := range o.Items {
				names = append(names, it.Metadata.Name)
			}
			assert.ElementsMatch(t, []string{"cm1", "cm2"}, names)
		}},
		{"delete namespace", "DELETE", "/api/v1/namespaces/team?dryRun=All", "", "", 200, func(t *testing.T, _ *Server, o objectJSON) {
			assert.Equal(t, "Terminating", o.Status.Phase)
			assert.NotEmpty(t, o.Metadata.DeletionTimestamp)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, c := dryRunWorld(t)
			requireNoTrace(t, s, c, func() {
				var header []string
				if tc.ctype != "" {
					header = []string{"Content-Type", tc.ctype}
				}
				var body any
				if tc.body != "" {
					body = tc.body
				}
				r := c.do(tc.method, tc.path, body, header...)
				require.Equal(t, tc.code, r.code, "body: %s", r.body)
				if tc.check != nil {
					tc.check(t, s, r.object(t))
				}
			})
		})
	}
}

func getRV(t *testing.T, s *Server, resource, ns, name string) string {
	t.Helper()
	obj, err := s.Get(t.Context(), resource, ns, name)
	require.NoError(t, err)
	return rvOf(t, obj)
}

// TestCh01_HostileWriteOptions: dryRun other than All, and fieldValidation other than the
// four values, are 422s naming the options of the verb, and nothing is written.
func TestCh01_HostileWriteOptions(t *testing.T) {
	const pods = "/api/v1/namespaces/default/pods"
	const dryRunBogus = `dryRun: Unsupported value: ["Bogus"]: supported values: "All"`
	const fvBogus = `fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"`
	podA := `{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`
	tests := []struct {
		name, method, path, body, ctype, msg string
	}{
		{"create dryRun", "POST", pods + "?dryRun=Bogus", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, `CreateOptions.meta.k8s.io "" is invalid: ` + dryRunBogus},
		{"update dryRun", "PUT", pods + "/a?dryRun=Bogus", podA, jsonCT, `UpdateOptions.meta.k8s.io "" is invalid: ` + dryRunBogus},
		{"patch dryRun", "PATCH", pods + "/a?dryRun=Bogus", `{}`, mergeCT, `PatchOptions.meta.k8s.io "" is invalid: ` + dryRunBogus},
		{"delete dryRun", "DELETE", pods + "/a?dryRun=Bogus", "", "", `DeleteOptions.meta.k8s.io "" is invalid: ` + dryRunBogus},
		{"deletecollection dryRun", "DELETE", pods + "?dryRun=Bogus", "", "", `DeleteOptions.meta.k8s.io "" is invalid: ` + dryRunBogus},
		{"dryRun All and Bogus", "POST", pods + "?dryRun=All&dryRun=Bogus", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT,
			`CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","Bogus"]: supported values: "All"`},
		{"create fieldValidation", "POST", pods + "?fieldValidation=Bogus", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT, `CreateOptions.meta.k8s.io "" is invalid: ` + fvBogus},
		{"update fieldValidation", "PUT", pods + "/a?fieldValidation=Bogus", podA, jsonCT, `UpdateOptions.meta.k8s.io "" is invalid: ` + fvBogus},
		{"patch fieldValidation", "PATCH", pods + "/a?fieldValidation=Bogus", `{}`, mergeCT, `PatchOptions.meta.k8s.io "" is invalid: ` + fvBogus},
		{"both, in the real order", "PUT", pods + "/a?fieldValidation=Bogus&dryRun=Bogus", podA, jsonCT,
			`UpdateOptions.meta.k8s.io "" is invalid: [` + dryRunBogus + `, ` + fvBogus + `]`},
		{"force on a merge patch", "PATCH", pods + "/a?force=true", `{}`, mergeCT,
			`PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`},
		{"apply without fieldManager", "PATCH", pods + "/a", `{}`, applyCT,
			`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		{"fieldManager too long", "POST", pods + "?fieldManager=" + strings.Repeat("m", 129), `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, jsonCT,
			`CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newServer(t, Options{})
			mustCreate(t, s, "pods", "default", pod("default", "a", nil))
			before := serverState(t, c)
			var header []string
			if tc.ctype != "" {
				header = []string{"Content-Type", tc.ctype}
			}
			var body any
			if tc.body != "" {
				body = tc.body
			}
			assertStatus(t, c.do(tc.method, tc.path, body, header...), http.StatusUnprocessableEntity, api.StatusReasonInvalid, tc.msg, true)
			requireUnchanged(t, c, before)
		})
	}
}

// TestCh01_HostileNewFinalizerWhileDeleting: once deletion has begun no finalizer may be
// added (ValidateObjectMetaAccessorUpdate); removing one is allowed.
func TestCh01_HostileNewFinalizerWhileDeleting(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	held := pod("default", "held", nil)
	held.Finalizers = []string{"example.com/one"}
	mustCreate(t, s, "pods", "default", held)
	require.Equal(t, http.StatusOK, c.do("DELETE", "/api/v1/namespaces/default/pods/held", nil).code)
	before := serverState(t, c)

	r := c.do("PATCH", "/api/v1/namespaces/default/pods/held",
		`{"metadata":{"finalizers":["example.com/one","example.com/two","example.com/three"]}}`, "Content-Type", mergeCT)
	assertStatus(t, r, http.StatusUnprocessableEntity, api.StatusReasonInvalid,
		`Pod "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/three", "example.com/two"}`, true)
	requireUnchanged(t, c, before)

	r = c.do("PATCH", "/api/v1/namespaces/default/pods/held", `{"metadata":{"finalizers":null}}`, "Content-Type", mergeCT)
	require.Equal(t, http.StatusOK, r.code, "removing the finalizer: %s", r.body)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/default/pods/held").code, "the last finalizer gone, the pod goes")
}

// TestCh01_HostileUpdateResourceVersion: "0" in an update's body means none (an
// unconditional update, as "" does); a value that is not a uint64 is the parser's error as
// a 500 without a reason, which is what kube-apiserver answers.
func TestCh01_HostileUpdateResourceVersion(t *testing.T) {
	s, c := newServer(t, Options{})
	// A ConfigMap: a pod's PUT must repeat what admission added to its spec.
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "a"}})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	before := serverState(t, c)
	body := func(rv string) string {
		return `{"metadata":{"name":"a","resourceVersion":"` + rv + `","labels":{"v":"1"}}}`
	}
	r := c.do("PUT", "/api/v1/namespaces/default/configmaps/a", body("abc"), "Content-Type", jsonCT)
	assertStatus(t, r, http.StatusInternalServerError, api.StatusReasonUnknown, `strconv.ParseUint: parsing "abc": invalid syntax`, true)
	requireUnchanged(t, c, before)

	old := getRV(t, s, "configmaps", "default", "a")
	r = c.do("PUT", "/api/v1/namespaces/default/configmaps/a", body("0"), "Content-Type", jsonCT)
	require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
	o := r.object(t)
	assert.Equal(t, map[string]string{"v": "1"}, o.Metadata.Labels)
	assert.NotEqual(t, old, o.Metadata.ResourceVersion, "the update was written")
}
