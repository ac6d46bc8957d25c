package defaulting

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// defaultCase is one minimal object in and the defaulted object out, both as JSON.
type defaultCase struct {
	name                 string
	group, version, kind string
	in, want             string
}

// decodeJSON decodes as the server does: integers as int64, other numbers as float64.
func decodeJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(s)), "test JSON: %s", s)
	return u.Object
}

func runCases(t *testing.T, cases []defaultCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := decodeJSON(t, tc.in)
			Default(tc.group, tc.version, tc.kind, got)
			if d := cmp.Diff(decodeJSON(t, tc.want), got); d != "" {
				t.Errorf("Default(%s) mismatch (-want +got):\n%s", tc.kind, d)
			}
		})
	}
}

// allCases is every table of the package's tests, for the idempotence test.
func allCases() []defaultCase {
	var out []defaultCase
	for _, cs := range [][]defaultCase{podCases, serviceCases, coreCases, appsCases, batchCases, otherCases, groupCases, adminCases, policyCases} {
		out = append(out, cs...)
	}
	return out
}
