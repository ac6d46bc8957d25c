package serviceaccount

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// errSignature is go-jose's text for a signature that does not verify, which the real
// authenticator passes on.
var errSignature = errors.New("go-jose/go-jose: error in cryptographic primitive")

// signer holds the key tokens are signed with.
type signer struct {
	key *ecdsa.PrivateKey
	kid string
}

// newSigner makes a P-256 key and its key ID, as keyIDFromPublicKey derives it.
func newSigner() (*signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: generating the signing key: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: encoding the public key: %w", err)
	}
	sum := sha256.Sum256(der)
	return &signer{key: key, kid: base64.RawURLEncoding.EncodeToString(sum[:])}, nil
}

// sign returns the compact JWS of claims: header.payload.signature, each unpadded base64url;
// the ES256 signature is r and s, 32 bytes each.
func (s *signer) sign(claims map[string]any) (string, error) {
	header, err := json.Marshal(map[string]string{"alg": "ES256", "kid": s.kid})
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64(header) + "." + b64(payload)
	digest := sha256.Sum256([]byte(input))
	r, sig, err := ecdsa.Sign(rand.Reader, s.key, digest[:])
	if err != nil {
		return "", err
	}
	raw := make([]byte, 64)
	r.FillBytes(raw[:32])
	sig.FillBytes(raw[32:])
	return input + "." + b64(raw), nil
}

// verify checks the signature of a compact JWS and returns its payload.
func (s *signer) verify(token string) ([]byte, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errSignature
	}
	header, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return nil, errSignature
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(header, &h) != nil || h.Alg != "ES256" {
		return nil, errSignature
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 64 {
		return nil, errSignature
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, sig := new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:])
	if !ecdsa.Verify(&s.key.PublicKey, digest[:], r, sig) {
		return nil, errSignature
	}
	return base64.RawURLEncoding.DecodeString(parts[1])
}

// unverifiedIssuer mirrors hasCorrectIssuer's reading: the iss of a three-part token whose
// payload decodes, before any signature check; "" when it is not such a token.
func unverifiedIssuer(token string) string {
	if strings.HasPrefix(strings.TrimSpace(token), "{") {
		return ""
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var c struct {
		Iss string `json:"iss"`
	}
	if json.Unmarshal(payload, &c) != nil {
		return ""
	}
	return c.Iss
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
