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
