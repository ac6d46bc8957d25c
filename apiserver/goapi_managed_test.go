package apiserver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_GoAPIManagedFields: with Options.GoAPIManagedFields the Go API's writes record
// their manager as HTTP writes do; without it they record none (the default, cheaper).
func TestCh01_GoAPIManagedFields(t *testing.T) {
	const path = "/api/v1/namespaces/default/configmaps/c"
	for _, tc := range []struct {
		name             string
		record           bool
		created, patched []entry
	}{
		{"off", false, nil, nil},
		{"on", true,
			[]entry{{"apiserver-go-api", "Update", "", `{"f:data":{".":{},"f:a":{}}}`, true}},
			[]entry{{"apiserver-go-api", "Update", "", `{"f:data":{".":{},"f:a":{},"f:b":{}}}`, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := newServer(t, Options{GoAPIManagedFields: tc.record})
			ctx := context.Background()
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}, Data: map[string]string{"a": "1"}}
			_, err := srv.Create(ctx, "configmaps", "default", cm)
			require.NoError(t, err)
			assert.Equal(t, tc.created, managedOf(t, c.get(path).body))
			_, err = srv.Patch(ctx, "configmaps", "default", "c", api.MergePatchType, []byte(`{"data":{"b":"2"}}`))
			require.NoError(t, err)
			assert.Equal(t, tc.patched, managedOf(t, c.get(path).body))
		})
	}
}
