package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Client-certificate authentication (Options.ClientCertAuth): the x509 authenticator that
// kube-apiserver runs when given --client-ca-file, with the client CA made at StartTLS, as
// kubeadm (and so kind) makes one at `kubeadm init` and signs admin.conf's certificate with
// it. The authenticator itself is in auth.go; this file holds the CA, the certificates it
// issues and the chain verification.
//
// Like kube-apiserver, the TLS layer only asks for a certificate (tls.RequestClientCert) and
// verifies nothing: the authenticator verifies the chain, so a certificate of another CA, or
// an expired one, gets a 401 Status instead of a failed handshake the client cannot read.

const (
	// AdminCommonName mirrors kubeadm's admin.conf user (kind's kubeconfig is a copy of that
	// file): the CN of the client certificate StartTLS issues with Options.ClientCertAuth.
	AdminCommonName = "kubernetes-admin"
	// AdminGroup mirrors kubeadm's SystemPrivilegedGroup, the group RBAC's cluster-admin
	// binding names (kubeadm's super-admin.conf carries it): the O of the admin certificate.
	AdminGroup = "system:masters"

	clientCAValidity   = 10 * 365 * 24 * time.Hour // kubeadm's CAs: ten years
	clientCertValidity = 365 * 24 * time.Hour      // kubeadm's client certificates: one year
)

// clientCA is the CA behind Options.ClientCertAuth and the admin certificate it issued.
type clientCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool // the CA alone: the roots of verification and the TLS hint list

	adminCert, adminKey []byte // PEM
}

// newClientCA makes a self-signed ECDSA P-256 client CA and issues the admin certificate.
func newClientCA() (*clientCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("apiserver: generating the client CA key: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "informer-lab-client-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(clientCAValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("apiserver: creating the client CA: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("apiserver: parsing the client CA: %w", err)
	}
	ca := &clientCA{cert: cert, key: key, pool: x509.NewCertPool()}
	ca.pool.AddCert(cert)
	if ca.adminCert, ca.adminKey, err = ca.issue(AdminCommonName, []string{AdminGroup}, now.Add(-time.Hour), now.Add(clientCertValidity)); err != nil {
		return nil, err
	}
	return ca, nil
}

// issue signs a client certificate (CN cn, O groups, extended key usage clientAuth) for a
// fresh ECDSA P-256 key, valid from notBefore to notAfter. It returns both in PEM.
func (ca *clientCA) issue(cn string, groups []string, notBefore, notAfter time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: generating a client key: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: groups},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: signing a client certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: encoding a client key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// verify checks a presented chain (leaf first, then any intermediates) against the CA at
// time now, for client authentication. It returns the user the leaf names: its CN and, as
// groups, its organisations. A verified certificate without a CN names nobody (user ""),
// which is not an error: the request is then judged as if it had no certificate.
func (ca *clientCA) verify(chain []*x509.Certificate, now time.Time) (user string, groups []string, err error) {
	if len(chain) == 0 {
		return "", nil, errors.New("no client certificate")
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	_, err = chain[0].Verify(x509.VerifyOptions{
		Roots:         ca.pool,
		Intermediates: inter,
		CurrentTime:   now,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return "", nil, fmt.Errorf("verifying client certificate (serial %s): %w", chain[0].SerialNumber, err)
	}
	return chain[0].Subject.CommonName, chain[0].Subject.Organization, nil
}

// newSerial returns a random positive certificate serial number.
func newSerial() (*big.Int, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, fmt.Errorf("apiserver: generating a serial number: %w", err)
	}
	return serial.Add(serial, big.NewInt(1)), nil
}

// ClientCertificatePEM mirrors the client-certificate-data and client-key-data of the
// admin.conf kubeconfig that kubeadm and kind write: it returns the admin client certificate
// (CN "kubernetes-admin", O "system:masters") and its key, in PEM, that StartTLS issued with
// Options.ClientCertAuth. Both are nil before StartTLS or without ClientCertAuth.
func (s *Server) ClientCertificatePEM() (cert, key []byte) {
	ca := s.life.clientCA.Load()
	if ca == nil {
		return nil, nil
	}
	return ca.adminCert, ca.adminKey
}

// IssueClientCertificate mints a client certificate for user cn in groups (its CN and O),
// signed by the client CA of Options.ClientCertAuth and valid for a year, and returns it and
// its new ECDSA key in PEM. It mirrors `kubeadm kubeconfig user --client-name cn --org g`:
// the server then authenticates requests presenting it as that user. It fails before
// StartTLS, without ClientCertAuth, or for an empty cn (kube-apiserver authenticates nobody
// from a certificate without a CN).
func (s *Server) IssueClientCertificate(cn string, groups ...string) (certPEM, keyPEM []byte, err error) {
	ca := s.life.clientCA.Load()
	if ca == nil {
		return nil, nil, errors.New("apiserver: IssueClientCertificate needs Options.ClientCertAuth and a server started with StartTLS")
	}
	if cn == "" {
		return nil, nil, errors.New("apiserver: a client certificate needs a common name (the user name)")
	}
	now := time.Now()
	return ca.issue(cn, groups, now.Add(-time.Hour), now.Add(clientCertValidity))
}
