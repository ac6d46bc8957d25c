// Package authentication holds the authentication.k8s.io/v1 kinds, the reviews of
// kubernetes pkg/registry/authentication: create-only resources that store nothing and are
// answered from the request by the endpoints layer (apiserver's handlers map).
package authentication

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

const group = "authentication.k8s.io"

// SelfSubjectReviews is the selfsubjectreviews resource (pkg/registry/authentication/selfsubjectreview):
// who the requester is, `kubectl auth whoami`.
func SelfSubjectReviews() rest.Kind {
	return rest.Kind{Group: group, Resource: "selfsubjectreviews", Kind: "SelfSubjectReview", Verbs: []string{"create"},
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: group, Version: "v1", Kind: "SelfSubjectReview"}, Cluster: true}}
}

// TokenReviews is the tokenreviews resource (pkg/registry/authentication/tokenreview): whether
// a bearer token authenticates, and as whom.
func TokenReviews() rest.Kind {
	return rest.Kind{Group: group, Resource: "tokenreviews", Kind: "TokenReview", Verbs: []string{"create"},
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: group, Version: "v1", Kind: "TokenReview"}, Cluster: true}}
}
