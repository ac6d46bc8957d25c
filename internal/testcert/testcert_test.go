package testcert_test

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/testcert"
)

// The pair loads as a TLS client certificate with the asked-for subject and usage, and two
// calls give two different certificates (contract 1, 2).
func TestSelfSignedClient(t *testing.T) {
	certPEM, keyPEM := testcert.SelfSignedClient(t, "alice", "devs", "ops")
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	require.NoError(t, err)
	assert.Equal(t, "alice", leaf.Subject.CommonName)
	assert.ElementsMatch(t, []string{"devs", "ops"}, leaf.Subject.Organization)
	assert.Equal(t, []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, leaf.ExtKeyUsage)

	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	_, err = leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	assert.NoError(t, err, "self-signed: it verifies against itself")

	other, _ := testcert.SelfSignedClient(t, "alice")
	assert.NotEqual(t, certPEM, other)
}
