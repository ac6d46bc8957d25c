package ch00_test

import (
	"bufio"
	"context"
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
	"github.com/informer-lab/informer-lab/apiserver"
)

// get sends one GET with an optional bearer token and returns the response; the caller
// closes its body.
func get(t *testing.T, hc *http.Client, url, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	require.NoError(t, err)
	return resp
}

// TestCh00_Erratum_WatchNeedsTLSAndCredentials pins the correction to the curl of
// 《client-go学习》 (section watch 是如何实现的？) and of the runnable-examples article (section
// 基础概念): `curl http://{apiserver}:8080/api/v1/watch/pods?watch=yes`. Port 8080 was the
// insecure port, without TLS and without authentication; kube-apiserver lost it in v1.20 and
// v1.36 serves only HTTPS (6443 by default), and only to a client that authenticates. The
// server here is started the same way: plain HTTP to its port gets 400, HTTPS without
// credentials 401. With a token the watch streams one JSON event per line, on the collection
// with watch=true as client-go asks (W1) or on the old /watch/ path, still served (U6).
func TestCh00_Erratum_WatchNeedsTLSAndCredentials(t *testing.T) {
	const token = "lab-token"
	srv := apiserver.New(apiserver.Options{BearerToken: token})
	base, err := srv.StartTLS("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	_, err = srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	_, err = srv.Create(context.Background(), "pods", "demo", webPod("web-1"))
	require.NoError(t, err)

	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(srv.CACertPEM()))
	tlsClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	plainClient := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(tlsClient.CloseIdleConnections)
	t.Cleanup(plainClient.CloseIdleConnections)
	plainBase := "http://" + strings.TrimPrefix(base, "https://")

	tests := []struct {
		name       string
		client     *http.Client
		url, token string
		wantStatus int
	}{
		{"the article's plain HTTP", plainClient, plainBase + "/api/v1/watch/pods?watch=yes", "", http.StatusBadRequest},
		{"HTTPS, no credentials", tlsClient, base + "/api/v1/watch/pods?watch=yes", "", http.StatusUnauthorized},
		{"HTTPS with a token, watch=true", tlsClient, base + "/api/v1/pods?watch=true", token, http.StatusOK},
		{"HTTPS with a token, the old /watch/ path", tlsClient, base + "/api/v1/watch/pods?watch=yes", token, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := get(t, tt.client, tt.url, tt.token)
			defer resp.Body.Close()
			require.Equal(t, tt.wantStatus, resp.StatusCode)
			if tt.wantStatus != http.StatusOK {
				return
			}
			line, err := bufio.NewReader(resp.Body).ReadBytes('\n')
			require.NoError(t, err)
			var ev struct {
				Type   string
				Object struct{ Metadata struct{ Name string } }
			}
			require.NoError(t, json.Unmarshal(line, &ev))
			assert.Equal(t, "ADDED", ev.Type)
			assert.Equal(t, "web-1", ev.Object.Metadata.Name)
		})
	}
}

// TestCh00_Erratum_AppsV1Beta1IsGone pins the correction to 《client-go学习》 (section 更新status),
// which updates a Deployment through /apis/apps/v1beta1/…/deployments/{name} and its /status.
// apps/v1beta1 and apps/v1beta2 stopped being served in v1.16; v1.36 serves Deployments only as
// apps/v1, with the same split between the object and its status subresource.
func TestCh00_Erratum_AppsV1Beta1IsGone(t *testing.T) {
	srv, cfg := startLab(apiserver.Options{})
	t.Cleanup(srv.Close)
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)

	resp := get(t, hc, cfg.Host+"/apis/apps", "")
	var group struct{ Versions []struct{ Version string } }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&group))
	resp.Body.Close()
	var versions []string
	for _, v := range group.Versions {
		versions = append(versions, v.Version)
	}
	assert.Equal(t, []string{"v1"}, versions, "discovery offers apps/v1 only")

	tests := []struct {
		path       string
		wantStatus int
	}{
		{"/apis/apps/v1beta1/namespaces/demo/deployments", http.StatusNotFound},
		{"/apis/apps/v1beta2/namespaces/demo/deployments", http.StatusNotFound},
		{"/apis/extensions/v1beta1/namespaces/demo/deployments", http.StatusNotFound},
		{"/apis/apps/v1/namespaces/demo/deployments", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp := get(t, hc, cfg.Host+tt.path, "")
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			assert.Equal(t, tt.wantStatus, resp.StatusCode)
		})
	}
}
