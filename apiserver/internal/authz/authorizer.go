package authz

import (
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Decision mirrors authorizer.Decision.
type Decision int

// The decisions of an authorizer.
const (
	DecisionDeny Decision = iota
	DecisionAllow
	DecisionNoOpinion
)

// The authorization modes of Chain, as --authorization-mode spells them.
const (
	ModeAlwaysAllow = "AlwaysAllow"
	ModeRBAC        = "RBAC"
)

// Chain mirrors the authorizer kube-apiserver builds (pkg/kubeapiserver/authorizer
// reload.go): the system:masters privileged-group authorizer, then the mode's, in a union.
type Chain struct {
	Mode string // ModeAlwaysAllow or ModeRBAC
	RBAC *RBAC  // the policy of ModeRBAC
}

// Authorize mirrors the union authorizer's Authorize: point 2 of the package contract.
func (c *Chain) Authorize(a Attributes) (Decision, string) {
	if a.User != nil && a.User.InGroup(SystemPrivilegedGroup) {
		return DecisionAllow, ""
	}
	if c.Mode == ModeRBAC {
		return c.RBAC.Authorize(a)
	}
	return DecisionAllow, ""
}

// ResourceRule and NonResourceRule mirror the rules of a SelfSubjectRulesReview's status.
type (
	ResourceRule    struct{ Verbs, APIGroups, Resources, ResourceNames []string }
	NonResourceRule struct{ Verbs, NonResourceURLs []string }
)

// RulesFor mirrors the union rule resolver of the chain (the privileged group resolves no
// rules): everything for AlwaysAllow; RBAC's rules, each split into its resource and its
// non-resource part, with the resolution errors as evaluation error.
func (c *Chain) RulesFor(u *User, namespace string) (res []ResourceRule, nonRes []NonResourceRule, evaluationError string) {
	if c.Mode != ModeRBAC {
		return []ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
			[]NonResourceRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}, ""
	}
	rules, errText := c.RBAC.RulesFor(u, namespace)
	for _, r := range rules {
		if len(r.Resources) > 0 {
			res = append(res, ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames})
		}
		if len(r.NonResourceURLs) > 0 {
			nonRes = append(nonRes, NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
		}
	}
	return res, nonRes, errText
}

// Forbidden mirrors responsewriters.ForbiddenStatusError: point 5 of the package contract.
func Forbidden(a Attributes, reason string) *api.Status {
	// Only the part built from the request is escaped, so that it cannot look like HTML.
	msg := strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;").Replace(forbiddenMessage(a))
	if reason != "" {
		msg += ": " + reason
	}
	return api.NewForbidden(api.GroupResource{Group: a.APIGroup, Resource: a.Resource}, a.Name, errors.New(msg))
}

// forbiddenMessage mirrors forbiddenMessage of responsewriters.
func forbiddenMessage(a Attributes) string {
	name := ""
	if a.User != nil {
		name = a.User.Name
	}
	if !a.ResourceRequest {
		return fmt.Sprintf("User %q cannot %s path %q", name, a.Verb, a.Path)
	}
	resource := a.Resource
	if a.Subresource != "" {
		resource += "/" + a.Subresource
	}
	if a.Namespace != "" {
		return fmt.Sprintf("User %q cannot %s resource %q in API group %q in the namespace %q", name, a.Verb, resource, a.APIGroup, a.Namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q at the cluster scope", name, a.Verb, resource, a.APIGroup)
}
