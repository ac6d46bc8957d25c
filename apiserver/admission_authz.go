package apiserver

import (
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// policyAuthorizer mirrors the admission policies' authorizer: the server's own chain,
// asked for the requesting user, or for the service account an expression names
// (serviceAccount(ns, name), with the groups a service account token carries).
func policyAuthorizer(chain *authz.Chain) admission.AuthorizeFunc {
	return func(u rest.UserInfo, r cel.AuthzRequest) cel.AuthzDecision {
		user := &authz.User{Name: u.Name, UID: u.UID, Groups: u.Groups, Extra: u.Extra}
		if r.AsServiceAccount {
			user = &authz.User{Name: "system:serviceaccount:" + r.ServiceAccountNamespace + ":" + r.ServiceAccountName,
				Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + r.ServiceAccountNamespace, "system:authenticated"}}
		}
		attrs := authz.Attributes{User: user, Verb: r.Verb, ResourceRequest: r.IsResource, Path: r.Path,
			APIGroup: r.Group, APIVersion: "*", Namespace: r.Namespace, Resource: r.Resource, Subresource: r.Subresource, Name: r.Name}
		d, reason := chain.Authorize(attrs)
		switch d {
		case authz.DecisionAllow:
			return cel.AuthzDecision{Decision: "allow", Reason: reason}
		case authz.DecisionDeny:
			return cel.AuthzDecision{Decision: "deny", Reason: reason}
		}
		return cel.AuthzDecision{Decision: "noOpinion", Reason: reason}
	}
}
