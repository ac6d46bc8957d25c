package exec

import (
	"crypto/tls"
	"fmt"
	"net/http"
)

// UpdateTransport mirrors Authenticator.UpdateTransportConfig for a transport package rest has
// built: t presents the plugin's client certificate when the server asks for one (and closes
// its idle connections when the certificate changes), and the returned round tripper adds
// the plugin's token to every request.
func (a *Authenticator) UpdateTransport(t *http.Transport) http.RoundTripper {
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	t.TLSClientConfig.GetClientCertificate = a.cert
	a.onCertRotate = t.CloseIdleConnections
	return &roundTripper{a: a, base: t, certs: true}
}

// WrapTransport mirrors the Wrap half of Authenticator.UpdateTransportConfig for a caller's
// own transport, whose TLS settings are out of reach: the plugin's token is added, and a
// client certificate from the plugin is an error.
func (a *Authenticator) WrapTransport(base http.RoundTripper) http.RoundTripper {
	return &roundTripper{a: a, base: base}
}

// IsWrapped reports whether rt already runs a plugin (it came from UpdateTransport or
// WrapTransport), so that a client sharing another client's transport does not run its
// plugin twice. Nothing in client-go mirrors it: there clients share a transport through the
// transport cache instead.
func IsWrapped(rt http.RoundTripper) bool {
	_, ok := rt.(*roundTripper)
	return ok
}

// roundTripper mirrors roundTripper in client-go's exec.go: each request gets the
// plugin's token, and a 401 answer makes the next request use a fresh credential.
type roundTripper struct {
	a    *Authenticator
	base http.RoundTripper
	// certs is false when base is a caller's Config.Transport, whose TLS settings this
	// package cannot reach: a client certificate from the plugin is then an error.
	certs bool
}

// RoundTrip mirrors roundTripper.RoundTrip. A request that already carries an Authorization
// header (Request.SetHeader) is sent as it is.
func (r *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return r.base.RoundTrip(req)
	}
	creds, err := r.a.getCreds(req.Context())
	if err == nil && creds.cert != nil && !r.certs {
		err = &execError{msg: fmt.Sprintf("exec plugin %s returned a client certificate, "+
			"which cannot be presented through a custom Config.Transport", r.a.cmd)}
	}
	if err != nil {
		if req.Body != nil {
			_ = req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, err
	}
	if creds.token != "" {
		req = req.Clone(req.Context()) // a RoundTripper must not change the caller's request
		req.Header.Set("Authorization", "Bearer "+creds.token)
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized {
		r.a.maybeRefreshCreds(req.Context(), creds)
	}
	return resp, nil
}

// CloseIdleConnections passes http.Client.CloseIdleConnections on to the wrapped transport.
func (r *roundTripper) CloseIdleConnections() {
	if c, ok := r.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
