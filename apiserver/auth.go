package apiserver

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
	"github.com/informer-lab/informer-lab/apiserver/storage"
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
// The decision table when BearerToken or ClientCertAuth is set (neither: everyone passes,
// see the users below):
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
// ClientCertAuth and no BearerToken every bearer token is "another" unless this server
// signed it for a service account: a real cluster always runs its service-account token
// authenticator too, which refuses a token it did not sign. (Without either option every
// request passes; a service-account token still makes it the service account's.)
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
// credentials are 401 everywhere, health included, exactly as on a real server. What an
// authenticated user may do is authorization.go's.

// The users the authenticators give (auth.go's table above, with authorization.go):
//
//   - with BearerToken, the token is the admin user of a --token-auth-file line
//     "<token>,kubernetes-admin,,system:masters": AdminCommonName in AdminGroup, as the
//     admin client certificate is, so either credential of the kubeconfig is all-powerful;
//   - a verified client certificate is the user of its CN in the groups of its O;
//   - a service-account token this server issued (serviceaccounts/token) is the service
//     account: system:serviceaccount:<ns>:<name>, in system:serviceaccounts and
//     system:serviceaccounts:<ns>. It authenticates in every mode, open or not; a token that
//     names this server as issuer but fails (expired, bad signature, account gone) is 401;
//   - an anonymous request to a public path is system:anonymous in system:unauthenticated;
//   - with neither BearerToken nor ClientCertAuth (the open server), every other request is
//     UnsecuredUser in system:masters, as kube-apiserver's old insecure port served
//     everything as system:unsecured: so RBAC still lets it do anything, and it may
//     impersonate (kubectl --as) whom it likes.
//
// Every authenticated user but the anonymous one is also in system:authenticated (the
// group adder of the real authenticator chain).

// UnsecuredUser mirrors the user of the insecure port kube-apiserver once had: the user of a
// request without credentials on a server without authentication (neither BearerToken nor
// ClientCertAuth), in AdminGroup.
const UnsecuredUser = "system:unsecured"

// authenticate returns the user of a request, or the 401 Status for a request that may not
// pass.
func (s *endpoints) authenticate(r *http.Request) (*authz.User, *api.Status) {
	want := s.opts.BearerToken
	open := want == "" && !s.opts.ClientCertAuth
	failed := false // an authenticator failed: no anonymous access
	// 1. x509. Without a client CA (Handler served by something other than StartTLS) the
	// authenticator has no roots and, like the real one, ignores the certificate.
	if ca := s.life.clientCA.Load(); ca != nil && r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		user, groups, err := ca.verify(r.TLS.PeerCertificates, time.Now())
		switch {
		case err != nil:
			failed = true
		case user != "":
			return authenticated(&authz.User{Name: user, Groups: groups}), nil
		}
	}
	// 2. bearer token: the static one, then the service-account tokens.
	token, hasToken := bearerToken(r.Header.Get("Authorization"))
	if hasToken {
		if want != "" && subtle.ConstantTimeCompare([]byte(token), []byte(want)) == 1 {
			return authenticated(&authz.User{Name: AdminCommonName, Groups: []string{AdminGroup}}), nil
		}
		u, _, ok, err := s.tokens.Authenticate(token, nil, s.clock.Now(), s.storedObject)
		switch {
		case ok:
			return authenticated(u), nil
		case err != nil || !open:
			return nil, api.NewUnauthorized("Unauthorized")
		}
		// An open server ignores a token that is not its own, as it always has.
	}
	if open {
		return authenticated(&authz.User{Name: UnsecuredUser, Groups: []string{AdminGroup}}), nil
	}
	// 3. anonymous.
	if !failed && !hasToken && isPublicPath(r.URL.Path) {
		return &authz.User{Name: authz.Anonymous, Groups: []string{authz.AllUnauthenticated}}, nil
	}
	return nil, api.NewUnauthorized("Unauthorized")
}

// authenticated mirrors group.NewAuthenticatedGroupAdder: the user, also in
// system:authenticated.
func authenticated(u *authz.User) *authz.User {
	if !u.InGroup(authz.AllAuthenticated) {
		u.Groups = append(u.Groups, authz.AllAuthenticated)
	}
	return u
}

// storedObject reads a stored core/v1 object for the service-account token validator: the
// service account, and the pod, secret or node a token is bound to.
func (s *endpoints) storedObject(resource, namespace, name string) map[string]any {
	res := s.table.Get("", resource)
	if res == nil {
		return nil
	}
	rec, err := s.store.Get(context.Background(), res.Coll, objectKey(namespace, name), storage.GetOptions{})
	if err != nil {
		return nil
	}
	return rec.Obj.Object
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
