package apiserver

import "net/http"

// handlerFunc serves one request of a resource or subresource that is not plain storage:
// a review, a binding, pods/eviction, serviceaccounts/token, …
type handlerFunc func(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo)

// handlers maps "group/resource" (a resource's own verbs, e.g. a review's create) or
// "group/resource/subresource" to its handler. These are the REST storages of a
// kube-apiserver that are not a genericregistry.Store: they answer from the request.
var handlers = map[string]handlerFunc{
	"certificates.k8s.io/certificatesigningrequests/approval": serveStoredSubresource,
	// The reviews (reviews.go) and TokenRequest (token_request.go).
	"authentication.k8s.io/tokenreviews":             serveTokenReview,
	"authentication.k8s.io/selfsubjectreviews":       serveSelfSubjectReview,
	"authorization.k8s.io/subjectaccessreviews":      serveAccessReview,
	"authorization.k8s.io/selfsubjectaccessreviews":  serveAccessReview,
	"authorization.k8s.io/localsubjectaccessreviews": serveAccessReview,
	"authorization.k8s.io/selfsubjectrulesreviews":   serveSelfSubjectRulesReview,
	"/serviceaccounts/token":                         serveTokenRequest,
	"/bindings":                                      serveLegacyBinding,
	"/componentstatuses":                             serveComponentStatuses,
	"/pods/binding":                                  serveBinding,
	"/pods/eviction":                                 serveEviction,
}

// handlerFor returns the handler of the request's resource or subresource, or nil when the
// generic storage serves it.
func handlerFor(info requestInfo) handlerFunc {
	key := info.res.Info.Group + "/" + info.res.Info.Resource
	if info.subresource != "" {
		key += "/" + info.subresource
	}
	return handlers[key]
}
