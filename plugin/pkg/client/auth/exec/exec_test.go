package exec_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/leakcheck"
	"github.com/informer-lab/informer-lab/internal/resttest"
	"github.com/informer-lab/informer-lab/internal/testcert"
	"github.com/informer-lab/informer-lab/plugin/pkg/client/auth/exec"
	"github.com/informer-lab/informer-lab/rest"
)

// steppedClock is a Config.Clock whose Now moves only when the test steps it; its timers are
// the real ones (no test here waits on one).
type steppedClock struct {
	clock.RealClock
	mu  sync.Mutex
	now time.Time
}

func (c *steppedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *steppedClock) step(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var execT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fakePlugin is a commandRunner that prints one scripted answer per run (the last one
// repeats) and records what it was given.
type fakePlugin struct {
	mu   sync.Mutex
	out  []string
	runs int
	name string
	args []string
	env  []string
}

func (p *fakePlugin) run(_ context.Context, name string, args, env []string, stdout, _ io.Writer) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := min(p.runs, len(p.out)-1)
	p.runs++
	p.name, p.args, p.env = name, args, env
	_, err := io.WriteString(stdout, p.out[i])
	return err
}

func (p *fakePlugin) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.runs
}

// envValue is the value of key in the last run's environment (the last entry wins, as in
// os/exec).
func (p *fakePlugin) envValue(key string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	val, found := "", false
	for _, kv := range p.env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val, found = v, true
		}
	}
	return val, found
}

