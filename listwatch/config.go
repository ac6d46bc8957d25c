package listwatch

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
)

// Config mirrors rest.Config in client-go rest/config.go, reduced to what a JSON client with
// bearer-token auth needs. Build one by hand for the simulated server, or with
// BuildConfigFromKubeconfig for a real cluster.
type Config struct {
	// Host is the server's base URL, e.g. "https://127.0.0.1:6443". A bare host:port is
	// taken as https, as client-go does. A path (a proxy prefix) is kept.
	Host string
	// BearerToken is sent as "Authorization: Bearer <token>" when not empty.
	BearerToken string
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
	// MaxWatchFrameBytes bounds one watch event; 0 means DefaultMaxFrameBytes.
	MaxWatchFrameBytes int
	// Logger receives the Debug trace hops of lists and watches; nil is silent.
	Logger *slog.Logger
	// Transport, when set, replaces the transport built from the TLS fields (tests use it to
	// count connections or inject failures).
	Transport http.RoundTripper
	// Clock times the waits between retries (Retry-After); nil means the real clock. client-go
	// sleeps on the real clock; a test can run the client in a testing/synctest bubble or pass
	// a clock whose timers fire at once.
	Clock clock.Clock
}

// DefaultUserAgent mirrors rest.DefaultKubernetesUserAgent's shape (CG3).
const DefaultUserAgent = "informer-lab/v0.0.0 (listwatch) kubernetes/$Format"

// GroupVersion mirrors schema.GroupVersion: "" is the core group, served under /api.
type GroupVersion struct {
	Group   string
	Version string
}

// String mirrors GroupVersion.String: "v1" for the core group, "apps/v1" otherwise.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// GroupVersionResource mirrors schema.GroupVersionResource: how a request names what it
// addresses, e.g. {"", "v1", "pods"} or {"apps", "v1", "deployments"}.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupVersion mirrors GroupVersionResource.GroupVersion.
func (gvr GroupVersionResource) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvr.Group, Version: gvr.Version}
}

// GroupResource mirrors GroupVersionResource.GroupResource.
func (gvr GroupVersionResource) GroupResource() api.GroupResource {
	return api.GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}

// parseHost mirrors rest.DefaultServerURL: "host:port" means https://host:port.
func parseHost(host string) (*url.URL, error) {
	if host == "" {
		return nil, errors.New("listwatch: Config.Host must be set")
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("listwatch: invalid Config.Host %q: %w", host, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("listwatch: Config.Host %q: scheme must be http or https", host)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("listwatch: Config.Host %q has no host", host)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("listwatch: Config.Host %q must not carry a query or fragment", host)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// tlsConfigFor mirrors transport.TLSConfigFor: nil when the defaults (system roots, full
// verification) are fine.
func tlsConfigFor(c *Config) (*tls.Config, error) {
	if c.Insecure && len(c.CAData) > 0 {
		return nil, errors.New("listwatch: specifying a root certificates file with the insecure flag is not allowed")
	}
	if !c.Insecure && len(c.CAData) == 0 && c.TLSServerName == "" {
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
			return nil, errors.New("listwatch: CAData holds no PEM certificate")
		}
		tc.RootCAs = pool
	}
	return tc, nil
}

// httpClientFor mirrors rest.HTTPClientFor. The http.Client has no Timeout: Config.Timeout
// is applied per request (see Config.Timeout).
func httpClientFor(c *Config) (*http.Client, error) {
	if c.Transport != nil {
		return &http.Client{Transport: c.Transport}, nil
	}
	tc, err := tlsConfigFor(c)
	if err != nil {
		return nil, err
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	if tc != nil {
		t.TLSClientConfig = tc
	}
	return &http.Client{Transport: t}, nil
}
