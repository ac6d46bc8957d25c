package admission

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"

	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// matchResources mirrors matching.Matcher.Matches for a policy's matchConstraints or a
// binding's matchResources: namespace and object selectors, excluded rules, then the
// resource rules (all resources when there are none). A nil mr matches everything.
func matchResources(a *Attributes, mr map[string]any) bool {
	if mr == nil {
		return true
	}
	if !matchNamespaceSelector(a, child(mr, "namespaceSelector")) || !matchObjectSelector(a, child(mr, "objectSelector")) {
		return false
	}
	if matchRules(a, items(mr, "excludeResourceRules")) {
		return false
	}
	rules := items(mr, "resourceRules")
	return len(rules) == 0 || matchRules(a, rules)
}

// matchRules mirrors matchesResourceRules. matchPolicy Equivalent also matches the
// request's equivalent resources (the same resource at other versions, or in a group it
// moved from); most resources this server serves have none but themselves, so it matches
// as Exact does (autoscaling's two HorizontalPodAutoscaler versions and multi-version
// custom resources are the exceptions, left out: it would need the object converted).
func matchRules(a *Attributes, rules []map[string]any) bool {
	for _, r := range rules {
		if !ruleMatches(r, a, a.Version, false) {
			continue
		}
		names := strs(r, "resourceNames")
		if len(names) == 0 || slices.Contains(names, a.Name) {
			return true
		}
	}
	return false
}

// matchNamespaceSelector mirrors namespace.Matcher.MatchNamespaceSelector: cluster-scoped
// objects other than namespaces always match; a namespace matches by its own labels.
func matchNamespaceSelector(a *Attributes, sel map[string]any) bool {
	if emptySelector(sel) {
		return true
	}
	var labels map[string]any
	switch {
	case a.Resource.Group == "" && a.Resource.Resource == "namespaces" && a.Object != nil:
		labels = child(child(a.Object.Object, "metadata"), "labels")
	case a.Namespace == "":
		return true
	default:
		if a.Namespaces == nil {
			return false
		}
		ns := a.Namespaces(a.Namespace)
		if ns == nil {
			return false
		}
		labels = child(child(ns.Object, "metadata"), "labels")
	}
	return validation.SelectorMatches(sel, orEmpty(labels))
}

// matchObjectSelector mirrors object.Matcher.MatchObjectSelector: the new or the old
// object's labels must match.
func matchObjectSelector(a *Attributes, sel map[string]any) bool {
	if emptySelector(sel) {
		return true
	}
	for _, o := range []*api.Unstructured{a.Object, a.OldObject} {
		if o != nil && validation.SelectorMatches(sel, orEmpty(child(child(o.Object, "metadata"), "labels"))) {
			return true
		}
	}
	return false
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// strs returns m[key] as a list of strings.
func strs(m map[string]any, key string) []string {
	l, _ := m[key].([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
