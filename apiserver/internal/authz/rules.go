package authz

import "strings"

// RuleAllows mirrors RuleAllows of the RBAC authorizer: point 3 of the package contract.
func RuleAllows(a Attributes, r *Rule) bool {
	if a.ResourceRequest {
		combined := a.Resource
		if a.Subresource != "" {
			combined += "/" + a.Subresource
		}
		return verbMatches(r, a.Verb) && apiGroupMatches(r, a.APIGroup) &&
			resourceMatches(r, combined, a.Subresource) && resourceNameMatches(r, a.Name)
	}
	return verbMatches(r, a.Verb) && nonResourceURLMatches(r, a.Path)
}

// verbMatches mirrors rbacv1helpers.VerbMatches.
func verbMatches(r *Rule, verb string) bool {
	for _, v := range r.Verbs {
		if v == "*" || v == verb {
			return true
		}
	}
	return false
}

// apiGroupMatches mirrors rbacv1helpers.APIGroupMatches.
func apiGroupMatches(r *Rule, group string) bool {
	for _, g := range r.APIGroups {
		if g == "*" || g == group {
			return true
		}
	}
	return false
}

// resourceMatches mirrors rbacv1helpers.ResourceMatches: "*" matches everything, "res" or
// "res/sub" exactly, and "*/sub" any resource's sub. There is no "res/*": a rule on "pods"
// does not reach "pods/log".
func resourceMatches(r *Rule, combined, subresource string) bool {
	for _, res := range r.Resources {
		switch {
		case res == "*", res == combined:
			return true
		case subresource != "" && res == "*/"+subresource:
			return true
		}
	}
	return false
}

// resourceNameMatches mirrors rbacv1helpers.ResourceNameMatches: no names means any.
func resourceNameMatches(r *Rule, name string) bool {
	if len(r.ResourceNames) == 0 {
		return true
	}
	for _, n := range r.ResourceNames {
		if n == name {
			return true
		}
	}
	return false
}

// nonResourceURLMatches mirrors rbacv1helpers.NonResourceURLMatches: "*", the path itself,
// or a prefix ending in "*".
func nonResourceURLMatches(r *Rule, path string) bool {
	for _, u := range r.NonResourceURLs {
		switch {
		case u == "*", u == path:
			return true
		case strings.HasSuffix(u, "*") && strings.HasPrefix(path, strings.TrimRight(u, "*")):
			return true
		}
	}
	return false
}
