package exec

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// infoEnv is the variable that hands the plugin its ExecCredential input, as in client-go.
const infoEnv = "KUBERNETES_EXEC_INFO"

// The plugin API versions this client speaks: v1beta1 and v1, as client-go does.
// client-go dropped v1alpha1 in 1.24.
const (
	apiVersionV1      = "client.authentication.k8s.io/v1"
	apiVersionV1beta1 = "client.authentication.k8s.io/v1beta1"
	apiVersionV1alpha = "client.authentication.k8s.io/v1alpha1"
)

// Bounds on what is kept of a plugin's output.
const (
	maxExecStdout = 1 << 20 // an ExecCredential is a few KiB at most
	maxExecStderr = 2048    // as much of stderr as an error message carries
)

// Validate mirrors the exec checks of clientcmd's validateAuthInfo (command, apiVersion, env
// names, interactiveMode) and the apiVersion check of GetAuthenticator.
func Validate(e *api.ExecConfig) error {
	if e.Command == "" {
		return errors.New("exec plugin: command must be set")
	}
	switch e.APIVersion {
	case apiVersionV1, apiVersionV1beta1:
	case "":
		return errors.New("exec plugin: apiVersion must be set (client.authentication.k8s.io/v1 or v1beta1)")
	case apiVersionV1alpha:
		return fmt.Errorf("exec plugin: apiVersion %q is no longer supported (client-go removed it in 1.24); use %s or %s",
			e.APIVersion, apiVersionV1, apiVersionV1beta1)
	default:
		return fmt.Errorf("exec plugin: invalid apiVersion %q; want %s or %s", e.APIVersion, apiVersionV1, apiVersionV1beta1)
	}
	for i, v := range e.Env {
		if v.Name == "" {
			return fmt.Errorf("exec plugin: env[%d] has no name", i)
		}
	}
	switch e.InteractiveMode {
	case "", api.NeverExecInteractiveMode, api.IfAvailableExecInteractiveMode:
	case api.AlwaysExecInteractiveMode:
		return fmt.Errorf("exec plugin: interactiveMode %q needs a terminal, but this client runs plugins without one; "+
			"use IfAvailable or Never, or log in with the plugin beforehand", e.InteractiveMode)
	default:
		return fmt.Errorf("exec plugin: invalid interactiveMode %q; want Never, IfAvailable or Always", e.InteractiveMode)
	}
	return nil
}

