package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"net"
	"time"
)

// TLS with a self-signed certificate, made at start-up: kube-apiserver does the same when it
// is given no --tls-cert-file (it writes apiserver.crt under --cert-dir). We need TLS for one
// reason: kubectl (clientcmd) sends a kubeconfig's token or client credentials only over
// https, never over plain http, so Options.BearerToken is useless to kubectl without it; and
// client certificates (Options.ClientCertAuth, clientcert.go) exist only in a TLS handshake.

// StartTLS is Start over https (the name mirrors httptest.Server.StartTLS), with a fresh
// self-signed certificate, like the one kube-apiserver writes to --cert-dir, valid for the
// listen host, 127.0.0.1, ::1 and localhost. Clients trust it through CACertPEM (a
// kubeconfig's certificate-authority-data; see Kubeconfig). It returns the base URL, e.g.
// "https://127.0.0.1:6443".
func (s *Server) StartTLS(addr string) (string, error) { return s.start(addr, true) }

// CACertPEM returns the PEM certificate StartTLS serves (it is its own CA), or nil when the
// server is not serving TLS.
func (s *Server) CACertPEM() []byte {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	return s.life.caPEM
}

// selfSignedTLS makes an ECDSA P-256 key and a certificate for host, valid for a year. It
// returns the TLS configuration and the certificate in PEM.
func selfSignedTLS(host string) (*tls.Config, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: generating a TLS key: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "informer-lab-apiserver"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	switch ip := net.ParseIP(host); {
	case ip != nil && ip.IsUnspecified():
		// Listening everywhere (a workshop): valid for every address of this machine.
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
					tmpl.IPAddresses = append(tmpl.IPAddresses, n.IP)
				}
			}
		}
	case ip != nil && !ip.IsLoopback():
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	case ip == nil && host != "localhost":
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: creating the TLS certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: encoding the TLS key: %w", err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	pair, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	if err != nil {
		return nil, nil, fmt.Errorf("apiserver: loading the TLS key pair: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}, certPEM, nil
}
