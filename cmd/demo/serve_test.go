package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/testcert"
	"github.com/informer-lab/informer-lab/rest"
)

// startServe runs `demo serve` in-process on a free loopback port and returns what it
// reported once ready, and a function that stops it and returns its output.
func startServe(t *testing.T, extra ...string) (serveReady, func() string) {
	t.Helper()
	kc := filepath.Join(t.TempDir(), "sub", "kubeconfig")
	ctx, cancel := context.WithCancel(context.Background())
	out := newLineBuffer()
	readyCh := make(chan serveReady, 1)
	errCh := make(chan error, 1)
	// The apiserver alone unless a test asks for controllers: a later flag wins.
	args := append([]string{"--listen", "127.0.0.1:0", "--kubeconfig", kc, "--controllers=none", "--nodes=0"}, extra...)
	go func() { errCh <- cmdServe(ctx, args, out, func(r serveReady) { readyCh <- r }) }()
	var ready serveReady
	select {
	case ready = <-readyCh:
	case err := <-errCh:
		cancel()
		t.Fatalf("serve failed: %v\n%s", err, out.String())
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatalf("serve not ready:\n%s", out.String())
	}
	stopped := false
	stop := func() string {
		if !stopped {
			stopped = true
			cancel()
			require.NoError(t, <-errCh)
		}
		return out.String()
	}
	t.Cleanup(func() { stop() })
	return ready, stop
}

// startWatch runs `demo watch` in-process and returns its output and a stop function that
// returns its error.
func startWatch(t *testing.T, args ...string) (*lineBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := newLineBuffer()
	errCh := make(chan error, 1)
	go func() { errCh <- cmdWatch(ctx, append(args, "--color", "never"), out) }()
	var err error
	stopped := false
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			err = <-errCh
		}
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return out, stop
}

