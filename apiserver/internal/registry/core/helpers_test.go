package core

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// decodeJSON decodes as the server does: integers as int64, other numbers as float64.
func decodeJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(s)), "test JSON: %s", s)
	return u.Object
}
