package apiserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// volatile matches what differs between two fresh servers: uids, times, the identity
// lease's holder and the port the server listens on.
var volatile = regexp.MustCompile(`"(uid|creationTimestamp|time|renewTime|lastTransitionTime|since|holderIdentity)":"[^"]*"|"(port|targetPort)":\d+|kubernetes.io/peer-advertise-address":"[^"]*"`)

// storedObjects is every object s holds, as LIST answers them over HTTP, one line per
// resource, with the volatile values masked.
func storedObjects(t *testing.T, s *Server) []string {
	t.Helper()
	var out []string
	for _, ri := range s.Resources() {
		path := "/apis/" + ri.Group + "/" + ri.Version + "/" + ri.Resource
		if ri.Group == "" {
			path = "/api/v1/" + ri.Resource
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		body, err := io.ReadAll(w.Result().Body)
		require.NoError(t, err)
		if w.Code == http.StatusMethodNotAllowed {
			continue // not listable: bindings, reviews, …
		}
		require.Equal(t, http.StatusOK, w.Code, "%s: %s", path, body)
		out = append(out, path+" "+volatile.ReplaceAllString(string(body), "X"))
	}
	return out
}

// TestCh01_StartupObjectsValidate: the server writes its start-up objects (the post-start
// hooks' and the RBAC policy's) without validating them, to start faster. Here each is
// validated as a client's create and status update are (New panics on an invalid one), and
// the objects stored are the same with validation as without.
func TestCh01_StartupObjectsValidate(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"bootstrap", Options{Bootstrap: true}},
		{"rbac", Options{Bootstrap: true, Authorization: AuthorizationRBAC}},
		{"go-api-managed-fields", Options{Bootstrap: true, GoAPIManagedFields: true}},
		{"plain", Options{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [2][]string
			for i, validate := range []bool{true, false} {
				opts := tc.opts
				opts.validateStartupObjects = validate
				var s *Server
				require.NotPanics(t, func() { s = New(opts) })
				// Start re-advertises the port: four more writes.
				_, err := s.Start("127.0.0.1:0")
				require.NoError(t, err)
				got[i] = storedObjects(t, s)
				s.Close()
			}
			assert.Equal(t, got[0], got[1])
		})
	}
}

// TestCh01_StartupObjectsSkipValidation: the context of the start-up writes is what skips
// validation, and only it; the server of the test above validates.
func TestCh01_StartupObjectsSkipValidation(t *testing.T) {
	for _, validate := range []bool{true, false} {
		s := New(Options{validateStartupObjects: validate})
		res := s.table.Get("", "configmaps")
		bad := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "Not_A_DNS_Name", "namespace": "default"}}}
		_, err := s.reg.Create(postStart{s}.context(), res, "default", bad, false)
		if validate {
			assert.True(t, api.IsInvalid(err), "validated: %v", err)
		} else {
			assert.NoError(t, err, "not validated")
		}
		_, err = s.reg.Create(context.Background(), res, "default", bad.DeepCopy(), false)
		assert.True(t, api.IsInvalid(err), "a client's create is validated: %v", err)
		s.Close()
	}
}