// credJSON is a plugin's answer: an ExecCredential status with a token, or with a client
// certificate when certPEM is set, expiring at exp unless it is zero.
func credJSON(apiVersion, token string, exp time.Time, certPEM, keyPEM []byte) string {
	status := map[string]any{}
	if token != "" {
		status["token"] = token
	}
	if !exp.IsZero() {
		status["expirationTimestamp"] = exp.Format(time.RFC3339)
	}
	if certPEM != nil {
		status["clientCertificateData"], status["clientKeyData"] = string(certPEM), string(keyPEM)
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": apiVersion, "kind": "ExecCredential", "status": status})
	return string(b)
}

const v1 = exec.APIVersionV1

// execClient builds a client from cfg and puts plugin in place of the real command runner.
func execClient(t *testing.T, cfg *rest.Config, plugin *fakePlugin) *rest.RESTClient {
	t.Helper()
	c, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	require.True(t, exec.SetRunner(c.Transport(), plugin.run), "transport is %T", c.Transport()) // before the first request, so no request races with it
	return c
}

// tokenServer answers resttest.WhoAmI to requests whose bearer token is in valid (all tokens when
// valid is empty) and 401 to the others.
type tokenServer struct {
	mu    sync.Mutex
	valid map[string]bool
	auths []string
}

func (s *tokenServer) accept(tokens ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.valid = map[string]bool{}
	for _, tok := range tokens {
		s.valid["Bearer "+tok] = true
	}
}

func (s *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	auth := r.Header.Get("Authorization")
	s.auths = append(s.auths, auth)
	ok := len(s.valid) == 0 || s.valid[auth]
	s.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`)
		return
	}
	resttest.WhoAmI(w, r)
}

func newTokenServer(t *testing.T) (*tokenServer, *httptest.Server) {
	ts := &tokenServer{}
	srv := httptest.NewServer(ts)
	t.Cleanup(srv.Close)
	return ts, srv
}

func authOf(t *testing.T, c *rest.RESTClient) string {
	t.Helper()
	pod, err := whoIs(t, c)
	require.NoError(t, err)
	return pod.Annotations["auth"]
}

// The plugin runs on the first request, not before, and its token (without an expiry) is
// reused for every later request; clients sharing the transport share the plugin. A
// request that sets its own Authorization header is left alone.
func TestCh02_ExecPluginToken(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	plugin := &fakePlugin{out: []string{credJSON(v1, "t1", time.Time{}, nil, nil), credJSON(v1, "t2", time.Time{}, nil, nil)}}
	cfg := &rest.Config{Host: srv.URL, ExecProvider: &api.ExecConfig{Command: "my-plugin", Args: []string{"get-token"}, APIVersion: v1}}
	c := execClient(t, cfg, plugin)
	assert.Equal(t, 0, plugin.count(), "the plugin runs lazily")

	for range 3 {
		assert.Equal(t, "Bearer t1", authOf(t, c))
	}
	assert.Equal(t, 1, plugin.count(), "a credential without expirationTimestamp is kept")
	assert.Equal(t, "my-plugin", plugin.name)
	assert.Equal(t, []string{"get-token"}, plugin.args)

	// A client built on this client's transport (as kubernetes.NewForConfig shares one)
	// uses the same plugin and cache.
	shared := *cfg
	shared.Transport = c.Transport()
	c2, err := rest.RESTClientFor(&shared)
	require.NoError(t, err)
	assert.Equal(t, "Bearer t1", authOf(t, c2))
	assert.Equal(t, 1, plugin.count())

	// An explicit Authorization header wins, as in client-go's round tripper.
	obj, err := c.Get().Namespace("demo").Resource("pods").Name("me").SetHeader("Authorization", "Bearer mine").Do(context.Background()).Get()
	require.NoError(t, err)
	assert.Equal(t, "Bearer mine", obj.(*api.Pod).Annotations["auth"])
	assert.Equal(t, 1, plugin.count())
}

// A token or client certificate on the Config overrides the plugin, as in client-go (the
// plugin's UpdateTransportConfig steps aside): the plugin never runs. A custom Transport
// without the plugin still gets the plugin's token on top.
func TestCh02_ExecPluginOverridden(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	certPEM, keyPEM := testcert.SelfSignedClient(t, "x", "system:masters")
	execCfg := &api.ExecConfig{Command: "/nonexistent/plugin", APIVersion: v1}

	for name, cfg := range map[string]*rest.Config{
		"bearer token":       {Host: srv.URL, BearerToken: "static", ExecProvider: execCfg},
		"client certificate": {Host: srv.URL, CertData: certPEM, KeyData: keyPEM, ExecProvider: execCfg},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := rest.RESTClientFor(cfg)
			require.NoError(t, err)
			assert.False(t, exec.IsWrapped(c.Transport()), "no plugin round tripper")
			assert.Equal(t, cfg.BearerToken != "", authOf(t, c) == "Bearer static")
		})
	}

	t.Run("custom transport", func(t *testing.T) {
		plugin := &fakePlugin{out: []string{credJSON(v1, "from-plugin", time.Time{}, nil, nil)}}
		c := execClient(t, &rest.Config{Host: srv.URL, Transport: http.DefaultTransport, ExecProvider: execCfg}, plugin)
		assert.Equal(t, "Bearer from-plugin", authOf(t, c))

		// A certificate cannot be presented through a transport this package did not build.
		plugin = &fakePlugin{out: []string{credJSON(v1, "", time.Time{}, certPEM, keyPEM)}}
		c = execClient(t, &rest.Config{Host: srv.URL, Transport: http.DefaultTransport, ExecProvider: execCfg}, plugin)
		_, err := whoIs(t, c)
		require.ErrorContains(t, err, "cannot be presented through a custom Config.Transport")
	})
}

// A credential with expirationTimestamp is reused until Config.Clock passes that time, then
// the plugin runs again.
func TestCh02_ExecPluginExpiry(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	clk := &steppedClock{now: execT0}
	plugin := &fakePlugin{out: []string{
		credJSON(v1, "t1", execT0.Add(time.Hour), nil, nil),
		credJSON(v1, "t2", execT0.Add(2*time.Hour), nil, nil),
	}}
	c := execClient(t, &rest.Config{Host: srv.URL, Clock: clk, ExecProvider: &api.ExecConfig{Command: "p", APIVersion: v1}}, plugin)

	steps := []struct {
		advance  time.Duration
		wantAuth string
		wantRuns int
	}{
		{0, "Bearer t1", 1},
		{59 * time.Minute, "Bearer t1", 1},
		{time.Minute, "Bearer t1", 1}, // exactly at the expiry: not yet after it
		{time.Second, "Bearer t2", 2},
		{30 * time.Minute, "Bearer t2", 2},
	}
	for i, s := range steps {
		clk.step(s.advance)
		assert.Equal(t, s.wantAuth, authOf(t, c), "step %d", i)
		assert.Equal(t, s.wantRuns, plugin.count(), "step %d", i)
	}
}

// A 401 answer makes the plugin run again (once, however many requests saw the old
// credential); the request that got the 401 fails, and the next one uses the new token. A
// refresh that fails empties the cache, so the next request reports the plugin's error or
// runs it successfully.
func TestCh02_ExecPlugin401(t *testing.T) {
	checkNoLeak(t)
	ts, srv := newTokenServer(t)
	ts.accept("t2")
	plugin := &fakePlugin{out: []string{
		credJSON(v1, "t1", time.Time{}, nil, nil),
		credJSON(v1, "t2", time.Time{}, nil, nil),
		"not json",
		credJSON(v1, "t3", time.Time{}, nil, nil),
	}}
	c := execClient(t, &rest.Config{Host: srv.URL, ExecProvider: &api.ExecConfig{Command: "p", APIVersion: v1}}, plugin)

	_, err := whoIs(t, c)
	require.True(t, api.IsUnauthorized(err), "%v", err)
	assert.Equal(t, 2, plugin.count(), "refreshed after the 401")
	assert.Equal(t, "Bearer t2", authOf(t, c))
	assert.Equal(t, 2, plugin.count())

	// The server stops accepting t2; the refresh prints garbage, the next run t3.
	ts.accept("t3")
	_, err = whoIs(t, c)
	require.True(t, api.IsUnauthorized(err), "%v", err)
	assert.Equal(t, 3, plugin.count())
	assert.Equal(t, "Bearer t3", authOf(t, c))
	assert.Equal(t, 4, plugin.count())
	assert.Equal(t, []string{"Bearer t1", "Bearer t2", "Bearer t2", "Bearer t3"}, ts.auths)
}

// Concurrent first requests run the plugin once.
func TestCh02_ExecPluginConcurrent(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	plugin := &fakePlugin{out: []string{credJSON(v1, "t1", time.Time{}, nil, nil)}}
	c := execClient(t, &rest.Config{Host: srv.URL, ExecProvider: &api.ExecConfig{Command: "p", APIVersion: v1}}, plugin)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, err := whoIs(t, c)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, 1, plugin.count())
}

// A plugin may answer with a client certificate (clientCertificateData and clientKeyData):
// it is presented in the TLS handshake, and a new one after expiry is used for new
// connections.
func TestCh02_ExecPluginClientCertificate(t *testing.T) {
	checkNoLeak(t)
	certA, keyA := testcert.SelfSignedClient(t, "plugin-a", "system:masters")
	certB, keyB := testcert.SelfSignedClient(t, "plugin-b", "system:masters")
	srv := resttest.NewMTLSServer(t, certA, certB)
	clk := &steppedClock{now: execT0}
	plugin := &fakePlugin{out: []string{
		credJSON(exec.APIVersionV1beta1, "", execT0.Add(time.Hour), certA, keyA),
		credJSON(exec.APIVersionV1beta1, "", time.Time{}, certB, keyB),
	}}
	c := execClient(t, &rest.Config{Host: srv.URL, CAData: resttest.ServerCA(srv), Clock: clk,
		ExecProvider: &api.ExecConfig{Command: "p", APIVersion: exec.APIVersionV1beta1}}, plugin)

	pod, err := whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "plugin-a", pod.Name)
	assert.Empty(t, pod.Annotations["auth"], "no token from this plugin")
	pod, err = whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "plugin-a", pod.Name)
	assert.Equal(t, 1, plugin.count())

	clk.step(time.Hour + time.Second)
	pod, err = whoIs(t, c)
	require.NoError(t, err)
	assert.Equal(t, "plugin-b", pod.Name, "the idle connection with the old certificate was closed")
	assert.Equal(t, 2, plugin.count())
}

// KUBERNETES_EXEC_INFO carries an ExecCredential with spec.interactive false, and
// spec.cluster only with provideClusterInfo; the configured env is set on top of ours.
func TestCh02_ExecPluginInput(t *testing.T) {
	checkNoLeak(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(resttest.WhoAmI))
	t.Cleanup(srv.Close)
	t.Setenv("LISTWATCH_TEST_INHERITED", "from-parent")
	t.Setenv("LISTWATCH_TEST_OVERRIDDEN", "from-parent")
	ca := resttest.ServerCA(srv)
	tests := []struct {
		name        string
		provideInfo bool
		apiVersion  string
		want        map[string]any
	}{
		{name: "no cluster info", apiVersion: v1, want: map[string]any{
			"apiVersion": v1, "kind": "ExecCredential", "spec": map[string]any{"interactive": false}}},
		{name: "cluster info", provideInfo: true, apiVersion: exec.APIVersionV1beta1, want: map[string]any{
			"apiVersion": exec.APIVersionV1beta1, "kind": "ExecCredential", "spec": map[string]any{
				"interactive": false,
				"cluster": map[string]any{"server": srv.URL, "tls-server-name": "example.com",
					"certificate-authority-data": base64.StdEncoding.EncodeToString(ca),
					"config":                     nil, // as client-go writes it (see the kubectl e2e test)
				}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plugin := &fakePlugin{out: []string{credJSON(tc.apiVersion, "tok", time.Time{}, nil, nil)}}
			c := execClient(t, &rest.Config{Host: srv.URL, CAData: ca, TLSServerName: "example.com", ExecProvider: &api.ExecConfig{
				Command: "p", APIVersion: tc.apiVersion, ProvideClusterInfo: tc.provideInfo,
				InteractiveMode: api.IfAvailableExecInteractiveMode,
				Env:             []api.ExecEnvVar{{Name: "LISTWATCH_TEST_OVERRIDDEN", Value: "from-config"}, {Name: "EXTRA", Value: "1"}},
			}}, plugin)
			assert.Equal(t, "Bearer tok", authOf(t, c))

			info, ok := plugin.envValue(exec.InfoEnv)
			require.True(t, ok)
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(info), &got))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", exec.InfoEnv, diff)
			}
			for key, want := range map[string]string{"LISTWATCH_TEST_INHERITED": "from-parent",
				"LISTWATCH_TEST_OVERRIDDEN": "from-config", "EXTRA": "1"} {
				v, _ := plugin.envValue(key)
				assert.Equal(t, want, v, key)
			}
		})
	}
}

// A request whose context ends while the plugin runs fails with the context's error and
// what the plugin had written to stderr (a login prompt it was waiting on, say); the next
// request runs the plugin again.
func TestCh02_ExecPluginCancelled(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL, ExecProvider: &api.ExecConfig{Command: "kubelogin", APIVersion: v1}})
	require.NoError(t, err)
	started := make(chan struct{})
	runs := 0
	exec.SetRunner(c.Transport(), func(ctx context.Context, _ string, _, _ []string, stdout, stderr io.Writer) error {
		runs++
		if runs == 1 {
			_, _ = io.WriteString(stderr, "To sign in, open https://login.example/device and enter code ABCD\n")
			close(started)
			<-ctx.Done() // waits for a login that never comes
			return ctx.Err()
		}
		_, err := io.WriteString(stdout, credJSON(v1, "t1", time.Time{}, nil, nil))
		return err
	})

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err = c.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("demo").Get(ctx, "me")
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "exec plugin kubelogin: stopped before it answered: context canceled; "+
		"its stderr: To sign in, open https://login.example/device and enter code ABCD")

	assert.Equal(t, "Bearer t1", authOf(t, c))
	assert.Equal(t, 2, runs)
}

// What a plugin prints must be an ExecCredential of the configured version with a usable
// status; otherwise the request fails with an error that says what was wrong, and the GET
// is not retried.
func TestCh02_ExecPluginBadOutput(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	certPEM, keyPEM := testcert.SelfSignedClient(t, "x", "system:masters")
	_, otherKey := testcert.SelfSignedClient(t, "y", "system:masters")
	tests := []struct {
		name    string
		out     string
		wantErr string
	}{
		{"not JSON", "Please log in first", "decoding its output as an ExecCredential"},
		{"empty output", "", "decoding its output as an ExecCredential"},
		{"wrong kind", `{"apiVersion":"` + v1 + `","kind":"Pod","status":{"token":"t"}}`, `its output has kind "Pod", want ExecCredential`},
		{"no kind", `{"apiVersion":"` + v1 + `","status":{"token":"t"}}`, `its output has kind "", want ExecCredential`},
		{"other apiVersion", credJSON(exec.APIVersionV1beta1, "t", time.Time{}, nil, nil),
			`configured to use apiVersion client.authentication.k8s.io/v1, but its output has apiVersion "client.authentication.k8s.io/v1beta1"`},
		{"no status", `{"apiVersion":"` + v1 + `","kind":"ExecCredential"}`, "its output has no status"},
		{"empty status", `{"apiVersion":"` + v1 + `","kind":"ExecCredential","status":{}}`, "neither a token nor a client certificate and key"},
		{"certificate without key", `{"apiVersion":"` + v1 + `","kind":"ExecCredential","status":{"clientCertificateData":"x"}}`,
			"only one of clientCertificateData and clientKeyData"},
		{"mismatched certificate and key", credJSON(v1, "", time.Time{}, certPEM, otherKey), "its client certificate and key are not usable"},
		{"swapped certificate and key", credJSON(v1, "", time.Time{}, keyPEM, certPEM), "its client certificate and key are not usable"},
		{"bad expiry", `{"apiVersion":"` + v1 + `","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"tomorrow"}}`,
			"expirationTimestamp is not RFC 3339"},
		{"output too large", strings.Repeat(" ", exec.MaxExecStdout+1), "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plugin := &fakePlugin{out: []string{tc.out}}
			c := execClient(t, &rest.Config{Host: srv.URL, ExecProvider: &api.ExecConfig{Command: "my-plugin", APIVersion: v1}}, plugin)
			_, err := whoIs(t, c)
			require.ErrorContains(t, err, "exec plugin my-plugin: ")
			require.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, 1, plugin.count(), "not retried")
		})
	}
}