// TestDemo_ServeWritesKubeconfig: serve writes a kubeconfig that clientcmd parses back to the
// server's URL and token, prints the kubectl and curl lines, serves /debug/faults behind the
// token, and stops cleanly.
func TestDemo_ServeWritesKubeconfig(t *testing.T) {
	ready, stop := startServe(t, "--token", "s3cret", "--seed-pods", "2")

	info, err := os.Stat(ready.kubeconfig)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the kubeconfig holds a token")
	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	assert.Equal(t, ready.url, cfg.Host)
	assert.Equal(t, "s3cret", cfg.BearerToken)

	rc, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	pods := rc.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default")
	list, err := pods.List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.(*api.PodList).Items, 2)

	// A token implies https: kubectl sends tokens only over TLS. The CA is beside the kubeconfig.
	require.True(t, strings.HasPrefix(ready.url, "https://"), ready.url)
	caPEM, err := os.ReadFile(ready.kubeconfig + ".ca.crt")
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(caPEM))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()

	// The fault endpoint needs the token, as everything else does.
	req, _ := http.NewRequest(http.MethodGet, ready.url+"/debug/faults", nil)
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err = client.Do(req)
	require.NoError(t, err)
	var state struct {
		ResourceVersion uint64 `json:"resourceVersion"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&state))
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Positive(t, state.ResourceVersion)

	out := stop()
	assert.Contains(t, out, "kubectl --kubeconfig "+ready.kubeconfig+" get pods")
	assert.Contains(t, out, "curl -s --cacert "+ready.kubeconfig+".ca.crt -H 'Authorization: Bearer s3cret' "+ready.url+"/debug/faults")
	assert.Contains(t, out, `{"action":"compact"}`)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(out), "stopped"), out)
	_, err = pods.List(context.Background(), api.ListOptions{})
	assert.Error(t, err, "the server is gone after Ctrl-C")
}

// TestDemo_WatchAgainstServe: `demo watch --kubeconfig` (our informer) against `demo serve`
// prints the initial list, then add, update and delete lines with the cache size.
func TestDemo_WatchAgainstServe(t *testing.T) {
	ready, _ := startServe(t, "--token", "tok", "--seed-pods", "3")
	out, stop := startWatch(t, "--kubeconfig", ready.kubeconfig, "--resource", "po")
	out.waitFor(t, 10*time.Second, "synced: 3 pods in the cache")
	out.waitFor(t, time.Second, "add", "default/web-1", "cache=3", "(initial list)")

	ctx := context.Background()
	srv := ready.server
	_, err := srv.Create(ctx, "pods", "default", newPod("extra", nil))
	require.NoError(t, err)
	out.waitFor(t, 10*time.Second, "add", "default/extra", "cache=4")
	_, err = srv.Patch(ctx, "pods", "default", "extra", api.MergePatchType, []byte(`{"metadata":{"labels":{"x":"1"}}}`))
	require.NoError(t, err)
	out.waitFor(t, 10*time.Second, "update", "default/extra", "cache=4")
	_, err = srv.Delete(ctx, "pods", "default", "extra", nil)
	require.NoError(t, err)
	line := out.waitFor(t, 10*time.Second, "delete", "default/extra")
	assert.Regexp(t, regexp.MustCompile(`^delete\s+default/extra\s+rv=\d+\s+cache=3$`), line)
	require.NoError(t, stop())
}

// TestDemo_WatchWithServerAndToken: --server and --token work without a kubeconfig; a wrong
// token is a clear error, not a reflector retrying forever.
func TestDemo_WatchWithServerAndToken(t *testing.T) {
	ready, _ := startServe(t, "--token", "right", "--seed-pods", "1")
	out, stop := startWatch(t, "--server", ready.url, "--insecure-skip-tls-verify", "--token", "right", "-n", "default", "--resource", "v1/configmaps")
	out.waitFor(t, 10*time.Second, "synced: 1 configmaps in the cache")
	out.waitFor(t, time.Second, "add", "default/app-config")
	require.NoError(t, stop())

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"watch", "--server", ready.url, "--insecure-skip-tls-verify", "--token", "wrong"}, nil, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "cannot list pods at "+ready.url)
	assert.Contains(t, strings.ToLower(stderr.String()), "unauthorized")
}

// TestDemo_RunWithDashboard: `demo run --ui` serves the dashboard with live stats, and its
// compact action makes the informer relist (410 → relist), as the button promises.
func TestDemo_RunWithDashboard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := newLineBuffer()
	errCh := make(chan error, 1)
	go func() {
		errCh <- cmdRun(ctx, []string{"--ui", "127.0.0.1:0", "--rate", "50", "--pods", "4", "--color", "never", "--resync", "0"}, out)
	}()
	defer func() {
		cancel()
		require.NoError(t, <-errCh)
		out.waitFor(t, time.Second, "stopping: rv=")
	}()
	line := out.waitFor(t, 10*time.Second, "dashboard: http://")
	base := strings.TrimSuffix(line[strings.Index(line, "http://"):], "/")

	stats := func(t require.TestingT) dashboard.Stats {
		resp, err := http.Get(base + "/stats")
		require.NoError(t, err)
		defer resp.Body.Close()
		var s dashboard.Stats
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
		return s
	}
	s := stats(t)
	assert.Len(t, s.Listeners, 2)
	assert.Equal(t, "scheduler", s.Listeners[0].Name)
	assert.Equal(t, 1024, s.Listeners[1].Capacity)

	resp, err := http.Post(base+"/actions/compact", "application/json", nil)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		s = stats(c)
		assert.GreaterOrEqual(c, s.Relists, int64(1))
	}, 15*time.Second, 20*time.Millisecond, "the relist after the compaction")
	assert.Equal(t, int64(1), s.Relists, "one compaction, one relist")
	assert.Positive(t, s.Reconciles)
	assert.Positive(t, s.Events)

	resp, err = http.Post(base+"/actions/create-pod", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// TestDemo_WatchUnresponsiveServer: a server that accepts the connection and never answers
// is a clear error after --request-timeout, never a hang; Ctrl-C while waiting for it is a
// clean exit.
func TestDemo_WatchUnresponsiveServer(t *testing.T) {
	entered := make(chan struct{}, 16)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-r.Context().Done() // never answers; the client gives up and closes the connection
	}))
	t.Cleanup(hang.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"watch", "--server", hang.URL, "--request-timeout", "200ms"}, nil, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Equal(t, "demo watch: cannot list pods at "+hang.URL+": no answer within --request-timeout=200ms\n", stderr.String())
	require.NoError(t, ctx.Err(), "the watch gave up by itself")

	// Ctrl-C while the first request waits: exit 0 and no error, whatever the timeout.
	stopCtx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	stdout.Reset()
	stderr.Reset()
	go func() {
		done <- run(stopCtx, []string{"watch", "--server", hang.URL, "--request-timeout", "0"}, nil, &stdout, &stderr)
	}()
	select {
	case <-entered:
	case <-ctx.Done():
		t.Fatal("the watch never reached the server")
	}
	stop()
	select {
	case code = <-done:
	case <-ctx.Done():
		t.Fatal("the watch did not stop on Ctrl-C")
	}
	assert.Equal(t, 0, code, stderr.String())
	assert.Empty(t, stderr.String())
}

// TestDemo_WatchServerGoesAway: when the server stops under a running `demo watch`, the
// reflector's retries are printed (without --trace), so the outage is never silent, and
// Ctrl-C still stops the watch cleanly.
func TestDemo_WatchServerGoesAway(t *testing.T) {
	ready, stopServe := startServe(t, "--seed-pods", "1")
	out, stop := startWatch(t, "--kubeconfig", ready.kubeconfig)
	out.waitFor(t, 10*time.Second, "synced: 1 pods in the cache")
	stopServe()
	line := out.waitFor(t, 15*time.Second, "reflector", "backoff", "before the next ListAndWatch")
	assert.Regexp(t, `wait \d+(\.\d{1,3})?m?s before`, line, "the delay is rounded to the millisecond")
	assert.NotContains(t, out.String(), "watch-start", "only problems are printed without --trace")
	require.NoError(t, stop())
}

// certKubeconfig writes a kubeconfig in the shape `kind` writes: CA data and a user with
// client-certificate-data and client-key-data.
func certKubeconfig(t *testing.T, server string, caPEM, certPEM, keyPEM []byte) string {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString
	kc := filepath.Join(t.TempDir(), "kind.kubeconfig")
	require.NoError(t, os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
current-context: kind-lab
clusters:
- name: kind-lab
  cluster:
    server: `+server+`
    certificate-authority-data: `+b64(caPEM)+`
contexts:
- name: kind-lab
  context:
    cluster: kind-lab
    user: kind-lab
users:
- name: kind-lab
  user:
    client-certificate-data: `+b64(certPEM)+`
    client-key-data: `+b64(keyPEM)+`
`), 0o600))
	return kc
}

