package apiserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/rest"
)

// certPair is a client certificate and key in PEM; the zero value presents no certificate.
type certPair struct{ cert, key []byte }

// newCertClient is a raw client of an https test server that trusts its CACertPEM and
// presents pair, whatever CAs the server names (as client-go does: GetClientCertificate).
func newCertClient(t *testing.T, s *Server, pair certPair) *client {
	t.Helper()
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(s.CACertPEM()))
	tc := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if pair.cert != nil {
		kp, err := tls.X509KeyPair(pair.cert, pair.key)
		require.NoError(t, err)
		tc.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &kp, nil }
	}
	c := &client{t: t, base: s.URL(), hc: &http.Client{Transport: &http.Transport{TLSClientConfig: tc}}}
	t.Cleanup(c.hc.CloseIdleConnections)
	return c
}

// mint signs a client certificate for cn with ca, as IssueClientCertificate does, after
// edit has changed the template (validity, key usages).
func mint(t *testing.T, ca *clientCA, cn string, edit func(*x509.Certificate)) certPair {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	serial, err := newSerial()
	require.NoError(t, err)
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if edit != nil {
		edit(tmpl)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	return certPair{
		cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}
}

// TestCh01_ClientCertAuth checks the decision table of auth.go over https, on a server with
// client certificates only and on one with a bearer token too: a certificate of the server's
// client CA (the admin's, or one IssueClientCertificate minted) opens everything whatever
// token comes with it; one of another CA, expired, or not for client auth is a 401 Status
// everywhere unless the right token comes with it; no credentials leave only health and
// /version open; a verified certificate without a CN counts as none.
func TestCh01_ClientCertAuth(t *testing.T) {
	checkNoLeak(t)
	foreign, err := newClientCA()
	require.NoError(t, err)
	for _, srv := range []struct {
		name  string
		token string
	}{{"certs only", ""}, {"certs and token", "s3cret"}} {
		t.Run(srv.name, func(t *testing.T) {
			s := NewTLSTestServer(t, Options{ClientCertAuth: true, BearerToken: srv.token, DebugFaults: true})
			ca := s.life.clientCA.Load()
			require.NotNil(t, ca)
			admin := certPair{}
			admin.cert, admin.key = s.ClientCertificatePEM()
			minted := certPair{}
			minted.cert, minted.key, err = s.IssueClientCertificate("jane", "developers")
			require.NoError(t, err)
			certs := map[string]certPair{
				"none":    {},
				"admin":   admin,
				"minted":  minted,
				"foreign": mint(t, foreign, "kubernetes-admin", nil),
				"expired": mint(t, ca, "old", func(c *x509.Certificate) {
					c.NotBefore, c.NotAfter = time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour)
				}),
				"server usage": mint(t, ca, "web", func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth} }),
				"no CN":        mint(t, ca, "", nil),
			}
			clients := map[string]*client{}
			for name, pair := range certs {
				clients[name] = newCertClient(t, s, pair)
			}

			right := "Bearer " + srv.token
			if srv.token == "" {
				right = "" // no token to get right
			}
			type want struct{ resource, public int }
			served, anonymous, refused := want{200, 200}, want{401, 200}, want{401, 401}
			tests := []struct {
				cert, auth string
				want       want
			}{
				{"admin", "", served},
				{"minted", "", served},
				{"admin", "Bearer wrong", served}, // x509 runs first; the first success wins
				{"foreign", "", refused},
				{"expired", "", refused},
				{"server usage", "", refused},
				{"foreign", "Bearer wrong", refused},
				{"none", "", anonymous},
				{"no CN", "", anonymous},
				{"none", "Bearer wrong", refused},
				{"no CN", "Bearer wrong", refused},
			}
			if right != "" {
				tests = append(tests, []struct {
					cert, auth string
					want       want
				}{
					{"none", right, served},
					{"foreign", right, served}, // a failed certificate is only remembered
					{"expired", right, served},
					{"admin", right, served},
				}...)
			}
			for _, tc := range tests {
				for path, code := range map[string]int{"/api/v1/pods": tc.want.resource, "/debug/faults": tc.want.resource, "/healthz": tc.want.public, "/version": tc.want.public} {
					var header []string
					if tc.auth != "" {
						header = []string{"Authorization", tc.auth}
					}
					r := clients[tc.cert].do(http.MethodGet, path, nil, header...)
					require.Equal(t, code, r.code, "cert %s, auth %q, %s: %s", tc.cert, tc.auth, path, r.body)
					if code == 401 {
						st := r.status(t)
						assert.Equal(t, api.StatusReasonUnauthorized, st.Reason)
						assert.Equal(t, "Unauthorized", st.Message)
					}
				}
			}
		})
	}
}

