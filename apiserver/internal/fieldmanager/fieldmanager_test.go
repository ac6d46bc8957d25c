package fieldmanager

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_SSA_CreateOwnershipMatchesReference: the managedFields of `kubectl create` of a
// Deployment, byte for byte as the reference server stored them (testdata captured from
// it): no "." under f:containers or f:strategy, which the zero Deployment already holds.
func TestCh01_SSA_CreateOwnershipMatchesReference(t *testing.T) {
	var tc struct {
		Object   map[string]any `json:"object"`
		FieldsV1 string         `json:"fieldsV1"`
		Manager  string         `json:"manager"`
	}
	readTestdata(t, "create-deployment.json", &tc)
	raw, err := json.Marshal(tc.Object)
	require.NoError(t, err)
	f := deploymentManager(t)
	out, err := f.Update(nil, obj(t, string(raw)), tc.Manager, "", at(0))
	require.NoError(t, err)
	e := entriesOf(t, out)
	require.Len(t, e, 1)
	assert.Equal(t, entrySummary{tc.Manager, "Update", "apps/v1", "", "2026-01-02T03:04:00Z", tc.FieldsV1}, e[0])
}

const aliceReplicas = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}`

// TestCh01_SSA_ReplicasConflict is the first scenario: Alice applies replicas 2, Bob
// applies replicas 5 and gets the real 409; with force Bob takes the field and Alice
// keeps the rest.
func TestCh01_SSA_ReplicasConflict(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Apply(nil, obj(t, aliceReplicas), "alice", "", false, at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)
	bob := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":5}}`
	_, err = f.Apply(live, obj(t, bob), "bob", "", false, at(2))
	var st *api.Status
	require.ErrorAs(t, err, &st)
	assert.Equal(t, int32(http.StatusConflict), st.Code)
	assert.Equal(t, api.StatusReasonConflict, st.Reason)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "alice": .spec.replicas`, st.Message)
	assert.Equal(t, []api.StatusCause{{Type: CauseTypeFieldManagerConflict, Message: `conflict with "alice"`, Field: ".spec.replicas"}}, st.Details.Causes)

	forced, err := f.Apply(live, obj(t, bob), "bob", "", true, at(3))
	require.NoError(t, err)
	assert.EqualValues(t, 5, forced.Object["spec"].(map[string]any)["replicas"])
	e := entriesOf(t, forced)
	require.Len(t, e, 2)
	assert.Equal(t, "alice", e[0].Manager)
	assert.NotContains(t, e[0].Fields, "f:replicas")
	assert.Equal(t, "bob", e[1].Manager)
	assert.Equal(t, `{"f:spec":{"f:replicas":{}}}`, e[1].Fields)
}

// TestCh01_SSA_DroppedLabelRemoved is the second scenario: Alice applies labels a and b,
// someone labels c with an update, Alice re-applies with a only: b goes, c stays.
func TestCh01_SSA_DroppedLabelRemoved(t *testing.T) {
	f := deploymentManager(t)
	withLabels := func(labels string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":` + labels + `}}`
	}
	live, err := f.Apply(nil, obj(t, withLabels(`{"a":"1","b":"2"}`)), "alice", "", false, at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)
	labelled := roundTrip(t, live)
	labelled.Object["metadata"].(map[string]any)["labels"].(map[string]any)["c"] = "3"
	live, err = f.Update(live, labelled, "kubectl-label", "", at(2))
	require.NoError(t, err)
	live = roundTrip(t, live)
	live, err = f.Apply(live, obj(t, withLabels(`{"a":"1"}`)), "alice", "", false, at(3))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "1", "c": "3"}, live.Object["metadata"].(map[string]any)["labels"])
	e := entriesOf(t, live)
	require.Len(t, e, 2)
	assert.Equal(t, entrySummary{"alice", "Apply", "apps/v1", "", "2026-01-02T03:04:03Z", `{"f:metadata":{"f:labels":{"f:a":{}}}}`}, e[0])
	assert.Equal(t, entrySummary{"kubectl-label", "Update", "apps/v1", "", "2026-01-02T03:04:02Z", `{"f:metadata":{"f:labels":{"f:c":{}}}}`}, e[1])
}
