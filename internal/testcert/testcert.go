// Package testcert makes throwaway client certificates for tests of client-certificate
// authentication (rest and clientcmd, demo watch), on the standard library alone.
//
// Contract:
//  1. SelfSignedClient returns a fresh ECDSA P-256 key and a self-signed certificate for it,
//     both in PEM: CN cn, O groups, extended key usage clientAuth, valid from an hour ago for
//     a day. The key is PKCS #8 ("PRIVATE KEY"), which tls.X509KeyPair and kubectl accept.
//  2. Each call makes a new key and a random serial, so two certificates never match.
//  3. Any failure ends the test (t.Fatal); there is no error to check.
//
// client-go's own tests use k8s.io/client-go/util/cert.
package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"
)

// SelfSignedClient returns a self-signed client certificate for cn in groups, and its key,
// in PEM (contract 1). A server that trusts only its own CA refuses it, which is what tests
// of a foreign certificate need; a test server can trust it by its own PEM.
func SelfSignedClient(t testing.TB, cn string, groups ...string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("testcert: generating a key: %v", err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatalf("testcert: generating a serial: %v", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial.Add(serial, big.NewInt(1)),
		Subject:      pkix.Name{CommonName: cn, Organization: groups},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("testcert: creating the certificate: %v", err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatalf("testcert: encoding the key: %v", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd})
}