// TestCh01_ClientCertVerify checks clientCA.verify, the x509 authenticator's chain check,
// directly: intermediates presented after the leaf are used; anything that does not chain to
// the CA, is outside its validity at the given time, or is not for client auth is an error.
func TestCh01_ClientCertVerify(t *testing.T) {
	ca, err := newClientCA()
	require.NoError(t, err)
	foreign, err := newClientCA()
	require.NoError(t, err)
	// An intermediate CA signed by ca, and a leaf it signs.
	interPair := mint(t, ca, "intermediate", func(c *x509.Certificate) {
		c.IsCA, c.BasicConstraintsValid = true, true
		c.KeyUsage |= x509.KeyUsageCertSign
	})
	interCert := parseCert(t, interPair.cert)
	interKeyBlock, _ := pem.Decode(interPair.key)
	interKey, err := x509.ParseECPrivateKey(interKeyBlock.Bytes)
	require.NoError(t, err)
	inter := &clientCA{cert: interCert, key: interKey}
	viaInter := parseCert(t, mint(t, inter, "via-intermediate", nil).cert)

	admin := parseCert(t, ca.adminCert)
	now := time.Now()
	tests := []struct {
		name       string
		chain      []*x509.Certificate
		at         time.Time
		wantUser   string
		wantGroups []string
		wantErr    string
	}{
		{"admin", []*x509.Certificate{admin}, now, AdminCommonName, []string{AdminGroup}, ""},
		{"via intermediate", []*x509.Certificate{viaInter, interCert}, now, "via-intermediate", nil, ""},
		{"intermediate missing", []*x509.Certificate{viaInter}, now, "", nil, "unknown authority"},
		{"after NotAfter", []*x509.Certificate{admin}, now.Add(2 * clientCertValidity), "", nil, "expired"},
		{"before NotBefore", []*x509.Certificate{admin}, now.Add(-24 * time.Hour), "", nil, "not yet valid"},
		{"foreign", []*x509.Certificate{parseCert(t, foreign.adminCert)}, now, "", nil, "unknown authority"},
		{"empty", nil, now, "", nil, "no client certificate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			user, groups, err := ca.verify(tc.chain, tc.at)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantUser, user)
			assert.Equal(t, tc.wantGroups, groups)
		})
	}
}

func parseCert(t *testing.T, certPEM []byte) *x509.Certificate {
	t.Helper()
	b, _ := pem.Decode(certPEM)
	require.NotNil(t, b, "not PEM: %s", certPEM)
	c, err := x509.ParseCertificate(b.Bytes)
	require.NoError(t, err)
	return c
}

// TestCh01_ClientCertAuthNeedsTLS: Options.ClientCertAuth is valid options, but Start (plain
// HTTP) refuses it with an error that says to use StartTLS; a server without it, or not yet
// started, has no client certificates and mints none.
func TestCh01_ClientCertAuthNeedsTLS(t *testing.T) {
	checkNoLeak(t)
	opts := Options{ClientCertAuth: true}
	require.NoError(t, opts.Validate())
	s := New(opts)
	defer s.Close()
	cert, key := s.ClientCertificatePEM()
	assert.Nil(t, cert, "before StartTLS")
	assert.Nil(t, key)
	_, _, err := s.IssueClientCertificate("jane")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "StartTLS")

	url, err := s.Start("127.0.0.1:0")
	require.Error(t, err)
	assert.Empty(t, url)
	assert.Contains(t, err.Error(), "ClientCertAuth needs TLS")
	assert.Contains(t, err.Error(), "StartTLS")
	assert.Empty(t, s.URL(), "nothing listens")

	plain := NewTLSTestServer(t, Options{BearerToken: "t"})
	cert, key = plain.ClientCertificatePEM()
	assert.Nil(t, cert, "without ClientCertAuth")
	assert.Nil(t, key)
	_, _, err = plain.IssueClientCertificate("jane")
	require.Error(t, err)
	assert.NotContains(t, string(plain.Kubeconfig()), "client-certificate-data")
}

