package rest

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/plugin/pkg/client/auth/exec"
)

// Config mirrors rest.Config in client-go rest/config.go, reduced to what a JSON client
// needs to authenticate with a bearer token, a client certificate or an exec credential
// plugin. Build one by hand for the simulated server, or with BuildConfigFromKubeconfig for
// a real cluster.
//
// When several credentials are set, they combine as in client-go: BearerToken and a client
// certificate are both sent, and either of them switches ExecProvider off (client-go's
// exec Authenticator.UpdateTransportConfig steps aside for a token or certificate, which is
// how `kubectl --token` overrides a kubeconfig's plugin).
type Config struct {
	// Host is the server's base URL, e.g. "https://127.0.0.1:6443". A bare host:port is
	// taken as https, as client-go does. A path (a proxy prefix) is kept.
	Host string
	// BearerToken is sent as "Authorization: Bearer <token>" when not empty.
	BearerToken string
	// CertData and KeyData mirror rest.TLSClientConfig's CertData and KeyData: a PEM client
	// certificate (chain) and its PEM private key, presented when the server asks for one, as
	// kind, minikube and kubeadm kubeconfigs authenticate. Set both or neither.
	CertData []byte
	// KeyData is CertData's private key; see CertData.
	KeyData []byte
	// ExecProvider mirrors rest.Config.ExecProvider: a credential plugin run on the first
	// request, whose token or client certificate is cached until it expires and renewed after
	// a 401 answer (see package plugin/pkg/client/auth/exec). It is not used when BearerToken
	// or CertData is set.
	ExecProvider *api.ExecConfig
	// Insecure skips verification of the server's certificate. It cannot be combined with
	// CAData, as in client-go.
	Insecure bool
	// CAData holds PEM certificates trusted for the server, instead of the system roots.
	CAData []byte
	// TLSServerName overrides the name the server certificate is checked against.
	TLSServerName string
	// Timeout bounds each request other than a watch. Unlike client-go, which puts it on the
	// http.Client and so also cuts watches short, here a watch is bounded only by its context
	// and its timeoutSeconds.
	Timeout time.Duration
	// UserAgent is sent on every request; empty means DefaultUserAgent.
	UserAgent string
	// Scheme decodes responses: registered kinds become typed objects, the rest
	// *api.Unstructured. Nil means api.DefaultScheme; an empty scheme (api.NewScheme())
	// decodes everything as Unstructured, like client-go's dynamic client.
	Scheme *api.Scheme
	// ContentType mirrors rest.Config.ContentType (ContentConfig): the encoding of request
	// bodies, and the one asked for first in Accept. "" and "application/json" are JSON;
	// "application/vnd.kubernetes.protobuf" sends protobuf bodies for the kinds the protobuf
	// descriptors know (the built-in ones; others go as JSON) and accepts protobuf or JSON
	// back, as client-go's typed clients do by default.
	ContentType string
	// MaxWatchFrameBytes bounds one watch event; 0 means restwatch.DefaultMaxFrameBytes.
	MaxWatchFrameBytes int
	// Logger receives the Debug trace hops of lists and watches; nil is silent.
	Logger *slog.Logger
	// Transport, when set, replaces the transport built from the TLS fields, CertData and
	// KeyData included (tests use it to count connections or inject failures). ExecProvider
	// still applies: its token is added on top, unless Transport came from
	// RESTClient.Transport of a client that already runs the plugin; a client certificate from
	// the plugin cannot be presented through a custom Transport. (client-go refuses a custom
	// transport together with TLS or certificate options instead; here RESTClient.Transport is
	// how clients share connections, so a Config carries both.)
	Transport http.RoundTripper
	// Clock times the waits between retries (Retry-After); nil means the real clock. client-go
	// sleeps on the real clock; a test can run the client in a testing/synctest bubble or pass
	// a clock whose timers fire at once.
	Clock clock.Clock
}

// DefaultUserAgent mirrors rest.DefaultKubernetesUserAgent's shape (CG3).
const DefaultUserAgent = "informer-lab/v0.0.0 (listwatch) kubernetes/$Format"