// Exec settings that cannot work are refused when the client is built, even when a token
// overrides the plugin (client-go's GetAuthenticator checks the version first, too).
func TestCh02_ExecPluginConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		exec    api.ExecConfig
		token   string
		wantErr string
	}{
		{"v1alpha1", api.ExecConfig{Command: "p", APIVersion: "client.authentication.k8s.io/v1alpha1"}, "",
			`apiVersion "client.authentication.k8s.io/v1alpha1" is no longer supported`},
		{"v1alpha1 with a token", api.ExecConfig{Command: "p", APIVersion: "client.authentication.k8s.io/v1alpha1"}, "t",
			`apiVersion "client.authentication.k8s.io/v1alpha1" is no longer supported`},
		{"unknown apiVersion", api.ExecConfig{Command: "p", APIVersion: "v1"}, "", `invalid apiVersion "v1"`},
		{"no apiVersion", api.ExecConfig{Command: "p"}, "", "apiVersion must be set"},
		{"no command", api.ExecConfig{APIVersion: v1}, "", "command must be set"},
		{"env without name", api.ExecConfig{Command: "p", APIVersion: v1, Env: []api.ExecEnvVar{{Value: "x"}}}, "", "env[0] has no name"},
		{"interactive always", api.ExecConfig{Command: "p", APIVersion: v1, InteractiveMode: api.AlwaysExecInteractiveMode}, "",
			`interactiveMode "Always" needs a terminal, but this client runs plugins without one`},
		{"unknown interactive mode", api.ExecConfig{Command: "p", APIVersion: v1, InteractiveMode: "Sometimes"}, "", `invalid interactiveMode "Sometimes"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rest.RESTClientFor(&rest.Config{Host: "https://h", BearerToken: tc.token, ExecProvider: &tc.exec})
			require.ErrorContains(t, err, "rest: Config.ExecProvider: exec plugin: "+tc.wantErr)
		})
	}
	for _, mode := range []api.ExecInteractiveMode{"", api.NeverExecInteractiveMode, api.IfAvailableExecInteractiveMode} {
		_, err := rest.RESTClientFor(&rest.Config{Host: "https://h", ExecProvider: &api.ExecConfig{Command: "p", APIVersion: v1, InteractiveMode: mode}})
		require.NoError(t, err, "interactiveMode %q", mode)
	}
}

// helperEnv makes the test binary act as a credential plugin (see TestHelperProcess).
const helperEnv = "LISTWATCH_EXEC_HELPER"

// TestHelperProcess is not a test: run as a plugin (os.Args[0] -test.run=^TestHelperProcess$
// with LISTWATCH_EXEC_HELPER set), it plays the plugin named by that variable and exits.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	switch mode {
	case "token":
		// The token proves the plugin saw its input: the apiVersion it was asked for.
		var in exec.Credential
		if err := json.Unmarshal([]byte(os.Getenv(exec.InfoEnv)), &in); err != nil {
			fmt.Fprintln(os.Stderr, "bad input:", err)
			os.Exit(2)
		}
		fmt.Printf(`{"apiVersion":%q,"kind":"ExecCredential","status":{"token":"helper-%s"}}`, in.APIVersion, strings.TrimPrefix(in.APIVersion, "client.authentication.k8s.io/"))
		os.Exit(0)
	case "fail":
		// A message that mentions a reset connection must not make the client retry.
		fmt.Fprint(os.Stderr, "\nerror: getting credentials: dial tcp 10.0.0.1:443: connection reset by peer\n\n")
		fmt.Fprint(os.Stderr, strings.Repeat("x", 3*exec.MaxExecStderr))
		os.Exit(3)
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	os.Exit(2)
}

// Real processes: the test binary re-executed as the plugin, and commands that do not exist.
func TestCh02_ExecPluginProcess(t *testing.T) {
	checkNoLeak(t)
	_, srv := newTokenServer(t)
	self, err := os.Executable()
	require.NoError(t, err)
	helper := func(mode, apiVersion string) *api.ExecConfig {
		return &api.ExecConfig{Command: self, Args: []string{"-test.run=^TestHelperProcess$"}, APIVersion: apiVersion,
			InstallHint: "never shown", Env: []api.ExecEnvVar{{Name: helperEnv, Value: mode},
				// Under -race a binary waits 1 s at exit by default; the plugin need not.
				{Name: "GORACE", Value: "atexit_sleep_ms=0"}}}
	}
	hint := "Install my-plugin: go install example.com/my-plugin@latest"
	tests := []struct {
		name     string
		exec     *api.ExecConfig
		wantAuth string
		wantErr  []string
	}{
		{name: "token v1", exec: helper("token", v1), wantAuth: "Bearer helper-v1"},
		{name: "token v1beta1", exec: helper("token", exec.APIVersionV1beta1), wantAuth: "Bearer helper-v1beta1"},
		{name: "exit code and stderr", exec: helper("fail", v1), wantErr: []string{
			"failed with exit code 3: error: getting credentials: dial tcp 10.0.0.1:443: connection reset by peer\n\nxxx",
			"x …",
		}},
		{name: "not in PATH", exec: &api.ExecConfig{Command: "informer-lab-no-such-plugin", APIVersion: v1, InstallHint: hint},
			wantErr: []string{`executable "informer-lab-no-such-plugin" was not found`, "\n\n" + hint}},
		{name: "no such file", exec: &api.ExecConfig{Command: filepath.Join(t.TempDir(), "plugin"), APIVersion: v1, InstallHint: hint},
			wantErr: []string{"was not found; is the credential plugin installed?\n\n" + hint}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL, ExecProvider: tc.exec})
			require.NoError(t, err)
			// Count runs around the real runner: a failed plugin must not be retried.
			runs := 0
			exec.SetRunner(c.Transport(), func(ctx context.Context, name string, args, env []string, stdout, stderr io.Writer) error {
				runs++
				return exec.RunCommand(ctx, name, args, env, stdout, stderr)
			})
			pod, err := whoIs(t, c)
			assert.Equal(t, 1, runs)
			if tc.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, tc.wantAuth, pod.Annotations["auth"])
				return
			}
			require.Error(t, err)
			for _, want := range tc.wantErr {
				assert.Contains(t, err.Error(), want)
			}
			assert.Less(t, len(err.Error()), exec.MaxExecStderr+500, "stderr is capped")
		})
	}
}

// whoIs asks the server who the client is: the Pod resttest.WhoAmI returns.
func whoIs(t *testing.T, c *rest.RESTClient) (*api.Pod, error) {
	t.Helper()
	obj, err := c.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("demo").Get(context.Background(), "me")
	if err != nil {
		return nil, err
	}
	pod, ok := obj.(*api.Pod)
	require.True(t, ok, "%T", obj)
	return pod, nil
}

// checkNoLeak fails t when a goroutine of the client side outlives it.
func checkNoLeak(t *testing.T) {
	t.Helper()
	leakcheck.Check(t, "informer-lab/rest.", "informer-lab/rest/watch.", "informer-lab/plugin/pkg/client/auth/exec.")
}
