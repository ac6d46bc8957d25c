package authz

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Source is where RBAC reads its policy: the stored roles and bindings, as JSON trees. It
// mirrors the listers the RBAC authorizer is built on.
type Source interface {
	// ClusterRoleBindings lists every ClusterRoleBinding.
	ClusterRoleBindings() []map[string]any
	// RoleBindings lists the RoleBindings of namespace.
	RoleBindings(namespace string) []map[string]any
	// Role returns the Role, or nil.
	Role(namespace, name string) map[string]any
	// ClusterRoles lists every ClusterRole, for aggregation.
	ClusterRoles() []map[string]any
	// ClusterRole returns the ClusterRole, or nil.
	ClusterRole(name string) map[string]any
}

// RBAC mirrors RBACAuthorizer of plugin/pkg/auth/authorizer/rbac over the rule resolver of
// pkg/registry/rbac/validation (DefaultRuleResolver).
type RBAC struct {
	Source Source

	// The aggregated rules of each aggregated ClusterRole, as of the Source's revision
	// cacheRev, when the Source has revisions (Revisioned): gathering them reads every
	// ClusterRole, which each request to a RoleBinding of view, edit or admin would repeat.
	mu       sync.Mutex
	cacheRev uint64
	cache    map[string][]Rule
}

// Revisioned is a Source that can say whether it changed: its revision moves on every write.
type Revisioned interface {
	Revision() uint64
}

// Rule mirrors rbacv1.PolicyRule: one rule of a role.
type Rule struct {
	Verbs, APIGroups, Resources, ResourceNames, NonResourceURLs []string
}

