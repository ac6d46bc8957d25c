package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_StatusSubresourceMetadata: as on the real server, a Deployment's status update
// writes the body's annotations and finalizers but not its labels, spec or generation; a
// ReplicaSet's writes its labels too; a pod's writes none of them.
func TestCh01_StatusSubresourceMetadata(t *testing.T) {
	tests := []struct {
		kind, path   string
		wantLabel    bool
		wantMetadata bool
	}{
		{"Deployment", "/apis/apps/v1/namespaces/default/deployments/w", false, true},
		{"ReplicaSet", "/apis/apps/v1/namespaces/default/replicasets/w", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			_, c := newServer(t, Options{})
			obj := `{"apiVersion":"apps/v1","kind":"` + tc.kind + `","metadata":{"name":"w","labels":{"app":"w"}},"spec":{"replicas":1,` +
				`"selector":{"matchLabels":{"app":"w"}},"template":{"metadata":{"labels":{"app":"w"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
			coll := tc.path[:len(tc.path)-2]
			r := c.do("POST", coll, obj)
			require.Equal(t, 201, r.code, "%s", r.body)
			var m map[string]any
			require.NoError(t, json.Unmarshal(r.body, &m))
			md := m["metadata"].(map[string]any)
			md["annotations"] = map[string]any{"deployment.kubernetes.io/revision": "1"}
			md["labels"] = map[string]any{"app": "w", "x": "y"}
			md["finalizers"] = []any{"example.com/f"}
			m["spec"].(map[string]any)["replicas"] = 5
			m["status"] = map[string]any{"observedGeneration": 1, "replicas": 0}
			b, _ := json.Marshal(m)
			r = c.do("PUT", tc.path+"/status", b)
			require.Equal(t, 200, r.code, "%s", r.body)
			var out map[string]any
			require.NoError(t, json.Unmarshal(r.body, &out))
			omd := out["metadata"].(map[string]any)
			assert.Equal(t, map[string]any{"deployment.kubernetes.io/revision": "1"}, omd["annotations"])
			assert.Equal(t, []any{"example.com/f"}, omd["finalizers"])
			assert.Equal(t, tc.wantLabel, omd["labels"].(map[string]any)["x"] == "y")
			assert.EqualValues(t, 1, omd["generation"])
			assert.EqualValues(t, 1, out["spec"].(map[string]any)["replicas"])
			assert.EqualValues(t, 1, out["status"].(map[string]any)["observedGeneration"])
		})
	}
}
