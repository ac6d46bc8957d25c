package clientcmd

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/leakcheck"
	"github.com/informer-lab/informer-lab/internal/resttest"
	"github.com/informer-lab/informer-lab/internal/testcert"
	"github.com/informer-lab/informer-lab/rest"
)

// The real-looking kubeconfig in testdata: each context gives the expected Config or a
// clear error.
func TestCh02_KubeconfigFile(t *testing.T) {
	clientCrt, err := os.ReadFile(filepath.Join("testdata", "client.crt"))
	require.NoError(t, err)
	clientKey, err := os.ReadFile(filepath.Join("testdata", "client.key"))
	require.NoError(t, err)
	k, err := LoadKubeconfig(filepath.Join("testdata", "kubeconfig.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "kind-lab", k.CurrentContext)
	assert.Len(t, k.Clusters, 3)
	assert.Len(t, k.Contexts, 4)
	assert.Len(t, k.AuthInfos, 4)

	tests := []struct {
		context string
		want    *rest.Config
		wantNS  string
		wantErr string
	}{
		{context: "", wantNS: "demo", want: &rest.Config{Host: "https://127.0.0.1:39145",
			BearerToken: "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.eyJzdWIiOiJsYWIifQ.c2lnbmF0dXJl",
			CAData:      []byte("-----BEGIN CERTIFICATE-----\nMIIBdummycertificatefortestsonly\n-----END CERTIFICATE-----\n")}},
		{context: "dev", wantNS: "default", want: &rest.Config{Host: "https://dev.example.com:6443", Insecure: true,
			TLSServerName: "api.dev.example.com", BearerToken: "token-from-file"}},
		{context: "minikube", wantNS: "default", want: &rest.Config{Host: "https://192.168.49.2:8443",
			CAData:   []byte("-----BEGIN CERTIFICATE-----\nMIIBfromfile\n-----END CERTIFICATE-----\n"),
			CertData: clientCrt, KeyData: clientKey}},
		{context: "cloud", wantNS: "default", want: &rest.Config{Host: "https://dev.example.com:6443", Insecure: true,
			TLSServerName: "api.dev.example.com", ExecProvider: &api.ExecConfig{
				Command: "gke-gcloud-auth-plugin", Args: []string{"--flag", "x"}, APIVersion: "client.authentication.k8s.io/v1beta1",
				Env:         []api.ExecEnvVar{{Name: "CLOUDSDK_CORE_PROJECT", Value: "lab"}},
				InstallHint: "Install gke-gcloud-auth-plugin for use with kubectl", ProvideClusterInfo: true,
				InteractiveMode: api.IfAvailableExecInteractiveMode}}},
		{context: "nope", wantErr: `context "nope" not found in kubeconfig (have "cloud", "dev", "kind-lab", "minikube")`},
	}
	for _, tc := range tests {
		t.Run("context "+tc.context, func(t *testing.T) {
			cfg, err := k.ClientConfig(tc.context)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
				if diff := cmp.Diff(tc.want, cfg, cmp.AllowUnexported(rest.Config{})); diff != "" {
					t.Errorf("config (-want +got):\n%s", diff)
				}
			}
			ns, err := k.Namespace(tc.context)
			if tc.wantNS == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantNS, ns)
		})
	}

	// The minikube cluster's CA file and its user's certificate and key resolve against the
	// kubeconfig's directory.
	assert.Equal(t, filepath.Join("testdata", "ca.crt"), k.resolve(k.Clusters["minikube"].CertificateAuthority))
	assert.Equal(t, filepath.Join("testdata", "client.crt"), k.resolve(k.AuthInfos["minikube"].ClientCertificate))
	// The parsed user keeps the file names; the data is read by ClientConfig.
	assert.Equal(t, &api.AuthInfo{ClientCertificate: "client.crt", ClientKey: "client.key"}, k.AuthInfos["minikube"])

	cfg, err := BuildConfigFromKubeconfig(filepath.Join("testdata", "kubeconfig.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "https://127.0.0.1:39145", cfg.Host)
}

// KUBECONFIG picks the file when no path is given.
func TestCh02_KubeconfigEnv(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("testdata", "kubeconfig.yaml"))
	require.NoError(t, err)
	t.Setenv("KUBECONFIG", path+string(os.PathListSeparator)+"/does/not/exist")
	k, err := LoadKubeconfig("")
	require.NoError(t, err)
	assert.Equal(t, "kind-lab", k.CurrentContext)

	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir())
	_, err = LoadKubeconfig("")
	require.ErrorContains(t, err, "reading kubeconfig")
}

