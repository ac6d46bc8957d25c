package apiserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// runningPod creates a pod and makes it Running and Ready through its status, as a kubelet
// would.
func runningPod(t *testing.T, c *client, name string) {
	t.Helper()
	r := c.do("POST", "/api/v1/namespaces/default/pods",
		`{"metadata":{"name":"`+name+`","labels":{"app":"db"}},"spec":{"containers":[{"name":"c","image":"postgres"}]}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	r = c.do("PATCH", "/api/v1/namespaces/default/pods/"+name+"/status",
		`{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
}

// budgetStatus writes a PodDisruptionBudget's status, as the disruption controller would.
func budgetStatus(t *testing.T, c *client, name, status string) {
	t.Helper()
	r := c.do("PATCH", "/apis/policy/v1/namespaces/default/poddisruptionbudgets/"+name+"/status", `{"status":`+status+`}`,
		"Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
}

func evict(c *client, name, extra string) response {
	return c.do("POST", "/api/v1/namespaces/default/pods/"+name+"/eviction",
		`{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"`+name+`"}`+extra+`}`)
}

// causeOf returns the DisruptionBudget cause's message of a refused eviction.
func causeOf(t *testing.T, r response) string {
	t.Helper()
	st := r.status(t)
	require.NotNil(t, st.Details, "%s", r.body)
	require.Len(t, st.Details.Causes, 1)
	assert.Equal(t, api.CauseType("DisruptionBudget"), st.Details.Causes[0].Type)
	assert.Equal(t, "Cannot evict pod as it would violate the pod's disruption budget.", st.Message)
	return st.Details.Causes[0].Message
}

// TestCh01_PodEvictionHonoursBudget checks the eviction subresource as EvictionREST
// answers: a budget whose status is not current refuses (429, Retry-After 10); one that
// allows a disruption lets the pod go, marked DisruptionTarget first, and takes the
// disruption; then it refuses with the reason; a pod that is not running needs no budget.
func TestCh01_PodEvictionHonoursBudget(t *testing.T) {
	s, c := newServer(t, Options{})
	runningPod(t, c, "db-0")
	runningPod(t, c, "db-1")
	mustCreate(t, s, "pods", "default", pod("default", "pending", map[string]string{"app": "db"}))
	r := c.do("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
		`{"metadata":{"name":"db"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"db"}}}}`)
	require.Equal(t, 201, r.code, "%s", r.body)

	r = evict(c, "db-0", "")
	require.Equal(t, 429, r.code, "%s", r.body)
	assert.Equal(t, "10", r.header.Get("Retry-After"))
	assert.Equal(t, "The disruption budget db is still being processed by the server.", causeOf(t, r))

	budgetStatus(t, c, "db", `{"observedGeneration":1,"disruptionsAllowed":1,"currentHealthy":2,"desiredHealthy":1,"expectedPods":2}`)
	w := c.watch("/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3Ddb-0&resourceVersion=" + rvString(s))
	r = evict(c, "db-0", "")
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}`, string(r.body))
	ev := w.next()
	assert.Equal(t, "MODIFIED", ev.Type)
	var marked struct {
		Status struct {
			Conditions []map[string]any `json:"conditions"`
		} `json:"status"`
	}
	require.NoError(t, json.Unmarshal(ev.Object, &marked))
	require.Len(t, marked.Status.Conditions, 2)
	assert.Equal(t, map[string]any{"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI",
		"message": "Eviction API: evicting", "lastProbeTime": nil, "lastTransitionTime": marked.Status.Conditions[1]["lastTransitionTime"]},
		marked.Status.Conditions[1])
	assert.Equal(t, "DELETED", w.next().Type)

	var pdb struct {
		Status struct {
			DisruptionsAllowed int64             `json:"disruptionsAllowed"`
			DisruptedPods      map[string]string `json:"disruptedPods"`
			Conditions         []map[string]any  `json:"conditions"`
		} `json:"status"`
	}
	c.get("/apis/policy/v1/namespaces/default/poddisruptionbudgets/db").decode(t, &pdb)
	assert.Equal(t, int64(0), pdb.Status.DisruptionsAllowed)
	assert.Contains(t, pdb.Status.DisruptedPods, "db-0")
	require.Len(t, pdb.Status.Conditions, 1)
	assert.Equal(t, "InsufficientPods", pdb.Status.Conditions[0]["reason"])
	assert.Equal(t, "False", pdb.Status.Conditions[0]["status"])

	r = evict(c, "db-1", "")
	require.Equal(t, 429, r.code, "%s", r.body)
	assert.Empty(t, r.header.Get("Retry-After"))
	assert.Equal(t, "The disruption budget db does not allow evicting pods currently", causeOf(t, r))
	budgetStatus(t, c, "db", `{"currentHealthy":1}`)
	assert.Equal(t, "The disruption budget db needs 1 healthy pods and has 1 currently", causeOf(t, evict(c, "db-1", "")))

	r = evict(c, "pending", "")
	require.Equal(t, 201, r.code, "a pending pod needs no budget: %s", r.body)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/default/pods/pending").code)
	_, err := s.Get(context.Background(), "pods", "default", "db-1")
	require.NoError(t, err, "the refused pod stays")
}

// TestCh01_PodEvictionOptions checks what an Eviction's deleteOptions and the request may
// say: preconditions, dry runs, and the errors of a bad eviction.
func TestCh01_PodEvictionOptions(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "p", nil))
	tests := []struct {
		name, pod, extra, query string
		code                    int
		message                 string
	}{
		{"name mismatch", "p", `,"metadata":{"name":"q"}`, "", 400, "name in URL does not match name in Eviction object"},
		{"uid precondition", "p", `,"deleteOptions":{"preconditions":{"uid":"x"}}`, "", 409,
			`Operation cannot be fulfilled on Pod "p": the UID in the precondition (x) does not match the UID in record (` +
				storedPod(t, s, "p").GetUID() + `). The object might have been deleted and then recreated`},
		{"dry runs that differ", "p", `,"deleteOptions":{"dryRun":["Bad"]}`, "?dryRun=All", 500,
			"Non-matching dry-run options in request and content: [All] and [Bad]"},
		{"store read errors", "p", `,"deleteOptions":{"ignoreStoreReadErrorWithClusterBreakingPotential":true}`, "", 422,
			`Eviction.policy "p" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option`},
		{"no pod", "nope", "", "", 404, `pods "nope" not found`},
		{"dry run", "p", "", "?dryRun=All", 201, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"` + tt.pod + `"}` + tt.extra + `}`
			if tt.name == "name mismatch" {
				body = `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"q"}}`
			}
			r := c.do("POST", "/api/v1/namespaces/default/pods/"+tt.pod+"/eviction"+tt.query, body)
			require.Equal(t, tt.code, r.code, "%s", r.body)
			assert.Equal(t, tt.message, r.status(t).Message)
		})
	}
	_, err := s.Get(context.Background(), "pods", "default", "p")
	require.NoError(t, err, "nothing above deleted the pod")

	// Two budgets over one running pod: a Failure Status as the result, with the create's 201.
	runningPod(t, c, "db")
	for _, n := range []string{"one", "two"} {
		r := c.do("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
			`{"metadata":{"name":"`+n+`"},"spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"db"}}}}`)
		require.Equal(t, 201, r.code, "%s", r.body)
	}
	r := evict(c, "db", "")
	require.Equal(t, 201, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, api.StatusFailure, st.Status)
	assert.Equal(t, int32(500), st.Code)
	assert.Equal(t, "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", st.Message)
}
