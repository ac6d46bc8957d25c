package decode

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
)

func optPtr[T any](v T) *T { return &v }

func parseTestQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	return q
}

// TestCh01_ParseListOptions checks the accepted queries, including the boolean rule of
// docs/behaviour/wire.md U10 and the request lines that kubectl and client-go send (K7, K9, CG4, CG6).
func TestCh01_ParseListOptions(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		isWatch bool
		want    api.ListOptions
	}{
		{"empty", "", false, api.ListOptions{}},
		{"K7 kubectl get", "limit=500", false, api.ListOptions{Limit: 500}},
		{"CG4 watch-list", "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeout=5m42s&timeoutSeconds=342&watch=true", false,
			api.ListOptions{Watch: true, AllowWatchBookmarks: true, ResourceVersionMatch: "NotOlderThan", TimeoutSeconds: optPtr(int64(342)), SendInitialEvents: optPtr(true)}},
		{"CG6 list", "limit=500&resourceVersion=0", false, api.ListOptions{Limit: 500, ResourceVersion: "0"}},
		{"K9 single-object watch", "fieldSelector=metadata.name%3Dx&resourceVersion=0&watch=true", false,
			api.ListOptions{Watch: true, FieldSelector: "metadata.name=x", ResourceVersion: "0"}},
		{"selectors", "labelSelector=app%20in%20(a,b),!gone&fieldSelector=spec.nodeName!%3D", false,
			api.ListOptions{LabelSelector: "app in (a,b),!gone", FieldSelector: "spec.nodeName!="}},
		{"U10 watch=1", "watch=1", false, api.ListOptions{Watch: true}},
		{"U10 watch=yes", "watch=yes", false, api.ListOptions{Watch: true}},
		{"U10 watch= is true", "watch=", false, api.ListOptions{Watch: true}},
		{"U10 watch=False", "watch=False", false, api.ListOptions{}},
		{"U10 watch=0", "watch=0&allowWatchBookmarks=FALSE", false, api.ListOptions{}},
		{"U10 first value counts", "watch=false&watch=true", false, api.ListOptions{}},
		{"U6 legacy watch path", "resourceVersion=5", true, api.ListOptions{Watch: true, ResourceVersion: "5"}},
		{"sendInitialEvents=false on a watch", "watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan", false,
			api.ListOptions{Watch: true, SendInitialEvents: optPtr(false), ResourceVersionMatch: "NotOlderThan"}},
		{"continue with RV 0 is fine (L16)", "limit=2&resourceVersion=0&continue=" + continuetoken.Encode(9, "a\x00"), false,
			api.ListOptions{Limit: 2, ResourceVersion: "0", Continue: continuetoken.Encode(9, "a\x00")}},
		{"exact RV", "resourceVersion=10&resourceVersionMatch=Exact", false, api.ListOptions{ResourceVersion: "10", ResourceVersionMatch: "Exact"}},
		{"negative limit is kept", "limit=-3", false, api.ListOptions{Limit: -3}},
		{"watch ignores continue syntax", "watch=true&continue=garbage", false, api.ListOptions{Watch: true, Continue: "garbage"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseListOptions(parseTestQuery(t, tc.query), tc.isWatch)
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseListOptions(%q) mismatch (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}

// TestCh01_ParseListOptionsErrors checks E26, E28–E30 and E32–E40 with the real codes and
// messages.
func TestCh01_ParseListOptionsErrors(t *testing.T) {
	const lo = `ListOptions.meta.k8s.io "" is invalid: `
	tests := []struct {
		id      string
		query   string
		isWatch bool
		code    int32
		reason  api.StatusReason
		msg     string
	}{
		{"E26", "resourceVersion=abc", false, 400, api.StatusReasonBadRequest,
			`invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
		{"E26 negative", "resourceVersion=-1", false, 400, api.StatusReasonBadRequest,
			`invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax`},
		{"E27 watch", "watch=true&resourceVersion=abc", false, 400, api.StatusReasonBadRequest,
			`invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
		{"E28 limit", "limit=abc", false, 400, api.StatusReasonBadRequest, `strconv.ParseInt: parsing "abc": invalid syntax`},
		{"E28 timeoutSeconds", "watch=true&timeoutSeconds=x", false, 400, api.StatusReasonBadRequest, `strconv.ParseInt: parsing "x": invalid syntax`},
		{"E28 before E29", "limit=z&labelSelector=a%20b", false, 400, api.StatusReasonBadRequest, `strconv.ParseInt: parsing "z": invalid syntax`},
		{"E29", "labelSelector=a%20b", false, 400, api.StatusReasonBadRequest,
			`unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt`},
		{"E30", "fieldSelector=a", false, 400, api.StatusReasonBadRequest, `invalid selector: 'a'; can't understand 'a'`},
		{"E32", "resourceVersionMatch=NotOlderThan", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`},
		{"E33", "resourceVersionMatch=Exact&resourceVersion=0", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`},
		{"E34", "resourceVersionMatch=Bogus&resourceVersion=1", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""`},
		{"E32+E34", "resourceVersionMatch=Bogus", false, 422, api.StatusReasonInvalid,
			lo + `[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""]`},
		{"E35", "sendInitialEvents=true", false, 422, api.StatusReasonInvalid,
			lo + `sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`},
		{"E35 legacy watch path judged as a list", "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=1", true, 422, api.StatusReasonInvalid,
			lo + `sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`},
		{"E36", "watch=true&sendInitialEvents=true", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`},
		{"E36 exact", "watch=true&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=5", false, 422, api.StatusReasonInvalid,
			lo + `[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]`},
		{"E37", "watch=true&resourceVersionMatch=NotOlderThan", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided`},
		{"E38", "limit=1&resourceVersion=5&resourceVersionMatch=NotOlderThan&continue=" + continuetoken.Encode(5, "a\x00"), false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided`},
		{"E38 watch", "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=x", false, 422, api.StatusReasonInvalid,
			lo + `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided`},
		{"E39", "limit=1&resourceVersion=5&continue=" + continuetoken.Encode(5, "a\x00"), false, 400, api.StatusReasonBadRequest,
			`specifying resource version is not allowed when using continue`},
		{"E39 even for a bad RV", "resourceVersion=abc&continue=" + continuetoken.Encode(5, "a\x00"), false, 400, api.StatusReasonBadRequest,
			`specifying resource version is not allowed when using continue`},
		{"E40 before E39", "resourceVersion=5&continue=%24%24", false, 400, api.StatusReasonBadRequest,
			`invalid continue token: continue key is not valid: illegal base64 data at input byte 0`},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			_, err := ParseListOptions(parseTestQuery(t, tc.query), tc.isWatch)
			require.Error(t, err)
			var st *api.Status
			require.ErrorAs(t, err, &st)
			assert.Equal(t, tc.code, st.Code)
			assert.Equal(t, tc.reason, st.Reason)
			assert.Equal(t, tc.msg, st.Message)
			assert.Equal(t, "Status", st.Kind)
			if tc.code == 422 {
				assert.Equal(t, "ListOptions", st.Details.Kind)
				assert.Equal(t, "meta.k8s.io", st.Details.Group)
				assert.NotEmpty(t, st.Details.Causes)
			}
		})
	}
}

func TestCh01_ParseResourceVersion(t *testing.T) {
	for in, want := range map[string]uint64{"": 0, "0": 0, "1": 1, "18446744073709551615": 1<<64 - 1} {
		got, err := ParseResourceVersion(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"abc", "-1", "1.5", " 1", "18446744073709551616", "0x10"} {
		_, err := ParseResourceVersion(bad)
		assert.True(t, api.IsBadRequest(err), "%q: %v", bad, err)
	}
	_, err := ParseResourceVersion("18446744073709551616")
	assert.EqualError(t, err, `invalid resource version: resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range`)
}

// TestCh01_E31_FieldSelectorFields checks the per-kind texts of docs/behaviour/wire.md L19.
func TestCh01_E31_FieldSelectorFields(t *testing.T) {
	podFields := []string{"metadata.name", "metadata.namespace", "spec.nodeName", "status.phase"}
	nsFields := []string{"metadata.name", "status.phase"}
	defFields := []string{"metadata.name", "metadata.namespace"}
	tests := []struct {
		kind, selector string
		allowed        []string
		msg            string
	}{
		{"Pod", "spec.nodeName=a,status.phase!=Running", podFields, ""},
		{"Pod", "spec.bogus=a", podFields, "field label not supported: spec.bogus"},
		{"Pod", "z.first=a,b.second=b", podFields, "field label not supported: b.second"},
		{"Namespace", "metadata.namespace=x", nsFields, "field label not supported: metadata.namespace"},
		{"ConfigMap", "data.k=v", defFields, `"data.k" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"Deployment", "spec.replicas=1", defFields, `"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"Node", "spec.bogus=a", defFields, "field label not supported: spec.bogus"},
		{"Service", "spec.ports=a", defFields, "field label not supported: spec.ports"},
		{"Job", "spec.parallelism=1", defFields, `field label "spec.parallelism" not supported for Job`},
		{"ResourceSlice", "spec.pool=p", []string{"metadata.name", "spec.driver", "spec.nodeName"},
			"field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: spec.pool"},
		{"ResourceSlice", "spec.driver=d,spec.nodeName=n", []string{"metadata.name", "spec.driver", "spec.nodeName"}, ""},
		{"ConfigMap", "", defFields, ""},
	}
	for _, tc := range tests {
		t.Run(tc.kind+" "+tc.selector, func(t *testing.T) {
			sel, err := fields.ParseSelector(tc.selector)
			require.NoError(t, err)
			err = ValidateFieldSelectorFields(sel, tc.allowed, tc.kind)
			if tc.msg == "" {
				assert.NoError(t, err)
				return
			}
			assert.True(t, api.IsBadRequest(err))
			assert.EqualError(t, err, tc.msg)
		})
	}
	assert.NoError(t, ValidateFieldSelectorFields(nil, nil, "Pod"))
}

// TestCh01_ParseDeleteOptions checks docs/behaviour/wire.md D1 and K12.
func TestCh01_ParseDeleteOptions(t *testing.T) {
	meta := api.TypeMeta{Kind: "DeleteOptions", APIVersion: "meta.k8s.io/v1"}
	tests := []struct {
		name  string
		query string
		body  string
		want  api.DeleteOptions
	}{
		{"empty", "", "", api.DeleteOptions{TypeMeta: meta}},
		{"K12 kubectl body", "", `{"propagationPolicy":"Background"}`, api.DeleteOptions{TypeMeta: meta, PropagationPolicy: optPtr("Background")}},
		{"typed client body", "", `{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"preconditions":{"uid":"u1","resourceVersion":"7"}}`,
			api.DeleteOptions{TypeMeta: meta, GracePeriodSeconds: optPtr(int64(0)), Preconditions: &api.Preconditions{UID: optPtr("u1"), ResourceVersion: optPtr("7")}}},
		{"query", "gracePeriodSeconds=30&propagationPolicy=Foreground&dryRun=All", "",
			api.DeleteOptions{TypeMeta: meta, GracePeriodSeconds: optPtr(int64(30)), PropagationPolicy: optPtr("Foreground"), DryRun: []string{"All"}}},
		{"a body hides the query", "gracePeriodSeconds=30", `{"propagationPolicy":"Orphan"}`, api.DeleteOptions{TypeMeta: meta, PropagationPolicy: optPtr("Orphan")}},
		{"orphanDependents body", "", `{"orphanDependents":false}`, api.DeleteOptions{TypeMeta: meta, OrphanDependents: optPtr(false)}},
		{"orphanDependents query", "orphanDependents=true", "", api.DeleteOptions{TypeMeta: meta, OrphanDependents: optPtr(true)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDeleteOptions(parseTestQuery(t, tc.query), []byte(tc.body))
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}

	errs := []struct {
		name, query, body string
		code              int32
		msg               string
	}{
		{"bad grace", "gracePeriodSeconds=soon", "", 400, `strconv.ParseInt: parsing "soon": invalid syntax`},
		{"bad body", "", `{"gracePeriodSeconds":"x"}`, 400, "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64"},
		{"other kind", "", `{"kind":"Pod"}`, 400, "decoded object cannot be converted to DeleteOptions"},
		{"bad policy", "propagationPolicy=Sideways", "", 422,
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"both policies", "", `{"orphanDependents":true,"propagationPolicy":"Orphan"}`, 422,
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set`},
		{"bad dryRun", "", `{"dryRun":["All","Some"]}`, 422,
			`DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","Some"]: supported values: "All"`},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDeleteOptions(parseTestQuery(t, tc.query), []byte(tc.body))
			require.Error(t, err)
			assert.Equal(t, tc.code, api.CodeForError(err))
			assert.EqualError(t, err, tc.msg)
		})
	}
}

func FuzzParseListOptions(f *testing.F) {
	f.Add("limit=500&resourceVersion=0", false)
	f.Add("allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=342&watch=true", false)
	f.Add("labelSelector=a+in+(b,c)&fieldSelector=metadata.name%3Dx", true)
	f.Add("continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIsInN0YXJ0IjoiZGVmYXVsdC9iXHUwMDAwIn0&limit=1", false)
	f.Add("resourceVersionMatch=Exact&resourceVersion=0", false)
	f.Fuzz(func(t *testing.T, raw string, isWatch bool) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		o, err := ParseListOptions(q, isWatch)
		if err != nil {
			if c := api.CodeForError(err); c != 400 && c != 422 {
				t.Fatalf("%q: error is not a 400/422 Status: %v", raw, err)
			}
			return
		}
		if isWatch && !o.Watch {
			t.Fatalf("%q: a legacy watch path must give Watch", raw)
		}
	})
}