// Table tests of the parser: YAML and JSON, and the errors for what it does not support.
func TestCh02_KubeconfigParse(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	ca := b64("PEM")
	minimal := func(server, user string) string {
		return fmt.Sprintf("current-context: c\nclusters:\n- name: k\n  cluster:\n    server: %s\ncontexts:\n- name: c\n  context:\n    cluster: k\n    user: u\nusers:\n- name: u\n  user:\n%s\n", server, user)
	}
	tests := []struct {
		name    string
		data    string
		context string
		want    *rest.Config
		wantErr string
	}{
		{name: "minimal token", data: minimal("https://h:6443", "    token: abc"),
			want: &rest.Config{Host: "https://h:6443", BearerToken: "abc"}},
		{name: "no user credentials", data: minimal("http://h", "    {}"), want: &rest.Config{Host: "http://h"}},
		{name: "indented sequences and comments", data: `
# comment
current-context: "c"   # trailing
clusters:
  - name: k
    cluster:
      server: https://h # not part of the value
      certificate-authority-data: ` + ca + `
contexts:
  -   name: c
      context: {cluster: k}
`, want: &rest.Config{Host: "https://h", CAData: []byte("PEM")}},
		{name: "indented sequences", data: `
current-context: c
clusters:
  - name: k
    cluster:
      server: https://h # not part of the value
      certificate-authority-data: ` + ca + `
      insecure-skip-tls-verify: false
contexts:
  -   name: c
      context:
        cluster: k
users: []
`, want: &rest.Config{Host: "https://h", CAData: []byte("PEM")}},
		{name: "quoted strings", data: minimal(`'https://h:1'`, `    token: "a\"b\\c"`),
			want: &rest.Config{Host: "https://h:1", BearerToken: `a"b\c`}},
		{name: "single quote escape", data: minimal(`https://h`, `    token: 'it''s'`),
			want: &rest.Config{Host: "https://h", BearerToken: "it's"}},
		{name: "CRLF line ends", data: strings.ReplaceAll(minimal("https://h", "    token: t"), "\n", "\r\n"),
			want: &rest.Config{Host: "https://h", BearerToken: "t"}},
		{name: "document marker", data: "---\n" + minimal("https://h", "    token: t"),
			want: &rest.Config{Host: "https://h", BearerToken: "t"}},
		{name: "JSON kubeconfig", data: `{"kind":"Config","apiVersion":"v1","current-context":"c",
			"clusters":[{"name":"k","cluster":{"server":"https://j","insecure-skip-tls-verify":true}}],
			"contexts":[{"name":"c","context":{"cluster":"k","user":"u","namespace":"x"}}],
			"users":[{"name":"u","user":{"token":"jt"}}]}`,
			want: &rest.Config{Host: "https://j", Insecure: true, BearerToken: "jt"}},
		{name: "named context", context: "other", data: "current-context: c\nclusters:\n- name: k\n  cluster:\n    server: https://k\n" +
			"- name: o\n  cluster:\n    server: https://o\ncontexts:\n- name: c\n  context:\n    cluster: k\n- name: other\n  context:\n    cluster: o\n",
			want: &rest.Config{Host: "https://o"}},
		{name: "sequence item among keys", data: "kind: Config\n- x\n", wantErr: "did not find expected key"},
		{name: "basic auth refused", data: minimal("https://h", "    username: admin\n    password: x"),
			wantErr: "authenticates with username, password"},
		{name: "auth provider refused", data: minimal("https://h", "    auth-provider:\n      name: oidc"),
			wantErr: "authenticates with auth-provider, which this client does not support; use a token"},
		{name: "impersonation refused", data: minimal("https://h", "    token: t\n    as: admin\n    as-groups: [system:masters]"),
			wantErr: "authenticates with as, as-groups"},
		{name: "client certificate data", data: minimal("https://h", "    client-certificate-data: "+b64("CERT")+"\n    client-key-data: "+b64("KEY")),
			want: &rest.Config{Host: "https://h", CertData: []byte("CERT"), KeyData: []byte("KEY")}},
		{name: "certificate data wins over a file", data: minimal("https://h", "    client-certificate: /nonexistent/c.crt\n    client-certificate-data: "+b64("CERT")+
			"\n    client-key: /nonexistent/c.key\n    client-key-data: "+b64("KEY")),
			want: &rest.Config{Host: "https://h", CertData: []byte("CERT"), KeyData: []byte("KEY")}},
		{name: "token and client certificate", data: minimal("https://h", "    token: t\n    client-certificate-data: "+b64("CERT")+"\n    client-key-data: "+b64("KEY")),
			want: &rest.Config{Host: "https://h", BearerToken: "t", CertData: []byte("CERT"), KeyData: []byte("KEY")}},
		{name: "certificate without key", data: minimal("https://h", "    client-certificate-data: "+b64("CERT")),
			wantErr: `user "u" has a client certificate but no key: set client-key or client-key-data too`},
		{name: "key without certificate", data: minimal("https://h", "    client-key: k.key"),
			wantErr: `user "u" has a client key but no certificate: set client-certificate or client-certificate-data too`},
		{name: "bad certificate base64", data: minimal("https://h", "    client-certificate-data: '%%%'\n    client-key-data: "+b64("KEY")),
			wantErr: `users "u": client-certificate-data is not base64`},
		{name: "missing certificate file", data: minimal("https://h", "    client-certificate: /nonexistent/c.crt\n    client-key-data: "+b64("KEY")),
			wantErr: `user "u" client-certificate: open /nonexistent/c.crt`},
		{name: "missing key file", data: minimal("https://h", "    client-certificate-data: "+b64("CERT")+"\n    client-key: /nonexistent/c.key"),
			wantErr: `user "u" client-key: open /nonexistent/c.key`},
		{name: "exec plugin", data: minimal("https://h", `    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: aws
      args:
      - eks
      - get-token
      - --cluster-name
      - lab
      env:
      - name: AWS_PROFILE
        value: dev
      - name: EMPTY
      interactiveMode: Never
      provideClusterInfo: false`),
			want: &rest.Config{Host: "https://h", ExecProvider: &api.ExecConfig{Command: "aws", Args: []string{"eks", "get-token", "--cluster-name", "lab"},
				Env: []api.ExecEnvVar{{Name: "AWS_PROFILE", Value: "dev"}, {Name: "EMPTY"}}, APIVersion: "client.authentication.k8s.io/v1",
				InteractiveMode: api.NeverExecInteractiveMode}}},
		{name: "exec plugin in JSON", data: `{"current-context":"c","clusters":[{"name":"k","cluster":{"server":"https://j"}}],
			"contexts":[{"name":"c","context":{"cluster":"k","user":"u"}}],
			"users":[{"name":"u","user":{"exec":{"apiVersion":"client.authentication.k8s.io/v1beta1","command":"kubelogin",
			"args":["get-token","--server-id",6],"env":null,"provideClusterInfo":true}}}]}`,
			want: &rest.Config{Host: "https://j", ExecProvider: &api.ExecConfig{Command: "kubelogin", Args: []string{"get-token", "--server-id", "6"},
				APIVersion: "client.authentication.k8s.io/v1beta1", ProvideClusterInfo: true}}},
		{name: "token and exec plugin", data: minimal("https://h", "    token: t\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: p"),
			want: &rest.Config{Host: "https://h", BearerToken: "t", ExecProvider: &api.ExecConfig{Command: "p", APIVersion: "client.authentication.k8s.io/v1"}}},
		{name: "exec v1alpha1 refused", data: minimal("https://h", "    exec:\n      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: p"),
			wantErr: `user "u": exec plugin: apiVersion "client.authentication.k8s.io/v1alpha1" is no longer supported`},
		{name: "exec interactive always refused", data: minimal("https://h", "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: p\n      interactiveMode: Always"),
			wantErr: `user "u": exec plugin: interactiveMode "Always" needs a terminal`},
		{name: "exec without command", data: minimal("https://h", "    exec:\n      apiVersion: client.authentication.k8s.io/v1"),
			wantErr: `user "u": exec plugin: command must be set`},
		{name: "exec not a mapping", data: minimal("https://h", "    exec: aws"), wantErr: `users "u": exec: must be a mapping`},
		{name: "exec args not a list", data: minimal("https://h", "    exec:\n      command: p\n      args: x"), wantErr: "exec: args must be a list"},
		{name: "exec arg not a string", data: minimal("https://h", "    exec:\n      command: p\n      args:\n      - k: v"), wantErr: "exec: args[0] must be a string"},
		{name: "exec env not a list", data: minimal("https://h", "    exec:\n      command: p\n      env: A=B"), wantErr: "exec: env must be a list"},
		{name: "exec env entry not a mapping", data: minimal("https://h", "    exec:\n      command: p\n      env:\n      - A=B"),
			wantErr: "exec: env[0] must be a mapping with name and value"},
		{name: "exec bad provideClusterInfo", data: minimal("https://h", "    exec:\n      command: p\n      provideClusterInfo: maybe"),
			wantErr: "exec: provideClusterInfo: want true or false"},
		{name: "proxy refused", data: strings.Replace(minimal("https://h", "    token: t"), "    server: https://h", "    server: https://h\n    proxy-url: http://p", 1),
			wantErr: `cluster "k" uses proxy-url`},
		{name: "no current context", data: "clusters: []\n", wantErr: "no current-context is set"},
		{name: "missing cluster", data: "current-context: c\ncontexts:\n- name: c\n  context:\n    cluster: gone\n",
			wantErr: `names cluster "gone", which is not in the kubeconfig`},
		{name: "missing user", data: strings.Replace(minimal("https://h", "    token: t"), "user: u", "user: ghost", 1),
			wantErr: `names user "ghost"`},
		{name: "no server", data: minimal("", "    token: t"), wantErr: `cluster "k" has no server`},
		{name: "bad base64", data: strings.Replace(minimal("https://h", "    token: t"), "    server: https://h", "    server: https://h\n    certificate-authority-data: '%%%'", 1),
			wantErr: "certificate-authority-data is not base64"},
		{name: "% cannot start a plain scalar, as in kubectl", data: strings.Replace(minimal("https://h", "    token: t"), "    server: https://h", "    server: https://h\n    certificate-authority-data: %%%", 1),
			wantErr: "line 6: found character that cannot start any token"},
		{name: "bad bool", data: strings.Replace(minimal("https://h", "    token: t"), "    server: https://h", "    server: https://h\n    insecure-skip-tls-verify: maybe", 1),
			wantErr: "insecure-skip-tls-verify: want true or false"},
		{name: "missing CA file", data: strings.Replace(minimal("https://h", "    token: t"), "    server: https://h", "    server: https://h\n    certificate-authority: /nonexistent/ca.crt", 1),
			wantErr: "certificate-authority"},
		{name: "missing token file", data: minimal("https://h", "    tokenFile: /nonexistent/token"), wantErr: "tokenFile"},
		{name: "empty", data: "", wantErr: "kubeconfig is empty"},
		{name: "not a mapping", data: "- a\n- b\n", wantErr: "must be a mapping"},
		{name: "wrong kind", data: "kind: Pod\n", wantErr: `kubeconfig has kind "Pod"`},
		{name: "clusters not a list", data: "clusters: x\n", wantErr: "clusters must be a list"},
		{name: "entry without name", data: "clusters:\n- cluster:\n    server: x\n", wantErr: "clusters[0] has no name"},
		{name: "tabs", data: "clusters:\n\t- name: x\n", wantErr: "line 2: found character that cannot start any token"},
		{name: "unknown alias", data: "clusters: *a\n", wantErr: `unknown anchor "a"`},
		{name: "explicit key", data: "? clusters\n: []\n", wantErr: "explicit keys"},
		{name: "unsupported tag", data: "users:\n- name: u\n  user:\n    token: !!binary YWJj\n", wantErr: "tag !!binary is not supported"},
		{name: "duplicate key: the last wins, as in kubectl", data: strings.Replace(minimal("https://h", "    token: t"), "current-context: c\n", "current-context: x\ncurrent-context: c\n", 1),
			want: &rest.Config{Host: "https://h", BearerToken: "t"}},
		{name: "bad indentation", data: "kind: Config\n   apiVersion: v1\n", wantErr: "line 2: mapping values are not allowed in this context"},
		{name: "unterminated quote", data: "kind: \"Config\n", wantErr: "line 2: found unexpected end of stream"},
		{name: "two documents", data: "kind: Config\n---\nkind: Config\n", wantErr: "only one document"},
		{name: "invalid UTF-8", data: "kind: \xff\n", wantErr: "not valid UTF-8"},
		{name: "bad JSON", data: `{"kind":`, wantErr: "kubeconfig is not valid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := ParseKubeconfig([]byte(tc.data))
			var cfg *rest.Config
			if err == nil {
				cfg, err = k.ClientConfig(tc.context)
			}
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, cfg, cmp.AllowUnexported(rest.Config{})); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

// An exec command with a path separator resolves against the kubeconfig's directory, as
// clientcmd does; a bare name is left for the PATH lookup.
func TestCh02_KubeconfigExecCommandPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ command, want string }{
		{"gke-gcloud-auth-plugin", "gke-gcloud-auth-plugin"},
		{filepath.Join("bin", "plugin"), filepath.Join(dir, "bin", "plugin")},
		{"/usr/local/bin/aws", "/usr/local/bin/aws"},
	}
	for _, tc := range tests {
		t.Run(tc.command, func(t *testing.T) {
			path := filepath.Join(dir, "config")
			require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf("current-context: c\nclusters:\n- name: k\n  cluster:\n    server: https://h\n"+
				"contexts:\n- name: c\n  context:\n    cluster: k\n    user: u\nusers:\n- name: u\n  user:\n    exec:\n"+
				"      apiVersion: client.authentication.k8s.io/v1\n      command: %q\n", tc.command)), 0o600))
			cfg, err := BuildConfigFromKubeconfig(path)
			require.NoError(t, err)
			require.NotNil(t, cfg.ExecProvider)
			assert.Equal(t, tc.want, cfg.ExecProvider.Command)
		})
	}
}