// Authorize mirrors RBACAuthorizer.Authorize: allowed with the first rule that allows,
// naming where it came from; otherwise no opinion, with the resolution errors as reason.
func (a *RBAC) Authorize(attrs Attributes) (Decision, string) {
	var reason string
	var errs []error
	a.visitRules(attrs.User, attrs.Namespace, func(source string, rule *Rule, err error) bool {
		if rule != nil && RuleAllows(attrs, rule) {
			reason = "RBAC: allowed by " + source
			return false
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	if reason != "" {
		return DecisionAllow, reason
	}
	if len(errs) > 0 {
		return DecisionNoOpinion, "RBAC: " + aggregate(errs)
	}
	return DecisionNoOpinion, ""
}

// RulesFor mirrors RBACAuthorizer.RulesFor: every rule that applies to the user in the
// namespace, and the resolution errors (the rules found still count).
func (a *RBAC) RulesFor(u *User, namespace string) ([]Rule, string) {
	var rules []Rule
	var errs []error
	a.visitRules(u, namespace, func(_ string, rule *Rule, err error) bool {
		if rule != nil {
			rules = append(rules, *rule)
		}
		if err != nil {
			errs = append(errs, err)
		}
		return true
	})
	if len(errs) > 0 {
		return rules, aggregate(errs)
	}
	return rules, ""
}

// visitRules mirrors DefaultRuleResolver.VisitRulesFor: the rules of every
// ClusterRoleBinding that applies, then of every RoleBinding of the namespace that applies;
// visit returns false to stop.
func (a *RBAC) visitRules(u *User, namespace string, visit func(source string, rule *Rule, err error) bool) {
	if u == nil {
		u = &User{}
	}
	for _, b := range a.Source.ClusterRoleBindings() {
		if i, ok := appliesTo(u, b, ""); ok {
			rules, err := a.roleRefRules(b, "")
			if err != nil {
				if !visit("", nil, err) {
					return
				}
				continue
			}
			source := fmt.Sprintf("ClusterRoleBinding %q of %s to %s", nameOf(b), describeRoleRef(b), describeSubject(b, i, ""))
			for k := range rules {
				if !visit(source, &rules[k], nil) {
					return
				}
			}
		}
	}
	if namespace == "" {
		return
	}
	for _, b := range a.Source.RoleBindings(namespace) {
		if i, ok := appliesTo(u, b, namespace); ok {
			rules, err := a.roleRefRules(b, namespace)
			if err != nil {
				if !visit("", nil, err) {
					return
				}
				continue
			}
			source := fmt.Sprintf("RoleBinding %q of %s to %s", nameOf(b)+"/"+namespace, describeRoleRef(b), describeSubject(b, i, namespace))
			for k := range rules {
				if !visit(source, &rules[k], nil) {
					return
				}
			}
		}
	}
}

// roleRefRules mirrors GetRoleReferenceRules, with the aggregation of point 4: the error of
// a missing role is the lister's NotFound text.
func (a *RBAC) roleRefRules(binding map[string]any, namespace string) ([]Rule, error) {
	ref := child(binding, "roleRef")
	name := str(ref, "name")
	switch kind := str(ref, "kind"); kind {
	case "Role":
		role := a.Source.Role(namespace, name)
		if role == nil {
			return nil, fmt.Errorf("role.rbac.authorization.k8s.io %q not found", name)
		}
		return rulesOf(role), nil
	case "ClusterRole":
		role := a.Source.ClusterRole(name)
		if role == nil {
			return nil, fmt.Errorf("clusterrole.rbac.authorization.k8s.io %q not found", name)
		}
		if _, aggregated := role["aggregationRule"]; aggregated {
			return a.cachedAggregatedRules(role), nil
		}
		return rulesOf(role), nil
	default:
		return nil, fmt.Errorf("unsupported role reference kind: %q", kind)
	}
}

// cachedAggregatedRules is aggregatedRules, kept until the Source changes.
func (a *RBAC) cachedAggregatedRules(role map[string]any) []Rule {
	rs, ok := a.Source.(Revisioned)
	if !ok {
		return a.aggregatedRules(role, nil)
	}
	rev, name := rs.Revision(), nameOf(role)
	a.mu.Lock()
	if a.cacheRev == rev {
		if rules, ok := a.cache[name]; ok {
			a.mu.Unlock()
			return rules
		}
	}
	a.mu.Unlock()
	rules := a.aggregatedRules(role, nil)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cacheRev != rev {
		a.cacheRev, a.cache = rev, map[string][]Rule{}
	}
	a.cache[name] = rules
	return rules
}

// aggregatedRules computes what the clusterrole-aggregation controller stores in an
// aggregated ClusterRole: for each selector, the ClusterRoles it matches other than the role
// itself, in name order, their rules (aggregated in turn) each added once. seen stops a
// cycle of aggregated roles.
func (a *RBAC) aggregatedRules(role map[string]any, seen map[string]bool) []Rule {
	name := nameOf(role)
	if seen == nil {
		seen = map[string]bool{}
	}
	seen[name] = true
	all := a.Source.ClusterRoles()
	sort.Slice(all, func(i, j int) bool { return nameOf(all[i]) < nameOf(all[j]) })
	var out []Rule
	for _, s := range list(child(role, "aggregationRule"), "clusterRoleSelectors") {
		sel, _ := s.(map[string]any)
		for _, other := range all {
			otherName := nameOf(other)
			labels, _ := child(other, "metadata")["labels"].(map[string]any)
			if otherName == name || !validation.SelectorMatches(sel, labels) {
				continue
			}
			rules := rulesOf(other)
			if _, aggregated := other["aggregationRule"]; aggregated {
				if seen[otherName] {
					continue
				}
				rules = a.aggregatedRules(other, seen)
			}
			for _, r := range rules {
				if !containsRule(out, r) {
					out = append(out, r)
				}
			}
		}
	}
	delete(seen, name)
	return out
}

// appliesTo mirrors appliesTo of the rule resolver: the index of the first subject of the
// binding that is the user.
func appliesTo(u *User, binding map[string]any, namespace string) (int, bool) {
	for i, s := range list(binding, "subjects") {
		subject, _ := s.(map[string]any)
		switch str(subject, "kind") {
		case "User":
			if u.Name == str(subject, "name") {
				return i, true
			}
		case "Group":
			if u.InGroup(str(subject, "name")) {
				return i, true
			}
		case "ServiceAccount":
			ns := namespace
			if sns := str(subject, "namespace"); sns != "" {
				ns = sns
			}
			if ns != "" && matchesServiceAccount(ns, str(subject, "name"), u.Name) {
				return i, true
			}
		}
	}
	return 0, false
}

// describeRoleRef is `ClusterRole "view"`.
func describeRoleRef(binding map[string]any) string {
	ref := child(binding, "roleRef")
	return fmt.Sprintf("%s %q", str(ref, "kind"), str(ref, "name"))
}

// describeSubject mirrors describeSubject: `User "bob"`, `ServiceAccount "name/ns"`.
func describeSubject(binding map[string]any, i int, namespace string) string {
	subject, _ := list(binding, "subjects")[i].(map[string]any)
	kind, name := str(subject, "kind"), str(subject, "name")
	if kind == "ServiceAccount" {
		ns := namespace
		if sns := str(subject, "namespace"); sns != "" {
			ns = sns
		}
		return fmt.Sprintf("%s %q", kind, name+"/"+ns)
	}
	return fmt.Sprintf("%s %q", kind, name)
}

// rulesOf reads the rules of a role.
func rulesOf(role map[string]any) []Rule {
	var out []Rule
	for _, r := range list(role, "rules") {
		m, _ := r.(map[string]any)
		out = append(out, Rule{
			Verbs: strs(m, "verbs"), APIGroups: strs(m, "apiGroups"), Resources: strs(m, "resources"),
			ResourceNames: strs(m, "resourceNames"), NonResourceURLs: strs(m, "nonResourceURLs"),
		})
	}
	return out
}

func containsRule(rules []Rule, r Rule) bool {
	for _, x := range rules {
		if equalStrings(x.Verbs, r.Verbs) && equalStrings(x.APIGroups, r.APIGroups) && equalStrings(x.Resources, r.Resources) &&
			equalStrings(x.ResourceNames, r.ResourceNames) && equalStrings(x.NonResourceURLs, r.NonResourceURLs) {
			return true
		}
	}
	return false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// aggregate mirrors utilerrors.NewAggregate's text: one message alone, several in brackets,
// each message once.
func aggregate(errs []error) string {
	var msgs []string
	seen := map[string]bool{}
	for _, e := range errs {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

func nameOf(obj map[string]any) string { return str(child(obj, "metadata"), "name") }

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

func strs(m map[string]any, key string) []string {
	var out []string
	for _, v := range list(m, key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
