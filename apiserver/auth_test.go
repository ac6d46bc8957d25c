package apiserver

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_S2_BearerToken checks the decision table of auth.go and S2's 401: without a bearer
// token (none, another scheme, "Bearer" alone) only health and /version are open; a wrong
// token is 401 everywhere; the right token opens everything, case-insensitive scheme
// included. Refused requests are not counted.
func TestCh01_S2_BearerToken(t *testing.T) {
	s, c := newServer(t, Options{BearerToken: "s3cret", DebugFaults: true})
	paths := []string{"/api/v1/pods", "/api", "/apis", "/openapi/v3", "/debug/faults", "/version", "/healthz", "/readyz", "/livez/ping", "/nonexistent"}
	open := map[string]bool{"/version": true, "/healthz": true, "/readyz": true, "/livez/ping": true}
	for _, tc := range []struct {
		name, auth string
		served     func(path string) bool
	}{
		{"none", "", func(p string) bool { return open[p] }},
		{"right", "Bearer s3cret", func(string) bool { return true }},
		{"scheme case", "bearer s3cret", func(string) bool { return true }},
		{"wrong", "Bearer nope", func(string) bool { return false }},
		{"prefix", "Bearer s3c", func(string) bool { return false }},
		// Not a bearer token: no credentials, as for the real bearer-token authenticator.
		{"basic", "Basic czNjcmV0", func(p string) bool { return open[p] }},
		{"no token", "Bearer", func(p string) bool { return open[p] }},
	} {
		for _, p := range paths {
			var r response
			if tc.auth == "" {
				r = c.get(p)
			} else {
				r = c.do("GET", p, nil, "Authorization", tc.auth)
			}
			if tc.served(p) {
				assert.NotEqual(t, 401, r.code, "%s %s", tc.name, p)
				continue
			}
			require.Equal(t, 401, r.code, "%s %s: %s", tc.name, p, r.body)
			st := r.status(t)
			assert.Equal(t, api.StatusReasonUnauthorized, st.Reason)
			assert.Equal(t, "Unauthorized", st.Message)
		}
	}
	assert.Equal(t, 404, c.do("GET", "/nonexistent", nil, "Authorization", "Bearer s3cret").code)
	assert.Equal(t, 2, s.RequestCounts()[RequestKey{"list", "pods"}], "only the two authenticated lists are counted")
}

// TestCh01_StartTLS checks StartTLS, CACertPEM and Kubeconfig: an https client that trusts
// the certificate and sends the token gets through; one that does not trust it fails the
// handshake; the kubeconfig carries URL, CA and token.
func TestCh01_StartTLS(t *testing.T) {
	checkNoLeak(t)
	s := NewTLSTestServer(t, Options{BearerToken: "t0ken"})
	require.True(t, strings.HasPrefix(s.URL(), "https://127.0.0.1:"), s.URL())
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(s.CACertPEM()))
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}

	for _, host := range []string{s.URL(), strings.Replace(s.URL(), "127.0.0.1", "localhost", 1)} {
		req, err := http.NewRequest("GET", host+"/api/v1/namespaces", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer t0ken")
		resp, err := hc.Do(req)
		require.NoError(t, err, host)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, "%s", body)
	}

	untrusting := &http.Transport{}
	defer untrusting.CloseIdleConnections()
	_, err := (&http.Client{Transport: untrusting}).Get(s.URL() + "/healthz")
	require.Error(t, err, "the certificate is self-signed")

	kc := decodeKubeconfig(t, s.Kubeconfig())
	require.Len(t, kc.Clusters, 1)
	assert.Equal(t, s.URL(), kc.Clusters[0].Cluster.Server)
	require.Len(t, kc.AuthInfos, 1)
	assert.Equal(t, "t0ken", kc.AuthInfos[0].AuthInfo.Token)
	assert.Equal(t, "informer-lab", kc.CurrentContext)
	assert.Equal(t, string(s.CACertPEM()), string(kc.Clusters[0].Cluster.CertificateAuthorityData))
}

// decodeKubeconfig reads what Kubeconfig returns: JSON, which is also a YAML kubeconfig.
func decodeKubeconfig(t *testing.T, data []byte) *api.Config {
	t.Helper()
	var kc api.Config
	require.NoError(t, json.Unmarshal(data, &kc), "%s", data)
	return &kc
}

// TestCh01_KubeconfigPlain checks Kubeconfig for a plain server without a token, and before
// Start.
func TestCh01_KubeconfigPlain(t *testing.T) {
	s, _ := newServer(t, Options{})
	assert.Equal(t, &api.Config{Kind: "Config", APIVersion: "v1",
		Clusters:       []api.NamedCluster{{Name: "informer-lab", Cluster: api.Cluster{Server: s.URL()}}},
		AuthInfos:      []api.NamedAuthInfo{{Name: "informer-lab"}},
		Contexts:       []api.NamedContext{{Name: "informer-lab", Context: api.Context{Cluster: "informer-lab", AuthInfo: "informer-lab", Namespace: "default"}}},
		CurrentContext: "informer-lab",
	}, decodeKubeconfig(t, s.Kubeconfig()))
	assert.Nil(t, s.CACertPEM())

	unstarted := New(Options{})
	defer unstarted.Close()
	assert.Nil(t, unstarted.Kubeconfig())
}

// TestCh01_KubeconfigDialableURL checks that a server listening on every address gets a
// kubeconfig pointing at 127.0.0.1, which its certificate covers.
func TestCh01_KubeconfigDialableURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://0.0.0.0:6443":      "https://127.0.0.1:6443",
		"http://[::]:6443":          "http://127.0.0.1:6443",
		"https://127.0.0.1:6443":    "https://127.0.0.1:6443",
		"https://192.168.1.10:6443": "https://192.168.1.10:6443",
		"https://lab.example:6443":  "https://lab.example:6443",
		"not a url":                 "not a url",
	} {
		assert.Equal(t, want, dialableURL(in), in)
	}
}
