package apiserver

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Authentication (Options.BearerToken, Options.ClientCertAuth), a much reduced
// WithAuthentication filter of k8s.io/apiserver pkg/endpoints/filters, running the
// authenticators that kube-apiserver assembles in pkg/kubeapiserver/authenticator/config.go,
// in the same order:
//
//  1. x509 (ClientCertAuth; k8s.io/apiserver pkg/authentication/request/x509, the
//     --client-ca-file authenticator): a client certificate that verifies against the client
//     CA of StartTLS authenticates the user of its CN, in the groups of its O.
//  2. bearer token (BearerToken; request/bearertoken over a static token authenticator, the
//     --token-auth-file of kube-apiserver with one token).
//  3. anonymous, only when neither 1 nor 2 succeeded or failed (no credentials at all), and
//     then only for what RBAC's system:public-info-viewer role lets anonymous users read.
//
// Steps 1 and 2 are a union (request/union's New): the first success wins and the rest are
// not consulted, so a verified certificate passes whatever Authorization header comes with
// it; a failure (a certificate of another CA, expired or not for client auth; a wrong token)
// is only remembered, and a later success still wins. Step 3 sits behind a fail-on-error
// union (NewFailOnError): once 1 or 2 failed, the request is 401, never anonymous.
//
// The decision table when BearerToken or ClientCertAuth is set (neither: everyone passes):
//
//	client certificate    Authorization header     health (/healthz /livez …) and /version   everything else
//	verified              anything or none         served                                    served
//	none                  no bearer token          served (anonymous)                        401 Unauthorized
//	none                  "Bearer <the token>"     served                                    served
//	none                  "Bearer <another>"       401 Unauthorized                          401 Unauthorized
//	fails verification    "Bearer <the token>"     served                                    served
//	fails verification    anything else            401 Unauthorized                          401 Unauthorized
//
// "No bearer token" is no header, or one the bearer-token authenticator cannot read (another
// scheme such as Basic, "Bearer" alone, two spaces before the token; see bearerToken): like
// the real one, it then neither succeeds nor fails. A verified certificate without a CN
// counts as none (the x509 authenticator neither succeeds nor fails on it). With
// ClientCertAuth and no BearerToken every bearer token is "another": a real cluster always
// runs its service-account token authenticator too, which refuses a token it did not sign.
// Certificates exist only in a TLS handshake of StartTLS (tls.RequestClientCert: asked for,
// verified here, so a bad one is a readable 401 rather than a failed handshake); a request
// that reaches Handler another way has none.
//
// Authentication runs first: the browser checks of origin.go (a foreign Origin or Host is
// 403) come after it, so a request without credentials gets the same 401 wherever it comes
// from; on a server without authentication they are the only guard against web pages.
//
// kubectl sends a kubeconfig's token only over https and certificates exist only in TLS, so
// serve with StartTLS (Start refuses ClientCertAuth): it makes a self-signed serving
// certificate at start-up, which CACertPEM returns and Kubeconfig embeds; with ClientCertAuth
// it also makes the client CA, as kubeadm and kind do, and issues the admin certificate (CN
// kubernetes-admin, O system:masters) that ClientCertificatePEM returns and Kubeconfig
// embeds; IssueClientCertificate mints more.
//
// A real server answers a request without credentials on a resource path with 403 Forbidden
// (the anonymous user is authenticated, then denied by RBAC), or with 401 when
// --anonymous-auth=false. We answer 401, which is what kubectl's "You must be logged in to
// the server" needs, and keep health and version open, as RBAC does, so probes and the
// kubectl dispatcher's /version call work without credentials. Presented but wrong
// credentials are 401 everywhere, health included, exactly as on a real server. There is no
// authorization: every authenticated user may do anything.

// authenticate returns the 401 Status for a request that may not pass, or nil.
func (s *endpoints) authenticate(r *http.Request) *api.Status {
	want := s.opts.BearerToken
	if want == "" && !s.opts.ClientCertAuth {
		return nil
	}
	failed := false // an authenticator failed: no anonymous access
	// 1. x509. Without a client CA (Handler served by something other than StartTLS) the
	// authenticator has no roots and, like the real one, ignores the certificate.
	if ca := s.life.clientCA.Load(); ca != nil && r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		user, _, err := ca.verify(r.TLS.PeerCertificates, time.Now())
		switch {
		case err != nil:
			failed = true
		case user != "":
			return nil
		}
	}
	// 2. bearer token.
	token, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok {
		// 3. anonymous.
		if !failed && isPublicPath(r.URL.Path) {
			return nil
		}
		return api.NewUnauthorized("Unauthorized")
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(token), []byte(want)) != 1 {
		return api.NewUnauthorized("Unauthorized")
	}
	return nil
}

// bearerToken reads an Authorization header as the real bearer-token authenticator
// (request/bearertoken) does, so that a header passes or fails here exactly as there: the
// header is trimmed of white space and cut at single spaces into at most three parts; the
// first must be "bearer" in any case and the second, the token, must not be empty. So
// "Bearer t extra" carries the token t, while "Bearer  t" (two spaces: an empty second part)
// and "Bearer\tt" carry none. ok is false when the header carries no bearer token at all,
// which counts as no credentials rather than wrong ones. (The real server also sends a
// warning for the two-space form; we do not.)
func bearerToken(header string) (token string, ok bool) {
	parts := strings.SplitN(strings.TrimSpace(header), " ", 3)
	if len(parts) < 2 || strings.ToLower(parts[0]) != "bearer" || parts[1] == "" {
		return "", false
	}
	return parts[1], true
}

// isPublicPath reports whether an anonymous request may read path (system:public-info-viewer).
func isPublicPath(path string) bool {
	return isHealthPath(path) || path == "/version" || path == "/version/"
}