// TestDemo_WatchKubeconfigWithClientCertificates: a kind-style kubeconfig whose user
// authenticates with a client certificate works against a server that requires one (the
// simulated apiserver behind TLS that verifies client certificates, as kind's does), and
// --token replaces that user's credentials while the server still comes from the kubeconfig.
func TestDemo_WatchKubeconfigWithClientCertificates(t *testing.T) {
	certPEM, keyPEM := testcert.SelfSignedClient(t, "kind-admin", "system:masters")

	srv := apiserver.New(apiserver.Options{})
	require.NoError(t, seedServer(context.Background(), srv, 2, true))
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(certPEM))
	var mu sync.Mutex
	users := map[string]bool{}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		users[r.TLS.PeerCertificates[0].Subject.CommonName] = true
		mu.Unlock()
		srv.Handler().ServeHTTP(w, r)
	}))
	hs.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	hs.StartTLS()
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close) // runs before hs.Close: the watches end first
	hsCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})

	out, stop := startWatch(t, "--kubeconfig", certKubeconfig(t, hs.URL, hsCA, certPEM, keyPEM))
	out.waitFor(t, 10*time.Second, "synced: 2 pods in the cache")
	require.NoError(t, stop())
	mu.Lock()
	assert.Equal(t, map[string]bool{"kind-admin": true}, users, "every request presented the certificate")
	mu.Unlock()

	// A server that wants a token answers the certificate alone with 401; --token replaces
	// the user's credentials.
	ready, _ := startServe(t, "--token", "sa-token", "--seed-pods", "2")
	caPEM, err := os.ReadFile(ready.kubeconfig + ".ca.crt")
	require.NoError(t, err)
	kc := certKubeconfig(t, ready.url, caPEM, certPEM, keyPEM)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"watch", "--kubeconfig", kc}, nil, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "cannot list pods at "+ready.url)
	assert.Contains(t, stderr.String(), "Unauthorized")

	out, stop = startWatch(t, "--kubeconfig", kc, "--token", "sa-token")
	out.waitFor(t, 10*time.Second, "synced: 2 pods in the cache")
	out.waitFor(t, time.Second, "watching pods in all namespaces at "+ready.url)
	require.NoError(t, stop())
}