// The YAML reader on its own: shapes kubeconfig files use (plain scalars as written).
func TestCh02_YAMLSubset(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"sequence at the key's indentation", "a:\n- x\n- y\nb: z\n", map[string]any{"a": []any{"x", "y"}, "b": "z"}},
		{"compact mappings in a sequence", "l:\n- k: 1\n  m: 2\n- k: 3\n", map[string]any{"l": []any{map[string]any{"k": "1", "m": "2"}, map[string]any{"k": "3"}}}},
		{"dash alone", "l:\n-\n  k: v\n- \n", map[string]any{"l": []any{map[string]any{"k": "v"}, nil}}},
		{"nested sequence", "l:\n- - a\n  - b\n", map[string]any{"l": []any{[]any{"a", "b"}}}},
		{"flow sequence", `args: ["a b", 'c', d , e]`, map[string]any{"args": []any{"a b", "c", "d", "e"}}},
		{"empty flow", "a: []\nb: {}\nc:\nd: ~\n", map[string]any{"a": []any{}, "b": map[string]any{}, "c": nil, "d": nil}},
		{"hash inside values", "url: http://h/#frag\nq: \"a # b\"\n", map[string]any{"url": "http://h/#frag", "q": "a # b"}},
		{"quoted key", `"a b": c`, map[string]any{"a b": "c"}},
		{"escapes", `s: "\t\u00e9\x41\n"`, map[string]any{"s": "\té" + "A\n"}},
		{"colon in value", "server: https://1.2.3.4:6443\n", map[string]any{"server": "https://1.2.3.4:6443"}},
		{"scalar document", "hello\n", "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseYAML([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.want, asWritten(got))
		})
	}
}

