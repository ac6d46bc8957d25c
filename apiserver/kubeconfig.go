package apiserver

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"

	"github.com/informer-lab/informer-lab/api"
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

// KubeconfigContext is the name of the cluster, user and context Kubeconfig writes. Nothing
// in client-go mirrors it.
const KubeconfigContext = "informer-lab"

// AdminKubeconfig returns a kubeconfig for the running server, as the wire type that
// clientcmd writes and reads (clientcmd's v1 Config): one cluster at URL, with the
// certificate-authority-data of StartTLS when serving TLS; one user, carrying the admin client
// certificate (client-certificate-data, client-key-data, as in the admin.conf of kubeadm and
// kind) with Options.ClientCertAuth and Options.BearerToken (token) when set; and the current
// context "informer-lab" with namespace default. It returns nil before Start or StartTLS.
// kubeadm's kubeconfig phase writes such a file.
func (s *Server) AdminKubeconfig() *api.Config {
	s.life.mu.Lock()
	url, ca := s.life.url, s.life.caPEM
	s.life.mu.Unlock()
	if url == "" {
		return nil
	}
	cert, key := s.ClientCertificatePEM()
	return &api.Config{
		Kind:       "Config",
		APIVersion: "v1",
		Clusters: []api.NamedCluster{{Name: KubeconfigContext, Cluster: api.Cluster{
			Server: dialableURL(url), CertificateAuthorityData: ca}}},
		AuthInfos: []api.NamedAuthInfo{{Name: KubeconfigContext, AuthInfo: api.AuthInfo{
			ClientCertificateData: cert, ClientKeyData: key, Token: s.opts.BearerToken}}},
		Contexts: []api.NamedContext{{Name: KubeconfigContext, Context: api.Context{
			Cluster: KubeconfigContext, AuthInfo: KubeconfigContext, Namespace: "default"}}},
		CurrentContext: KubeconfigContext,
	}
}

// Kubeconfig returns AdminKubeconfig as a file: JSON, which is YAML too, so kubectl and
// clientcmd read it as any kubeconfig. It returns nil before Start or StartTLS. Write it to a
// file and run `kubectl --kubeconfig FILE get pods`; `demo serve` writes the YAML form with
// clientcmd.Write.
func (s *Server) Kubeconfig() []byte {
	cfg := s.AdminKubeconfig()
	if cfg == nil {
		return nil
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("apiserver: encoding a kubeconfig without extensions cannot fail: %v", err))
	}
	return append(b, '\n')
}
