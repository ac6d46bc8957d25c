package apiserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net"
	"strings"
)

// dialableURL replaces an unspecified listen address (0.0.0.0, ::) by 127.0.0.1, which a
// client on this machine can dial and the certificate of StartTLS covers.
func dialableURL(u string) string {
	scheme, hostport, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	host, port, err := net.SplitHostPort(hostport)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsUnspecified() {
		return u
	}
	return scheme + "://" + net.JoinHostPort("127.0.0.1", port)
}

// KubeconfigContext is the name of the cluster, user and context Kubeconfig writes.
const KubeconfigContext = "informer-lab"

// Kubeconfig returns a kubeconfig (clientcmd's v1 Config, in YAML) for the running server:
// one cluster at URL, with the certificate-authority-data of StartTLS when serving TLS; one
// user, carrying the admin client certificate (client-certificate-data, client-key-data, as
// in the admin.conf of kubeadm and kind) with Options.ClientCertAuth and Options.BearerToken
// (token) when set; and the current context "informer-lab" with namespace default. It
// returns nil before Start or StartTLS. Write it to a file and run
// `kubectl --kubeconfig FILE get pods`.
func (s *Server) Kubeconfig() []byte {
	s.lifeMu.Lock()
	url, ca := s.url, s.caPEM
	s.lifeMu.Unlock()
	if url == "" {
		return nil
	}
	url = dialableURL(url)
	// JSON strings are valid YAML double-quoted scalars, so quoting with json.Marshal is
	// safe for any URL or token.
	q := func(v string) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	name := q(KubeconfigContext)
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nkind: Config\nclusters:\n- name: " + name + "\n  cluster:\n    server: " + q(url) + "\n")
	if ca != nil {
		b.WriteString("    certificate-authority-data: " + q(base64.StdEncoding.EncodeToString(ca)) + "\n")
	}
	b.WriteString("users:\n- name: " + name + "\n  user:")
	cert, key := s.ClientCertificatePEM()
	if cert == nil && s.opts.BearerToken == "" {
		b.WriteString(" {}\n")
	} else {
		b.WriteString("\n")
	}
	if cert != nil {
		b.WriteString("    client-certificate-data: " + q(base64.StdEncoding.EncodeToString(cert)) + "\n")
		b.WriteString("    client-key-data: " + q(base64.StdEncoding.EncodeToString(key)) + "\n")
	}
	if s.opts.BearerToken != "" {
		b.WriteString("    token: " + q(s.opts.BearerToken) + "\n")
	}
	b.WriteString("contexts:\n- name: " + name + "\n  context:\n    cluster: " + name + "\n    user: " + name + "\n    namespace: default\n")
	b.WriteString("current-context: " + name + "\n")
	return b.Bytes()
}