// End to end against a real TLS server: a kubeconfig with CA data and a token.
func TestCh02_KubeconfigAgainstTLSServer(t *testing.T) {
	var auth, query string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, query = r.Header.Get("Authorization"), r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1043"},"items":[]}`)
	}))
	defer srv.Close()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	path := filepath.Join(t.TempDir(), "config")
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: %s
    server: %s
  name: test
contexts:
- context:
    cluster: test
    user: test
  name: test
current-context: test
users:
- name: test
  user:
    token: kube-token
`, ca, srv.URL)), 0o600))
	cfg, err := BuildConfigFromKubeconfig(path)
	require.NoError(t, err)
	c, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	obj, err := c.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("demo").List(context.Background(), api.ListOptions{Limit: 500})
	require.NoError(t, err)
	assert.Equal(t, "1043", obj.(*api.PodList).ResourceVersion)
	assert.Equal(t, "Bearer kube-token", auth)
	assert.Equal(t, "limit=500", query)
}

// A kubeconfig's client certificate, kind style (base64 data) and minikube style (files
// next to the kubeconfig), reaches a server that requires it.
func TestCh02_ClientCertificateKubeconfig(t *testing.T) {
	checkNoLeak(t)
	dataCert, dataKey := testcert.SelfSignedClient(t, "kind-lab", "system:masters")
	fileCert, err := os.ReadFile(filepath.Join("testdata", "client.crt"))
	require.NoError(t, err)
	fileKey, err := os.ReadFile(filepath.Join("testdata", "client.key"))
	require.NoError(t, err)
	srv := resttest.NewMTLSServer(t, dataCert, fileCert)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.crt"), fileCert, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.key"), fileKey, 0o600))
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		name   string
		user   string
		wantCN string
	}{
		{"kind: certificate data", fmt.Sprintf("    client-certificate-data: %s\n    client-key-data: %s\n", b64(dataCert), b64(dataKey)), "kind-lab"},
		{"minikube: files beside the kubeconfig", "    client-certificate: client.crt\n    client-key: client.key\n", "minikube-user"},
		{"data wins over a file", fmt.Sprintf("    client-certificate: client.crt\n    client-certificate-data: %s\n    client-key: client.key\n    client-key-data: %s\n",
			b64(dataCert), b64(dataKey)), "kind-lab"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "config")
			require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: lab
clusters:
- name: lab
  cluster:
    server: %s
    certificate-authority-data: %s
contexts:
- name: lab
  context:
    cluster: lab
    user: lab
users:
- name: lab
  user:
%s`, srv.URL, b64(resttest.ServerCA(srv)), tc.user)), 0o600))
			cfg, err := BuildConfigFromKubeconfig(path)
			require.NoError(t, err)
			c, err := rest.RESTClientFor(cfg)
			require.NoError(t, err)
			obj, err := c.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("demo").Get(context.Background(), "me")
			require.NoError(t, err)
			assert.Equal(t, tc.wantCN, obj.(*api.Pod).Name)
		})
	}
}

// asWritten turns plain scalars back into the strings they were written as.
func asWritten(v any) any {
	switch t := v.(type) {
	case plain:
		return string(t)
	case map[string]any:
		for k, e := range t {
			t[k] = asWritten(e)
		}
	case []any:
		for i, e := range t {
			t[i] = asWritten(e)
		}
	}
	return v
}

// checkNoLeak fails t when a goroutine of the client side outlives it.
func checkNoLeak(t *testing.T) {
	t.Helper()
	leakcheck.Check(t, "informer-lab/rest.", "informer-lab/rest/watch.", "informer-lab/plugin/pkg/client/auth/exec.")
}
