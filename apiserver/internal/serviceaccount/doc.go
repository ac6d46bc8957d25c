// Package serviceaccount issues and validates the simulated apiserver's service-account
// tokens, on the model of kubernetes pkg/serviceaccount (jwt.go, claims.go) and
// pkg/registry/core/serviceaccount/storage/token.go:
//
//  1. A token is a compact JWS signed ES256 with a P-256 key the server makes at start; the
//     header names the key by kid, the unpadded base64url SHA-256 of its PKIX public key.
//  2. Its claims are those of a real one: iss, sub system:serviceaccount:<ns>:<name>, aud,
//     exp, iat, nbf, jti, and kubernetes.io with the namespace, the service account's name
//     and uid, and the pod (with its node), secret or node it is bound to; JSON keys sorted.
//  3. Authenticate answers as the real authenticator does: a token that is not a JWT of this
//     issuer is not its business (no user, no error); otherwise a bad signature, an issuer
//     or audience that does not fit, an expired or not-yet-valid token, or a service account
//     or bound object that is gone or has another uid is an error with the real text, and a
//     good token is the service account's user with its groups and extra.
package serviceaccount
