package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_DeletePropagation: without a garbage collector, a Foreground or Orphan delete
// keeps the object with the collector's finalizer and answers 200 with it; Background and
// kinds that take no part delete at once; batch/v1 Jobs orphan by default (and are warned);
// a later delete may switch or drop the finalizer, as kube-apiserver's store does.
func TestCh01_DeletePropagation(t *testing.T) {
	_, c := newServer(t, Options{})
	const cms = "/api/v1/namespaces/default/configmaps"
	const jobs = "/apis/batch/v1/namespaces/default/jobs"
	const events = "/api/v1/namespaces/default/events"
	type step struct {
		body       string
		wantCode   int
		finalizers []string // nil: the object is gone after the step
		warning    bool
	}
	cases := []struct {
		name   string
		coll   string
		create string
		steps  []step
	}{
		{"background", cms, `{"metadata":{"name":"bg"}}`, []step{{`{"propagationPolicy":"Background"}`, 200, nil, false}}},
		{"no-policy", cms, `{"metadata":{"name":"none"}}`, []step{{"", 200, nil, false}}},
		{"foreground", cms, `{"metadata":{"name":"fg"}}`, []step{
			{`{"propagationPolicy":"Foreground"}`, 200, []string{"foregroundDeletion"}, false},
			{`{"propagationPolicy":"Foreground"}`, 200, []string{"foregroundDeletion"}, false},
			{`{"propagationPolicy":"Orphan"}`, 200, []string{"orphan"}, false},
			{`{"propagationPolicy":"Background"}`, 200, nil, false},
		}},
		{"orphan-keeps-other-finalizers", cms, `{"metadata":{"name":"of","finalizers":["example.com/x"]}}`, []step{
			{`{"orphanDependents":true}`, 200, []string{"example.com/x", "orphan"}, false},
		}},
		{"both-set", cms, `{"metadata":{"name":"both"}}`, []step{
			{`{"orphanDependents":true,"propagationPolicy":"Orphan"}`, 422, []string{}, false},
		}},
		{"job-default-orphans", jobs, `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`, []step{
			{"", 200, []string{"orphan"}, true},
			{`{"propagationPolicy":"Background"}`, 200, nil, false},
		}},
		{"events-take-no-part", events, `{"metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"}}`, []step{
			{`{"propagationPolicy":"Foreground"}`, 200, nil, false},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.coll, tc.create)
			require.Equal(t, 201, r.code, "%s", r.body)
			var created map[string]any
			r.decode(t, &created)
			item := tc.coll + "/" + created["metadata"].(map[string]any)["name"].(string)
			gen := created["metadata"].(map[string]any)["generation"]
			for i, s := range tc.steps {
				var body any
				if s.body != "" {
					body = s.body
				}
				r := c.do("DELETE", item, body)
				require.Equal(t, s.wantCode, r.code, "step %d: %s", i, r.body)
				assert.Equal(t, s.warning, r.header.Get("Warning") != "", "step %d: warning %q", i, r.header.Get("Warning"))
				if s.wantCode != 200 {
					continue
				}
				var got map[string]any
				require.NoError(t, json.Unmarshal(r.body, &got))
				if s.finalizers == nil {
					assert.Equal(t, "Status", got["kind"], "step %d answers a Status", i)
					assert.Equal(t, 404, c.get(item).code, "step %d: gone", i)
					continue
				}
				md := got["metadata"].(map[string]any)
				var fins []string
				for _, f := range md["finalizers"].([]any) {
					fins = append(fins, f.(string))
				}
				assert.Equal(t, s.finalizers, fins, "step %d", i)
				assert.NotNil(t, md["deletionTimestamp"], "step %d", i)
				assert.EqualValues(t, 0, md["deletionGracePeriodSeconds"], "step %d", i)
				if g, ok := gen.(float64); ok {
					assert.EqualValues(t, g+1, md["generation"], "step %d: markAsDeleting bumps the generation once", i)
				}
				assert.Equal(t, 200, c.get(item).code, "step %d: kept", i)
			}
		})
	}
}

// TestCh01_NamespaceDeletionByController: by default the server leaves a deleted namespace
// to the namespace controller, as kube-apiserver does: DELETE marks it Terminating and keeps
// spec.finalizers and the contents; another DELETE changes nothing; the finalize
// subresource without "kubernetes" lets it go.
func TestCh01_NamespaceDeletionByController(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, 201, c.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`).code)
	require.Equal(t, 201, c.do("POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"c"}}`).code)
	for i := range 2 {
		r := c.do("DELETE", "/api/v1/namespaces/team", nil)
		require.Equal(t, 200, r.code, "%s", r.body)
		var ns map[string]any
		r.decode(t, &ns)
		assert.Equal(t, "Terminating", ns["status"].(map[string]any)["phase"], "delete %d", i)
		assert.Equal(t, []any{"kubernetes"}, ns["spec"].(map[string]any)["finalizers"], "delete %d", i)
		assert.NotNil(t, ns["metadata"].(map[string]any)["deletionTimestamp"])
	}
	assert.Equal(t, 200, c.get("/api/v1/namespaces/team/configmaps/c").code, "the contents stay")
	assert.Equal(t, 403, c.do("POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"d"}}`).code)
	require.Equal(t, 200, c.do("DELETE", "/api/v1/namespaces/team/configmaps/c", nil).code)
	r := c.get("/api/v1/namespaces/team")
	require.Equal(t, 200, r.code, "emptied, but not finalized")
	var ns map[string]any
	r.decode(t, &ns)
	ns["spec"] = map[string]any{"finalizers": []any{}}
	require.Equal(t, 200, c.do("PUT", "/api/v1/namespaces/team/finalize", ns).code)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/team").code, "finalized: gone")
}
