package fieldmanager

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

func setLabel(t testing.TB, u *api.Unstructured, k, v string) *api.Unstructured {
	t.Helper()
	c := roundTrip(t, u)
	md := c.Object["metadata"].(map[string]any)
	l, _ := md["labels"].(map[string]any)
	if l == nil {
		l = map[string]any{}
		md["labels"] = l
	}
	l[k] = v
	return c
}

// TestCh01_SSA_ConflictsWithSeveralManagers: the message and causes the reference server
// gave for an apply that takes a label from kubectl-label and replicas from kubectl's scale
// subresource (managers sorted by identifier, the subresource and apiVersion printed).
func TestCh01_SSA_ConflictsWithSeveralManagers(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"multi","labels":{"a":"1"}},
		"spec":{"replicas":2,"selector":{"matchLabels":{"app":"m"}},"template":{"metadata":{"labels":{"app":"m"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`),
		"alice", "", false, at(1))
	require.NoError(t, err)
	live, err = f.Update(roundTrip(t, live), setLabel(t, live, "a", "2"), "kubectl-label", "", at(2))
	require.NoError(t, err)
	scaled := roundTrip(t, live)
	scaled.Object["spec"].(map[string]any)["replicas"] = int64(4)
	live, err = f.Update(roundTrip(t, live), scaled, "kubectl", "scale", at(3))
	require.NoError(t, err)
	_, err = f.Apply(roundTrip(t, live), obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"multi","labels":{"a":"3"}},"spec":{"replicas":3}}`),
		"carol", "", false, at(4))
	var st *api.Status
	require.ErrorAs(t, err, &st)
	assert.Equal(t, "Apply failed with 2 conflicts: conflicts with \"kubectl\" with subresource \"scale\" using apps/v1:\n- .spec.replicas\nconflicts with \"kubectl-label\" using apps/v1:\n- .metadata.labels.a", st.Message)
	assert.Equal(t, []api.StatusCause{
		{Type: CauseTypeFieldManagerConflict, Message: `conflict with "kubectl" with subresource "scale" using apps/v1`, Field: ".spec.replicas"},
		{Type: CauseTypeFieldManagerConflict, Message: `conflict with "kubectl-label" using apps/v1`, Field: ".metadata.labels.a"},
	}, st.Details.Causes)
}

// TestCh01_SSA_CapUpdateManagers: past ten Update managers, the oldest merge into one
// "ancient-changes" entry (taking the time of the last one merged); Apply entries never do.
func TestCh01_SSA_CapUpdateManagers(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"applied":"x"}}}`), "applier", "", false, at(0))
	require.NoError(t, err)
	for i := 1; i <= 12; i++ {
		live, err = f.Update(roundTrip(t, live), setLabel(t, live, fmt.Sprintf("l%02d", i), "x"), fmt.Sprintf("m%02d", i), "", at(i))
		require.NoError(t, err)
	}
	e := entriesOf(t, live)
	var names []string
	for _, x := range e {
		names = append(names, x.Manager+"@"+x.Time[len(x.Time)-3:len(x.Time)-1])
	}
	assert.Equal(t, []string{"applier@00", "ancient-changes@03", "m04@04", "m05@05", "m06@06", "m07@07", "m08@08", "m09@09", "m10@10", "m11@11", "m12@12"}, names)
	assert.Equal(t, `{"f:metadata":{"f:labels":{"f:l01":{},"f:l02":{},"f:l03":{}}}}`, e[1].Fields)
}

// TestCh01_SSA_ManagedFieldsFromTheRequest: an update's own entries count when valid; the
// reset marker (an empty list, or one empty entry) drops them all, and with nothing
// managed the write is not tracked; invalid ones fall back to the live object's.
func TestCh01_SSA_ManagedFieldsFromTheRequest(t *testing.T) {
	f := deploymentManager(t)
	base, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","uid":"u1","labels":{"a":"1"}}}`), "alice", "", false, at(1))
	require.NoError(t, err)
	base = roundTrip(t, base)
	tests := []struct {
		name    string
		entries any
		want    []string
	}{
		{"kept from live when absent", nil, []string{"alice", "bob"}},
		{"reset by an empty list", []any{}, nil},
		{"reset by one empty entry", []any{map[string]any{}}, nil},
		{"invalid operation falls back to live", []any{map[string]any{"manager": "x", "operation": "Bogus", "apiVersion": "apps/v1", "fieldsType": "FieldsV1"}}, []string{"alice", "bob"}},
		{"valid entries replace live's", []any{map[string]any{"manager": "zed", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{"f:a": map[string]any{}}}}}}, []string{"bob", "zed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := setLabel(t, base, "b", "2")
			md := req.Object["metadata"].(map[string]any)
			delete(md, "managedFields")
			if tt.entries != nil {
				md["managedFields"] = tt.entries
			}
			out, err := f.Update(base, req, "bob", "", at(2))
			require.NoError(t, err)
			var got []string
			for _, e := range entriesOf(t, out) {
				got = append(got, e.Manager)
			}
			assert.ElementsMatch(t, tt.want, got)
		})
	}
	// On a subresource the request's entries never count.
	req := setLabel(t, base, "b", "2")
	req.Object["metadata"].(map[string]any)["managedFields"] = []any{}
	out, err := f.Update(base, req, "bob", "status", at(2))
	require.NoError(t, err)
	e := entriesOf(t, out)
	require.Len(t, e, 2)
	assert.Equal(t, entrySummary{"bob", "Update", "apps/v1", "status", "2026-01-02T03:04:02Z", `{"f:metadata":{"f:labels":{"f:b":{}}}}`}, e[1])
}

