package rbac

import (
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// groupName is the API group of the kinds, and of the User and Group subjects and roleRefs.
const groupName = "rbac.authorization.k8s.io"

// policyRuleCauses mirrors ValidatePolicyRule for rules[i] of a Role (namespaced) or a
// ClusterRole.
func policyRuleCauses(rule map[string]any, namespaced bool, path string) []api.StatusCause {
	var causes []api.StatusCause
	if len(list(rule, "verbs")) == 0 {
		causes = append(causes, validation.Required(path+".verbs", "verbs must contain at least one value"))
	}
	if urls := strs(rule, "nonResourceURLs"); len(urls) > 0 {
		if namespaced {
			causes = append(causes, validation.Invalid(path+".nonResourceURLs", urls, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(list(rule, "apiGroups")) > 0 || len(list(rule, "resources")) > 0 || len(list(rule, "resourceNames")) > 0 {
			causes = append(causes, validation.Invalid(path+".nonResourceURLs", urls, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return causes
	}
	if len(list(rule, "apiGroups")) == 0 {
		causes = append(causes, validation.Required(path+".apiGroups", "resource rules must supply at least one api group"))
	}
	if len(list(rule, "resources")) == 0 {
		causes = append(causes, validation.Required(path+".resources", "resource rules must supply at least one resource"))
	}
	return causes
}

// rulesCauses checks every rule of obj.
func rulesCauses(obj map[string]any, namespaced bool) []api.StatusCause {
	var causes []api.StatusCause
	for i, r := range list(obj, "rules") {
		rule, _ := r.(map[string]any)
		causes = append(causes, policyRuleCauses(rule, namespaced, "rules["+strconv.Itoa(i)+"]")...)
	}
	return causes
}

// bindingCauses mirrors ValidateRoleBinding and ValidateClusterRoleBinding beyond the object
// metadata: the roleRef, then each subject.
func bindingCauses(obj map[string]any, namespaced bool) []api.StatusCause {
	var causes []api.StatusCause
	ref := child(obj, "roleRef")
	if g := str(ref, "apiGroup"); g != groupName {
		causes = append(causes, validation.NotSupported("roleRef.apiGroup", g, []string{groupName}))
	}
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	if k := str(ref, "kind"); !contains(kinds, k) {
		causes = append(causes, validation.NotSupported("roleRef.kind", k, kinds))
	}
	if name := str(ref, "name"); name == "" {
		causes = append(causes, validation.Required("roleRef.name", ""))
	} else {
		for _, m := range validation.IsPathSegmentName(name) {
			causes = append(causes, validation.Invalid("roleRef.name", name, m))
		}
	}
	for i, s := range list(obj, "subjects") {
		subject, _ := s.(map[string]any)
		causes = append(causes, subjectCauses(subject, namespaced, "subjects["+strconv.Itoa(i)+"]")...)
	}
	return causes
}

// subjectCauses mirrors ValidateRoleBindingSubject.
func subjectCauses(subject map[string]any, namespaced bool, path string) []api.StatusCause {
	var causes []api.StatusCause
	name, group := str(subject, "name"), str(subject, "apiGroup")
	if name == "" {
		causes = append(causes, validation.Required(path+".name", ""))
	}
	switch k := str(subject, "kind"); k {
	case "ServiceAccount":
		if name != "" {
			for _, m := range validation.IsDNS1123Subdomain(name) {
				causes = append(causes, validation.Invalid(path+".name", name, m))
			}
		}
		if group != "" {
			causes = append(causes, validation.NotSupported(path+".apiGroup", group, []string{""}))
		}
		if !namespaced && str(subject, "namespace") == "" {
			causes = append(causes, validation.Required(path+".namespace", ""))
		}
	case "User", "Group":
		if group != groupName {
			causes = append(causes, validation.NotSupported(path+".apiGroup", group, []string{groupName}))
		}
	default:
		causes = append(causes, validation.NotSupported(path+".kind", k, []string{"ServiceAccount", "User", "Group"}))
	}
	return causes
}

// roleRefOf is a roleRef as the update error prints it: the internal Go struct, whose
// fields have no JSON names.
type roleRefOf struct{ APIGroup, Kind, Name string }

// roleRefCauses mirrors the update rule of both bindings: the roleRef never changes.
func roleRefCauses(obj, old map[string]any) []api.StatusCause {
	ref, oldRef := child(obj, "roleRef"), child(old, "roleRef")
	now := roleRefOf{str(ref, "apiGroup"), str(ref, "kind"), str(ref, "name")}
	if now == (roleRefOf{str(oldRef, "apiGroup"), str(oldRef, "kind"), str(oldRef, "name")}) {
		return nil
	}
	return []api.StatusCause{validation.Invalid("roleRef", now, "cannot change roleRef")}
}

// aggregationCauses mirrors the aggregationRule part of ValidateClusterRole.
func aggregationCauses(obj map[string]any) []api.StatusCause {
	rule, ok := obj["aggregationRule"].(map[string]any)
	if !ok {
		return nil
	}
	selectors := list(rule, "clusterRoleSelectors")
	if len(selectors) == 0 {
		return []api.StatusCause{validation.Required("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil")}
	}
	var causes []api.StatusCause
	for i, s := range selectors {
		sel, _ := s.(map[string]any)
		path := "aggregationRule.clusterRoleSelectors[" + strconv.Itoa(i) + "]"
		bad := validation.LabelSelectorCauses(sel, path)
		if len(bad) > 0 {
			// LabelSelectorAsSelector fails on whatever the validation refused, and the
			// strategy reports that too, with the nil selector it got.
			bad = append(bad, validation.Invalid(path, nil, "invalid label selector."))
		}
		causes = append(causes, bad...)
	}
	return causes
}

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

// strs reads a list of strings, skipping anything else.
func strs(m map[string]any, key string) []string {
	var out []string
	for _, v := range list(m, key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}
