// Package authorization holds the authorization.k8s.io/v1 kinds, the access reviews of
// kubernetes pkg/registry/authorization: create-only resources that store nothing and are
// answered by the server's authorizer in the endpoints layer (apiserver's handlers map).
package authorization

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

const group = "authorization.k8s.io"

func review(resource, kind string, namespaced bool) rest.Kind {
	return rest.Kind{Group: group, Resource: resource, Kind: kind, Verbs: []string{"create"},
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: group, Version: "v1", Kind: kind}, Cluster: !namespaced}}
}

// LocalSubjectAccessReviews is the localsubjectaccessreviews resource: may a user do
// something in the request's namespace.
func LocalSubjectAccessReviews() rest.Kind {
	return review("localsubjectaccessreviews", "LocalSubjectAccessReview", true)
}

// SelfSubjectAccessReviews is the selfsubjectaccessreviews resource: may the requester do
// something, `kubectl auth can-i`.
func SelfSubjectAccessReviews() rest.Kind {
	return review("selfsubjectaccessreviews", "SelfSubjectAccessReview", false)
}

// SelfSubjectRulesReviews is the selfsubjectrulesreviews resource: everything the requester
// may do in a namespace, `kubectl auth can-i --list`.
func SelfSubjectRulesReviews() rest.Kind {
	return review("selfsubjectrulesreviews", "SelfSubjectRulesReview", false)
}

// SubjectAccessReviews is the subjectaccessreviews resource: may any user do something.
func SubjectAccessReviews() rest.Kind {
	return review("subjectaccessreviews", "SubjectAccessReview", false)
}
