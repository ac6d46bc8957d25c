package apiserver

import (
	"context"
	"encoding/json"
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

// TestCh01_GoAPIApplyAtServedVersion: a Go-API apply to events.k8s.io Events records the
// version the resource serves, as an HTTP apply at it does.
func TestCh01_GoAPIApplyAtServedVersion(t *testing.T) {
	srv, c := newServer(t, Options{})
	_, err := srv.Patch(context.Background(), "events.events.k8s.io", "default", "e", api.ApplyPatchType,
		[]byte(`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"c/x","reportingInstance":"i","action":"Do","reason":"Why","type":"Normal","note":"hello","regarding":{"kind":"Pod","name":"p","namespace":"default"}}`))
	require.NoError(t, err)
	var got struct {
		Metadata struct {
			ManagedFields []struct{ Manager, APIVersion string }
		}
	}
	require.NoError(t, json.Unmarshal(c.get("/apis/events.k8s.io/v1/namespaces/default/events/e").body, &got))
	require.Len(t, got.Metadata.ManagedFields, 1)
	assert.Equal(t, "events.k8s.io/v1", got.Metadata.ManagedFields[0].APIVersion)
	assert.Equal(t, "apiserver-go-api", got.Metadata.ManagedFields[0].Manager)
}