// TestCh01_IssueClientCertificate: the admin certificate and minted ones carry the user as
// CN and the groups as O, are for client auth only, chain to the client CA and come with a
// matching key; an empty user is refused.
func TestCh01_IssueClientCertificate(t *testing.T) {
	s := NewTLSTestServer(t, Options{ClientCertAuth: true})
	adminCert, adminKey := s.ClientCertificatePEM()
	jane, janeKey, err := s.IssueClientCertificate("jane", "developers", "qa")
	require.NoError(t, err)
	nobody, nobodyKey, err := s.IssueClientCertificate("bot")
	require.NoError(t, err)
	for _, tc := range []struct {
		name      string
		cert, key []byte
		cn        string
		groups    []string
	}{
		{"admin", adminCert, adminKey, "kubernetes-admin", []string{"system:masters"}},
		{"jane", jane, janeKey, "jane", []string{"developers", "qa"}},
		{"no groups", nobody, nobodyKey, "bot", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tls.X509KeyPair(tc.cert, tc.key)
			require.NoError(t, err, "the key matches the certificate")
			c := parseCert(t, tc.cert)
			assert.Equal(t, tc.cn, c.Subject.CommonName)
			assert.ElementsMatch(t, tc.groups, c.Subject.Organization, "a set: DER sorts the values of one RDN")
			assert.Equal(t, []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, c.ExtKeyUsage)
			assert.False(t, c.IsCA)
			assert.NoError(t, c.CheckSignatureFrom(s.life.clientCA.Load().cert))
			assert.NotEqual(t, string(s.CACertPEM()), string(tc.cert))
		})
	}
	_, _, err = s.IssueClientCertificate("")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "common name")
}

// TestCh01_ClientCertKubeconfig is the end-to-end proof with our own client: Kubeconfig of a
// ClientCertAuth server holds the admin certificate (and the token when there is one);
// clientcmd.ParseKubeconfig reads it, ClientConfig gives CertData and KeyData, and a List
// through rest.RESTClientFor succeeds. Without the certificate the same client is 401.
func TestCh01_ClientCertKubeconfig(t *testing.T) {
	for _, tc := range []struct {
		name, token string
	}{{"certificate", ""}, {"certificate and token", "t0ken"}} {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeak(t)
			s := NewTLSTestServer(t, Options{ClientCertAuth: true, BearerToken: tc.token})
			_, err := s.Create(context.Background(), "pods", "default", pod("", "web", nil))
			require.NoError(t, err)

			kc := s.Kubeconfig()
			cert, key := s.ClientCertificatePEM()
			user := decodeKubeconfig(t, kc).AuthInfos[0].AuthInfo
			assert.NotEmpty(t, user.ClientCertificateData)
			assert.NotEmpty(t, user.ClientKeyData)
			assert.Equal(t, tc.token, user.Token)

			k, err := clientcmd.ParseKubeconfig(kc)
			require.NoError(t, err)
			cfg, err := k.ClientConfig("")
			require.NoError(t, err)
			assert.Equal(t, s.URL(), cfg.Host)
			assert.Equal(t, string(cert), string(cfg.CertData))
			assert.Equal(t, string(key), string(cfg.KeyData))
			assert.Equal(t, tc.token, cfg.BearerToken)
			assert.Equal(t, string(s.CACertPEM()), string(cfg.CAData))

			list := func(cfg *rest.Config) (api.Object, error) {
				rc, err := rest.RESTClientFor(cfg)
				require.NoError(t, err)
				return rc.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default").List(context.Background(), api.ListOptions{})
			}
			obj, err := list(cfg)
			require.NoError(t, err)
			require.Len(t, obj.(*api.PodList).Items, 1)
			assert.Equal(t, "web", obj.(*api.PodList).Items[0].Name)

			anon := *cfg
			anon.CertData, anon.KeyData, anon.BearerToken = nil, nil, ""
			_, err = list(&anon)
			require.Error(t, err)
			assert.True(t, api.IsUnauthorized(err), "%v", err)
		})
	}
}
