package apiserver

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/origin"
)

// Browser checks. A web page the user opens can send requests to a server on the user's
// machine, and some of them (a form post, a text/plain or untyped fetch) go out without
// asking the server first (no CORS preflight): the page cannot read the answer, but the
// write is done. A page can also read answers if it gets the browser to take the server for
// its own origin, by pointing its own DNS name at 127.0.0.1 (DNS rebinding). The real
// kube-apiserver refuses neither (it relies on authentication and RBAC); a simulator that
// serves without authentication by default must, so:
//
//   - a request whose Origin header is not the request's own host is 403 (the check the
//     dashboard's actions make, shared through internal/origin);
//   - on a server started with Start or StartTLS, a Host header that is not an IP literal,
//     localhost, a *.localhost name or a name of the server's certificate is 403. Tools that
//     guard against DNS rebinding (webpack and Vite dev servers, Jupyter, geth) answer 403
//     too; 421 Misdirected Request means "retry on another connection", which would not help.
//     Handler mounted elsewhere (httptest, whose NewRequest uses Host example.com, or the
//     caller's own http.Server) is the caller's to guard;
//   - a body must declare the type the endpoint reads (checkBodyType, serveDebugFaults).
//
// Both checks run after authentication, so a request without credentials on a server that
// wants them gets the same 401 wherever it comes from.

// checkBrowser returns the 403 Status for a request from a foreign page, or nil.
func (s *endpoints) checkBrowser(r *http.Request) *api.Status {
	if s.startedListener(r) && !origin.HostAllowed(r.Host, s.certNames) {
		return forbidden(fmt.Sprintf("forbidden: Host %q is not a name of this server "+
			"(a DNS-rebinding web page?): use its IP address or localhost", r.Host))
	}
	if !origin.Same(r) {
		return forbidden(fmt.Sprintf("forbidden: cross-origin request refused: Origin %q is not "+
			"this server (%s); the API serves no web pages of other sites", r.Header.Get("Origin"), r.Host))
	}
	return nil
}

// forbidden is a 403 Status without details: there is no resource to name.
func forbidden(msg string) *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusForbidden, Reason: api.StatusReasonForbidden,
		Message: msg,
	}
}

// startedListener reports whether r came through the http.Server of Start or StartTLS.
func (s *endpoints) startedListener(r *http.Request) bool {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil {
		return false
	}
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	return srv == s.life.httpSrv
}

// certNames returns the server's names: the host name Start or StartTLS was asked to bind,
// and the DNS names of the StartTLS certificate. It parses the certificate on each call,
// which only a Host that is neither an IP literal nor localhost costs.
func (s *endpoints) certNames() []string {
	s.life.mu.Lock()
	names := []string{s.life.host}
	s.life.mu.Unlock()
	block, _ := pem.Decode(s.life.certPEM())
	if block == nil {
		return names
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return names
	}
	return append(names, cert.DNSNames...)
}

// isJSONType reports whether a Content-Type is application/json, with any parameters.
func isJSONType(ct string) bool {
	if ct == "application/json" { // what clients send: nothing to parse
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// nonResourceExists reports whether a GET of a path outside the resource tree finds
// something (serveNonResource's routes), so that another method on it is 405 and not the
// 404 of a path that does not exist.
func (s *endpoints) nonResourceExists(path string) bool {
	switch path {
	case "/version", "/api", "/apis", "/api/v1", "/openapi/v3":
		return true
	}
	if isHealthPath(path) {
		_, check, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		return check == "" || slices.Contains(healthChecks, check)
	}
	_, versions := s.groupVersions()
	if doc, ok := strings.CutPrefix(path, "/openapi/v3/"); ok {
		for g, vs := range versions {
			if slices.ContainsFunc(vs, func(v string) bool { return openAPIPath(g, v) == doc }) {
				return true
			}
		}
		return false
	}
	if rest, ok := strings.CutPrefix(path, "/apis/"); ok {
		group, version, hasVersion := strings.Cut(rest, "/")
		vs, served := versions[group]
		return group != "" && served && (!hasVersion || slices.Contains(vs, version))
	}
	return false
}