// TestDemo_ServeWithClientCertificates: `demo serve --client-certs` serves https and writes a
// kind-style kubeconfig whose user is the admin client certificate (no token), plus the CA,
// certificate and key beside it for curl; `demo watch --kubeconfig` with that file syncs the
// seeded pods; /debug/faults wants the certificate too; a certificate of another CA is a 401
// that demo watch reports. The banner says so and prints runnable curl lines.
func TestDemo_ServeWithClientCertificates(t *testing.T) {
	ready, stop := startServe(t, "--client-certs", "--seed-pods", "2")
	require.True(t, strings.HasPrefix(ready.url, "https://"), "client certificates imply https: %s", ready.url)

	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	assert.Empty(t, cfg.BearerToken)
	cert, key := ready.server.ClientCertificatePEM()
	require.NotNil(t, cert)
	assert.Equal(t, string(cert), string(cfg.CertData))
	assert.Equal(t, string(key), string(cfg.KeyData))
	for file, want := range map[string]struct {
		data []byte
		perm os.FileMode
	}{
		ready.kubeconfig + ".ca.crt":     {ready.server.CACertPEM(), 0o600},
		ready.kubeconfig + ".client.crt": {cert, 0o600},
		ready.kubeconfig + ".client.key": {key, 0o600},
	} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(want.data), string(data), file)
		info, err := os.Stat(file)
		require.NoError(t, err)
		assert.Equal(t, want.perm, info.Mode().Perm(), file)
	}

	out, stopWatch := startWatch(t, "--kubeconfig", ready.kubeconfig)
	out.waitFor(t, 10*time.Second, "synced: 2 pods in the cache")
	out.waitFor(t, time.Second, "add", "default/web-1", "cache=2", "(initial list)")
	require.NoError(t, stopWatch())

	// The fault API is behind the same authentication: the certificate opens it.
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ready.server.CACertPEM()))
	pair, err := tls.X509KeyPair(cert, key)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		certs []tls.Certificate
		want  int
	}{{"no certificate", nil, http.StatusUnauthorized}, {"admin certificate", []tls.Certificate{pair}, http.StatusOK}} {
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: tc.certs}}}
		resp, err := client.Get(ready.url + "/debug/faults")
		require.NoError(t, err, tc.name)
		resp.Body.Close()
		client.CloseIdleConnections()
		assert.Equal(t, tc.want, resp.StatusCode, tc.name)
	}

	// A certificate the server's client CA did not sign is refused, readably.
	foreignCert, foreignKey := testcert.SelfSignedClient(t, apiserver.AdminCommonName, "system:masters")
	kc := certKubeconfig(t, ready.url, ready.server.CACertPEM(), foreignCert, foreignKey)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"watch", "--kubeconfig", kc}, nil, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "cannot list pods at "+ready.url)
	assert.Contains(t, stderr.String(), "Unauthorized")

	banner := stop()
	assert.Contains(t, banner, "  auth       client certificate required (user kubernetes-admin, group system:masters, in the kubeconfig as kind writes it)\n")
	assert.Contains(t, banner, "  client     the admin certificate also in "+ready.kubeconfig+".client.crt and "+ready.kubeconfig+".client.key\n")
	assert.Contains(t, banner, "  kubectl --kubeconfig "+ready.kubeconfig+" get pods\n")
	assert.Contains(t, banner, "  curl -s --cacert "+ready.kubeconfig+".ca.crt --cert "+ready.kubeconfig+".client.crt --key "+ready.kubeconfig+".client.key "+ready.url+"/debug/faults\n")
	assert.NotContains(t, banner, "warning")
}