// TestCh01_SSA_ApplyRequestChecks: the 400s of an apply patch of the wrong kind, version or
// with managedFields, and an applied object the type refuses.
func TestCh01_SSA_ApplyRequestChecks(t *testing.T) {
	f := deploymentManager(t)
	tests := []struct{ body, want string }{
		{`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"w"}}`, "invalid object type: apps/v1, Kind=StatefulSet"},
		{`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","managedFields":[{"manager":"x"}]}}`, "metadata.managedFields must be nil"},
	}
	for _, tt := range tests {
		_, err := f.Apply(nil, obj(t, tt.body), "m", "", false, at(1))
		var st *api.Status
		require.ErrorAs(t, err, &st, tt.body)
		assert.Equal(t, int32(http.StatusBadRequest), st.Code)
		assert.Equal(t, tt.want, st.Message)
	}
	_, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","finalizers":["a","a"]}}`), "m", "", false, at(1))
	require.Error(t, err)
	assert.Equal(t, `failed to create typed patch object (/w; apps/v1, Kind=Deployment): .metadata.finalizers: duplicate entries for key [="a"]`, err.Error())
}

// TestCh01_SSA_NoOpApplyKeepsTime: re-applying the same configuration changes nothing,
// not even the manager's time.
func TestCh01_SSA_NoOpApplyKeepsTime(t *testing.T) {
	f := deploymentManager(t)
	cfg := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"1"}}}`
	live, err := f.Apply(nil, obj(t, cfg), "alice", "", false, at(1))
	require.NoError(t, err)
	again, err := f.Apply(roundTrip(t, live), obj(t, cfg), "alice", "", false, at(9))
	require.NoError(t, err)
	assert.Equal(t, entriesOf(t, live), entriesOf(t, again))
}

// TestCh01_SSA_ClientSideToServerSideUpgrade: an object kubectl applied client-side (its
// last-applied annotation) can be applied server-side by kubectl without conflicts on the
// fields the annotation still describes, and the annotation follows the new configuration;
// another manager gets the conflict.
func TestCh01_SSA_ClientSideToServerSideUpgrade(t *testing.T) {
	f := deploymentManager(t)
	csa := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"1"}},"spec":{"replicas":2}}`
	created := obj(t, csa)
	created.Object["metadata"].(map[string]any)["annotations"] = map[string]any{LastAppliedConfigAnnotation: csa + "\n"}
	live, err := f.Update(nil, created, "kubectl-client-side-apply", "", at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)
	ssa := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"2"}},"spec":{"replicas":3}}`
	_, err = f.Apply(live, obj(t, ssa), "someone", "", false, at(2))
	var st *api.Status
	require.ErrorAs(t, err, &st)
	assert.True(t, strings.HasPrefix(st.Message, "Apply failed with 2 conflicts"), st.Message)
	out, err := f.Apply(live, obj(t, ssa), "kubectl", "", false, at(2))
	require.NoError(t, err)
	assert.EqualValues(t, 3, out.Object["spec"].(map[string]any)["replicas"])
	// The annotation is the applied object as encoding/json writes it: keys sorted, a newline.
	assert.Equal(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"a":"2"},"name":"w"},"spec":{"replicas":3}}`+"\n",
		out.Object["metadata"].(map[string]any)["annotations"].(map[string]any)[LastAppliedConfigAnnotation])
	e := entriesOf(t, out)
	require.Len(t, e, 2)
	assert.Equal(t, "kubectl", e[0].Manager)
	assert.Equal(t, `{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:replicas":{}}}`, e[0].Fields)
	// The client-side manager keeps the labels map it created, not the label taken over.
	assert.Equal(t, `{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}},"f:labels":{}}}`, e[1].Fields)
}