// parseHost mirrors rest.DefaultServerURL: "host:port" means https://host:port.
func parseHost(host string) (*url.URL, error) {
	if host == "" {
		return nil, errors.New("rest: Config.Host must be set")
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("rest: invalid Config.Host %q: %w", host, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("rest: Config.Host %q: scheme must be http or https", host)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("rest: Config.Host %q has no host", host)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("rest: Config.Host %q must not carry a query or fragment", host)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// tlsConfigFor mirrors transport.TLSConfigFor: nil when the defaults (system roots, full
// verification, no client certificate) are fine.
func tlsConfigFor(c *Config) (*tls.Config, error) {
	if c.Insecure && len(c.CAData) > 0 {
		return nil, errors.New("rest: specifying a root certificates file with the insecure flag is not allowed")
	}
	hasCert, hasKey := len(c.CertData) > 0, len(c.KeyData) > 0
	switch {
	case hasCert && !hasKey:
		return nil, errors.New("rest: Config.CertData is set but Config.KeyData is not: a client certificate needs its private key")
	case hasKey && !hasCert:
		return nil, errors.New("rest: Config.KeyData is set but Config.CertData is not: a private key needs its client certificate")
	}
	if !c.Insecure && len(c.CAData) == 0 && c.TLSServerName == "" && !hasCert {
		return nil, nil
	}
	tc := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: c.Insecure, //nolint:gosec // the user asked for it, as with kubectl --insecure-skip-tls-verify
		ServerName:         c.TLSServerName,
	}
	if len(c.CAData) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(c.CAData) {
			return nil, errors.New("rest: CAData holds no PEM certificate")
		}
		tc.RootCAs = pool
	}
	if hasCert {
		cert, err := tls.X509KeyPair(c.CertData, c.KeyData)
		if err != nil {
			return nil, fmt.Errorf("rest: Config.CertData and Config.KeyData are not a usable client certificate and key: %w", err)
		}
		// As client-go does, the certificate is handed over through GetClientCertificate, so
		// it is sent whatever CAs the server names as acceptable.
		tc.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	}
	return tc, nil
}

// usesExecPlugin mirrors the test at the top of exec Authenticator.UpdateTransportConfig: a
// bearer token or a client certificate on the Config wins over the plugin.
func usesExecPlugin(c *Config) bool {
	return c.ExecProvider != nil && c.BearerToken == "" && len(c.CertData) == 0 && len(c.KeyData) == 0
}

// httpClientFor mirrors rest.HTTPClientFor. The http.Client has no Timeout: Config.Timeout
// is applied per request (see Config.Timeout). With an exec plugin the transport is wrapped
// in the plugin's round tripper and asks it for client certificates, as rest.TransportFor
// does through the plugin's UpdateTransportConfig.
func httpClientFor(c *Config) (*http.Client, error) {
	var a *exec.Authenticator
	if c.ExecProvider != nil {
		// Checked even when a token overrides the plugin, as client-go's GetAuthenticator is.
		auth, err := exec.GetAuthenticator(c.ExecProvider, execClusterFor(c), c.Clock)
		if err != nil {
			return nil, fmt.Errorf("rest: Config.ExecProvider: %w", err)
		}
		if usesExecPlugin(c) {
			a = auth
		}
	}
	if c.Transport != nil {
		if a == nil || exec.IsWrapped(c.Transport) {
			return &http.Client{Transport: c.Transport}, nil
		}
		return &http.Client{Transport: a.WrapTransport(c.Transport)}, nil
	}
	tc, err := tlsConfigFor(c)
	if err != nil {
		return nil, err
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	if tc != nil {
		t.TLSClientConfig = tc
	}
	if a == nil {
		return &http.Client{Transport: t}, nil
	}
	return &http.Client{Transport: a.UpdateTransport(t)}, nil
}

// execClusterFor mirrors rest.ConfigToExecCluster: what a plugin with provideClusterInfo is
// told about the server.
func execClusterFor(c *Config) *exec.Cluster {
	return &exec.Cluster{
		Server:                   c.Host,
		TLSServerName:            c.TLSServerName,
		InsecureSkipTLSVerify:    c.Insecure,
		CertificateAuthorityData: c.CAData,
	}
}