// Cluster mirrors clientauthentication/v1 Cluster: what ProvideClusterInfo hands the plugin
// (no proxy-url or disable-compression: this client has neither). rest builds it from its
// Config, as client-go's rest.ConfigToExecCluster does.
type Cluster struct {
	Server                   string `json:"server"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	// Config is always null: client-go writes its RawExtension, which is null without the
	// cluster's client.authentication.k8s.io/exec extension (not supported here), and a
	// plugin sees the same input from kubectl and from us (TestCh02_Kubectl_ExecPluginSameInput).
	Config *json.RawMessage `json:"config"`
}

// execCredential mirrors clientauthentication/v1 ExecCredential, the plugin's input (spec)
// and output (status). v1beta1 has the same shape.
type execCredential struct {
	Kind       string                `json:"kind"`
	APIVersion string                `json:"apiVersion"`
	Spec       execCredentialSpec    `json:"spec"`
	Status     *execCredentialStatus `json:"status,omitempty"`
}

type execCredentialSpec struct {
	Cluster     *Cluster `json:"cluster,omitempty"`
	Interactive bool     `json:"interactive"`
}

type execCredentialStatus struct {
	ExpirationTimestamp   string `json:"expirationTimestamp,omitempty"`
	Token                 string `json:"token,omitempty"`
	ClientCertificateData string `json:"clientCertificateData,omitempty"`
	ClientKeyData         string `json:"clientKeyData,omitempty"`
}

// credentials mirrors credentials in client-go's exec.go: what one plugin run gave.
type credentials struct {
	token string
	cert  *tls.Certificate
}

// commandRunner runs name with args and env, writing its output to stdout and stderr; the
// context ends it. Tests replace it on an authenticator before its first use.
type commandRunner func(ctx context.Context, name string, args, env []string, stdout, stderr io.Writer) error

// runCommand is the real commandRunner. The plugin gets no stdin (the null device), so it can
// never prompt: spec.interactive is always false.
func runCommand(ctx context.Context, name string, args, env []string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second // a killed plugin's children may hold its pipes open
	return cmd.Run()
}

// Authenticator mirrors exec.Authenticator in client-go plugin/pkg/client/auth/exec/exec.go:
// it runs the plugin when there is no credential or the cached one has expired, one run at a
// time, and caches the result.
type Authenticator struct {
	cmd         string
	args        []string
	env         []string // "NAME=value" from ExecConfig.Env
	apiVersion  string
	installHint string
	cluster     *Cluster // nil unless ProvideClusterInfo

	clock   clock.Clock
	run     commandRunner
	environ func() []string
	// onCertRotate runs when the plugin's client certificate changes, so new connections
	// present the new one (client-go closes every connection; here idle ones are closed and
	// open ones keep the certificate they were made with).
	onCertRotate func()

	// mu guards the cache and serialises plugin runs, as in client-go.
	mu     sync.Mutex
	cached *credentials
	exp    time.Time // zero: the cached credential does not expire
}

// GetAuthenticator mirrors GetAuthenticator in client-go's exec.go: an Authenticator for the
// plugin e, which is checked first (Validate). cluster is what the plugin is told about the
// server when e.ProvideClusterInfo is set; clk (nil: the real clock) decides when a
// credential has expired. The plugin does not run until a request needs a credential.
func GetAuthenticator(e *api.ExecConfig, cluster *Cluster, clk clock.Clock) (*Authenticator, error) {
	if err := Validate(e); err != nil {
		return nil, err
	}
	a := &Authenticator{
		cmd:         e.Command,
		args:        append([]string(nil), e.Args...),
		apiVersion:  e.APIVersion,
		installHint: e.InstallHint,
		clock:       clock.Or(clk),
		run:         runCommand,
		environ:     os.Environ,
	}
	for _, v := range e.Env {
		a.env = append(a.env, v.Name+"="+v.Value)
	}
	if e.ProvideClusterInfo && cluster != nil {
		cp := *cluster
		cp.CertificateAuthorityData = append([]byte(nil), cluster.CertificateAuthorityData...)
		a.cluster = &cp
	}
	return a, nil
}

// credsExpired mirrors Authenticator.credsExpired.
func (a *Authenticator) credsExpired() bool {
	if a.exp.IsZero() {
		return false
	}
	return a.clock.Now().After(a.exp)
}

// getCreds mirrors Authenticator.getCreds: the cached credential, or a fresh one.
func (a *Authenticator) getCreds(ctx context.Context) (*credentials, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cached != nil && !a.credsExpired() {
		return a.cached, nil
	}
	if err := a.refreshCredsLocked(ctx); err != nil {
		return nil, err
	}
	return a.cached, nil
}

// maybeRefreshCreds mirrors Authenticator.maybeRefreshCreds, called after a 401: the plugin
// runs again unless another request has already replaced creds. Unlike client-go, which logs
// a failed refresh and keeps the rejected credential, the cache is then emptied, so the next
// request runs the plugin again and fails with its error.
func (a *Authenticator) maybeRefreshCreds(ctx context.Context, creds *credentials) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if creds != a.cached {
		return // already rotated
	}
	if err := a.refreshCredsLocked(ctx); err != nil {
		a.cached = nil
	}
}

// cert mirrors Authenticator.cert, as tls.Config.GetClientCertificate: the plugin's client
// certificate, or none (an empty Certificate) when it gave a token.
func (a *Authenticator) cert(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
	creds, err := a.getCreds(cri.Context())
	if err != nil {
		return nil, err
	}
	if creds.cert == nil {
		return &tls.Certificate{}, nil
	}
	return creds.cert, nil
}

// execInput is the KUBERNETES_EXEC_INFO value: an ExecCredential with only a spec.
func (a *Authenticator) execInput() ([]byte, error) {
	return json.Marshal(execCredential{Kind: "ExecCredential", APIVersion: a.apiVersion,
		Spec: execCredentialSpec{Cluster: a.cluster, Interactive: false}})
}

// refreshCredsLocked mirrors Authenticator.refreshCredsLocked: run the plugin, check its
// ExecCredential and cache it. a.mu must be held.
func (a *Authenticator) refreshCredsLocked(ctx context.Context) error {
	input, err := a.execInput()
	if err != nil {
		return a.errorf("encoding %s: %w", infoEnv, err)
	}
	env := append(append(a.environ(), a.env...), infoEnv+"="+string(input))
	stdout := &cappedBuffer{limit: maxExecStdout}
	stderr := &cappedBuffer{limit: maxExecStderr}
	if err := a.run(ctx, a.cmd, a.args, env, stdout, stderr); err != nil {
		return a.wrapCmdRunErrorLocked(ctx, err, stderr)
	}
	if stdout.truncated {
		return a.errorf("its output is larger than %d bytes", maxExecStdout)
	}
	var cred execCredential
	if err := json.Unmarshal(stdout.buf.Bytes(), &cred); err != nil {
		return a.errorf("decoding its output as an ExecCredential: %w", err)
	}
	if cred.Kind != "ExecCredential" {
		return a.errorf("its output has kind %q, want ExecCredential", cred.Kind)
	}
	if cred.APIVersion != a.apiVersion {
		return a.errorf("it is configured to use apiVersion %s, but its output has apiVersion %q", a.apiVersion, cred.APIVersion)
	}
	st := cred.Status
	if st == nil {
		return a.errorf("its output has no status")
	}
	if st.Token == "" && st.ClientCertificateData == "" && st.ClientKeyData == "" {
		return a.errorf("its status has neither a token nor a client certificate and key")
	}
	if (st.ClientCertificateData == "") != (st.ClientKeyData == "") {
		return a.errorf("its status has only one of clientCertificateData and clientKeyData; a certificate needs both")
	}
	var exp time.Time
	if st.ExpirationTimestamp != "" {
		if exp, err = time.Parse(time.RFC3339, st.ExpirationTimestamp); err != nil {
			return a.errorf("its status.expirationTimestamp is not RFC 3339: %w", err)
		}
	}
	fresh := &credentials{token: st.Token}
	if st.ClientCertificateData != "" {
		cert, err := tls.X509KeyPair([]byte(st.ClientCertificateData), []byte(st.ClientKeyData))
		if err != nil {
			return a.errorf("its client certificate and key are not usable: %w", err)
		}
		if cert.Leaf == nil {
			if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
				return a.errorf("its client certificate does not parse: %w", err)
			}
		}
		fresh.cert = &cert
	}
	old := a.cached
	a.cached, a.exp = fresh, exp
	if old != nil && old.cert != nil && !sameCert(old.cert, fresh.cert) && a.onCertRotate != nil {
		a.onCertRotate()
	}
	return nil
}

func sameCert(a, b *tls.Certificate) bool {
	return b != nil && bytes.Equal(a.Certificate[0], b.Certificate[0])
}

// wrapCmdRunErrorLocked mirrors Authenticator.wrapCmdRunErrorLocked: a missing executable
// gets the install hint, a failed one its exit code and (unlike client-go, which passes the
// plugin's stderr through to ours) the start of what it wrote to stderr.
func (a *Authenticator) wrapCmdRunErrorLocked(ctx context.Context, err error, stderr *cappedBuffer) error {
	var exitErr *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		msg := fmt.Sprintf("executable %q was not found; is the credential plugin installed?", a.cmd)
		if a.installHint != "" {
			msg += "\n\n" + a.installHint
		}
		return &execError{msg: "exec plugin: " + msg, err: err}
	case ctx.Err() != nil:
		// What it wrote may be a prompt it waited on (a device-code login, say).
		if s := stderr.String(); s != "" {
			return a.errorf("stopped before it answered: %w; its stderr: %s", ctx.Err(), s)
		}
		return a.errorf("stopped before it answered: %w", ctx.Err())
	case errors.As(err, &exitErr):
		msg := fmt.Sprintf("failed with exit code %d", exitErr.ExitCode())
		if exitErr.ExitCode() < 0 {
			msg = "failed: " + exitErr.Error() // ended by a signal
		}
		if s := stderr.String(); s != "" {
			msg += ": " + s
		}
		return a.errorf("%s", msg)
	default:
		return a.errorf("%w", err)
	}
}

// execError is an error from running the plugin or reading its answer. The retry rules of
// Do and Watch never resend a request that failed with one (its text may mention a reset
// connection, but the connection to the server is not the problem).
type execError struct {
	msg string
	err error
}

func (e *execError) Error() string { return e.msg }
func (e *execError) Unwrap() error { return e.err }

func (a *Authenticator) errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &execError{msg: fmt.Sprintf("exec plugin %s: %v", a.cmd, err), err: errors.Unwrap(err)}
}

// IsPluginError reports whether err came from running the plugin or reading its answer, so
// that the retry rules of package rest never resend a request that failed with one. Nothing
// in client-go mirrors it: client-go's retry rules do not look at credential errors.
func IsPluginError(err error) bool {
	var e *execError
	return errors.As(err, &e)
}

// cappedBuffer keeps the first limit bytes written to it and drops the rest.
type cappedBuffer struct {
	limit     int
	buf       bytes.Buffer
	truncated bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.truncated = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// String is the trimmed text, marked when it was cut short.
func (b *cappedBuffer) String() string {
	s := strings.TrimSpace(b.buf.String())
	if b.truncated {
		s += " …"
	}
	return s
}