// TestCh01_SSA_ManagerNames: the name from the User-Agent and the fieldManager checks.
func TestCh01_SSA_ManagerNames(t *testing.T) {
	for ua, want := range map[string]string{
		"kubectl/v1.36.3 (linux/amd64) kubernetes/abc": "kubectl",
		"kube-controller-manager/v1.36.3":              "kube-controller-manager",
		"Go-http-client/1.1":                           "Go-http-client",
		"no-slash":                                     "no-slash",
		"tab\there/1":                                  "tabhere",
		"":                                             "",
		strings.Repeat("x", 200) + "/1":                strings.Repeat("x", 128),
		strings.Repeat("z", 128) + "/1":                strings.Repeat("z", 128),
		"del\x7f-and space~/1":                         "del-and space~",
		"bad\xffutf8/1":                                "bad\uFFFDutf8",
		"h\u00e9llo/1":                                 "h\u00e9llo",
	} {
		assert.Equal(t, want, ManagerFromUserAgent(ua), ua)
	}
	assert.Equal(t, "given", ManagerOrUserAgent("given", "kubectl/1"))
	assert.Empty(t, ValidateFieldManager("ok-name"))
	assert.Equal(t, []string{"fieldManager: Too long: may not be more than 128 bytes"}, ValidateFieldManager(strings.Repeat("y", 129)))
	assert.Equal(t, []string{`fieldManager: Invalid value: "a\tb": invalid character U+0009 (at position 1)`}, ValidateFieldManager("a\tb"))
}

// TestCh01_SSA_UnknownVersionEntriesDropped: an entry at an apiVersion the kind does not
// have is dropped at the next write, as upstream's converter drops it.
func TestCh01_SSA_UnknownVersionEntriesDropped(t *testing.T) {
	f := deploymentManager(t)
	live, err := f.Apply(nil, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"1"}}}`), "alice", "", false, at(1))
	require.NoError(t, err)
	live = roundTrip(t, live)
	entries := live.Object["metadata"].(map[string]any)["managedFields"].([]any)
	live.Object["metadata"].(map[string]any)["managedFields"] = append(entries, map[string]any{
		"manager": "old", "operation": "Update", "apiVersion": "extensions/v1beta1", "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:spec": map[string]any{"f:paused": map[string]any{}}}})
	out, err := f.Apply(live, obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"a":"1","b":"2"}}}`), "alice", "", false, at(2))
	require.NoError(t, err)
	e := entriesOf(t, out)
	require.Len(t, e, 1)
	assert.Equal(t, "alice", e[0].Manager)
}

// TestCh01_SSA_BeforeFirstApply: the first apply to an object nobody manages (its entries
// reset by an update sending [{}]) gives what is there to "before-first-apply", which the
// apply then conflicts with; forced, each keeps its part (reference server's answers).
func TestCh01_SSA_BeforeFirstApply(t *testing.T) {
	gvk := api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	typ, err := typed.ForBuiltin(gvk, "")
	require.NoError(t, err)
	f := New(typ, gvk)
	live, err := f.Update(nil, obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bfa","namespace":"default"},"data":{"j":"w","k":"v"}}`), "kubectl-create", "", at(1))
	require.NoError(t, err)
	live.Object["metadata"].(map[string]any)["uid"] = "u1" // stored
	live = roundTrip(t, live)
	reset := roundTrip(t, live)
	reset.Object["metadata"].(map[string]any)["managedFields"] = []any{map[string]any{}}
	live, err = f.Update(live, reset, "kubectl-patch", "", at(2))
	require.NoError(t, err)
	assert.Empty(t, entriesOf(t, live), "an object with reset entries is not tracked")
	live = roundTrip(t, live)

	cfg := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bfa"},"data":{"k":"v2"}}`
	_, err = f.Apply(live, obj(t, cfg), "alice", "", false, at(3))
	var st *api.Status
	require.ErrorAs(t, err, &st)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.k`, st.Message)
	out, err := f.Apply(live, obj(t, cfg), "alice", "", true, at(3))
	require.NoError(t, err)
	assert.Equal(t, []entrySummary{
		{"alice", "Apply", "v1", "", "2026-01-02T03:04:03Z", `{"f:data":{"f:k":{}}}`},
		{"before-first-apply", "Update", "v1", "", "2026-01-02T03:04:03Z", `{"f:data":{".":{},"f:j":{}}}`},
	}, entriesOf(t, out))
	assert.Equal(t, map[string]any{"j": "w", "k": "v2"}, out.Object["data"])
}

// TestCh01_SSA_GoBuiltValues: an object built with the Go setters ([]string finalizers,
// map[string]string labels, int replicas) is owned as its JSON would be.
func TestCh01_SSA_GoBuiltValues(t *testing.T) {
	f := deploymentManager(t)
	u := &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": 2}}}
	u.SetName("go")
	u.SetFinalizers([]string{"a"})
	u.SetLabels(map[string]string{"k": "v"})
	out, err := f.Update(nil, u, "builder", "", at(1))
	require.NoError(t, err)
	assert.Equal(t, `{"f:metadata":{"f:finalizers":{".":{},"v:\"a\"":{}},"f:labels":{".":{},"f:k":{}}},"f:spec":{"f:replicas":{}}}`, entriesOf(t, out)[0].Fields)
}