// TestDemo_ServeWithClientCertificatesAndToken: with both --client-certs and --token the
// kubeconfig carries both credentials, and either alone is enough.
func TestDemo_ServeWithClientCertificatesAndToken(t *testing.T) {
	ready, stop := startServe(t, "--client-certs", "--token", "s3cret", "--seed-pods", "1")
	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	assert.Equal(t, "s3cret", cfg.BearerToken)
	assert.NotEmpty(t, cfg.CertData)

	for name, edit := range map[string]func(c *rest.Config){
		"both":                          func(*rest.Config) {},
		"certificate only":              func(c *rest.Config) { c.BearerToken = "" },
		"token only":                    func(c *rest.Config) { c.CertData, c.KeyData = nil, nil },
		"certificate and a wrong token": func(c *rest.Config) { c.BearerToken = "wrong" },
	} {
		c := *cfg
		edit(&c)
		rc, err := rest.RESTClientFor(&c)
		require.NoError(t, err)
		list, err := rc.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default").List(context.Background(), api.ListOptions{})
		require.NoError(t, err, name)
		assert.Len(t, list.(*api.PodList).Items, 1, name)
	}
	assert.Contains(t, stop(), "  auth       client certificate (user kubernetes-admin, group system:masters) or bearer token required (both are in the kubeconfig)\n")
}

// TestDemo_WatchKubeconfigRefusesAuthProvider: what clientcmd still cannot use (an
// auth-provider user, say) is refused before any request, with a hint.
func TestDemo_WatchKubeconfigRefusesAuthProvider(t *testing.T) {
	kc := filepath.Join(t.TempDir(), "oidc.kubeconfig")
	require.NoError(t, os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
current-context: c
clusters:
- name: k
  cluster:
    server: https://127.0.0.1:1
contexts:
- name: c
  context:
    cluster: k
    user: oidc
users:
- name: oidc
  user:
    auth-provider:
      name: oidc
`), 0o600))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"watch", "--kubeconfig", kc}, nil, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), `user "oidc" authenticates with auth-provider, which this client does not support`)
	assert.Contains(t, stderr.String(), "kubectl create token")
}

// TestDemo_WatchEveryKind: --resource takes what kubectl takes, resolved through discovery:
// plural, short name or resource.group, for every served kind.
func TestDemo_WatchEveryKind(t *testing.T) {
	ready, _ := startServe(t, "--token", "right", "--seed-pods", "1")
	for _, tc := range []struct{ arg, synced string }{
		{"deployments", "deployments.apps"},
		{"deploy", "deployments.apps"},
		{"sts", "statefulsets.apps"},
		{"cronjobs", "cronjobs.batch"},
		{"leases.coordination.k8s.io", "leases.coordination.k8s.io"},
		{"events.events.k8s.io", "events.events.k8s.io"},
		{"endpointslices", "endpointslices.discovery.k8s.io"},
		{"no", "nodes"},
		{"svc", "services"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			out, stop := startWatch(t, "--server", ready.url, "--insecure-skip-tls-verify", "--token", "right", "--resource", tc.arg)
			out.waitFor(t, 10*time.Second, "synced: ", " "+tc.synced+" in the cache")
			require.NoError(t, stop())
		})
	}
}

// TestDemo_ServeCRD: --crd creates CustomResourceDefinitions at start, so the custom kind is
// served at once; a file that is not a CRD is an error before anything listens.
func TestDemo_ServeCRD(t *testing.T) {
	crd := filepath.Join("..", "..", "chapters", "13-custom-resources", "testdata", "crd.yaml")
	ready, stop := startServe(t, "--crd", crd)
	resp, err := http.Get(ready.url + "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, stop(), "crd        foos.samplecontroller.k8s.io")

	notCRD := filepath.Join(t.TempDir(), "pod.yaml")
	require.NoError(t, os.WriteFile(notCRD, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n"), 0o600))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0", "--kubeconfig", filepath.Join(t.TempDir(), "kc"), "--crd", notCRD}, nil, &stdout, &stderr)
	assert.Equal(t, 2, code, "a bad flag value is a usage error")
	assert.Contains(t, stderr.String(), "is a Pod (v1), not an apiextensions.k8s.io CustomResourceDefinition")
}
