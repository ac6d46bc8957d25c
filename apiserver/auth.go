package apiserver

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Bearer-token authentication (Options.BearerToken), a much reduced WithAuthentication filter
// of k8s.io/apiserver pkg/endpoints/filters: a static token authenticator (the
// --token-auth-file of kube-apiserver, with one token) in front of the anonymous
// authenticator, plus what RBAC's system:public-info-viewer role lets anonymous users read.
//
// The decision table:
//
//	Authorization header         health (/healthz /livez /readyz …) and /version   everything else
//	none                         served (anonymous)                                401 Unauthorized
//	"Bearer <the token>"         served                                            served
//	anything else                401 Unauthorized                                  401 Unauthorized
//
// A real server answers a request without credentials on a resource path with 403 Forbidden
// (the anonymous user is authenticated, then denied by RBAC), or with 401 when
// --anonymous-auth=false. We answer 401, which is what kubectl's "You must be logged in to
// the server" needs, and keep health and version open, as RBAC does, so probes and the
// kubectl dispatcher's /version call work without a token. Presented but wrong credentials
// are 401 everywhere, health included, exactly as on a real server.

// authenticate returns the 401 Status for a request that may not pass, or nil.
func (s *Server) authenticate(r *http.Request) *api.Status {
	want := s.opts.BearerToken
	if want == "" {
		return nil
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		if isPublicPath(r.URL.Path) {
			return nil
		}
		return api.NewUnauthorized("Unauthorized")
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") ||
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(want)) != 1 {
		return api.NewUnauthorized("Unauthorized")
	}
	return nil
}

// isPublicPath reports whether an anonymous request may read path (system:public-info-viewer).
func isPublicPath(path string) bool {
	return isHealthPath(path) || path == "/version" || path == "/version/"
}
