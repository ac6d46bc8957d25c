package apiserver

import "testing"

// NewTestServer starts a Server on a free 127.0.0.1 port and closes it when the test ends.
// It is the simulator's counterpart of envtest's Environment.Start, usable from any
// package's tests. The base URL is Server.URL.
func NewTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	return newTestServer(t, opts, false)
}

// NewTLSTestServer is NewTestServer over https (StartTLS), for clients such as kubectl that
// send a bearer token only over TLS, and for Options.ClientCertAuth, which needs TLS.
// Server.CACertPEM and Server.Kubeconfig give the trust (and the admin client certificate).
func NewTLSTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	return newTestServer(t, opts, true)
}

func newTestServer(t testing.TB, opts Options, useTLS bool) *Server {
	t.Helper()
	if err := opts.Validate(); err != nil {
		t.Fatalf("apiserver: %v", err)
	}
	s := New(opts)
	if _, err := s.start("127.0.0.1:0", useTLS); err != nil {
		t.Fatalf("apiserver: start: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// URL returns the base URL the server listens on ("" before Start).
func (s *Server) URL() string {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	return s.life.url
}
