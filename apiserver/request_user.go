package apiserver

import (
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// authenticatedGroup mirrors user.AllAuthenticated, the group the authenticators add to
// every user they authenticate.
const authenticatedGroup = "system:authenticated"

// requestUser is the user a request that passed authenticate is served as, for the
// strategies that record it (a CertificateSigningRequest's spec.username): a verified
// client certificate's CN in its organisations; otherwise the admin of Kubeconfig, whom the
// bearer token stands for, as a token file line naming kubernetes-admin in system:masters
// would. A server without authentication serves everyone as that admin.
func (s *endpoints) requestUser(r *http.Request) rest.UserInfo {
	if ca := s.life.clientCA.Load(); ca != nil && r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		if name, groups, err := ca.verify(r.TLS.PeerCertificates, time.Now()); err == nil && name != "" {
			return rest.UserInfo{Name: name, Groups: append(groups, authenticatedGroup)}
		}
	}
	return rest.UserInfo{Name: AdminCommonName, Groups: []string{AdminGroup, authenticatedGroup}}
}
