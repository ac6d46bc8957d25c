package admission

import (
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// hook is one webhook of a Mutating- or ValidatingWebhookConfiguration, read from its stored
// JSON as webhook.WebhookAccessor reads the typed one. Defaults the real server sets on
// create (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10, reinvocationPolicy
// Never) are applied when a field is absent.
type hook struct {
	config      string // the configuration's name
	uid         string // configuration name + index: what reinvocation tracks
	raw         map[string]any
	name        string
	url         string
	service     map[string]any
	caBundle    string // base64, as stored
	rules       []any
	ignore      bool // failurePolicy Ignore
	exact       bool // matchPolicy Exact
	timeout     int64
	sideEffects string
	ifNeeded    bool
	nsSelector  map[string]any
	objSelector map[string]any
	conditions  []any
}

// hooksOf reads the webhooks of every stored configuration of resource, ordered by
// configuration name as the real plugin's sorted lister orders them.
func hooksOf(a *Attributes, resource string) []*hook {
	cfgs := a.list("admissionregistration.k8s.io", resource, "")
	if len(cfgs) == 0 {
		return nil
	}
	cfgs = slices.Clone(cfgs)
	slices.SortFunc(cfgs, func(x, y *api.Unstructured) int { return strings.Compare(x.GetName(), y.GetName()) })
	var out []*hook
	for _, c := range cfgs {
		whs, _ := c.Object["webhooks"].([]any)
		for i, w := range whs {
			m, _ := w.(map[string]any)
			if m == nil {
				continue
			}
			h := &hook{config: c.GetName(), uid: c.GetName() + "/" + itoa(i), raw: m, timeout: 10}
			h.name, _ = m["name"].(string)
			cc, _ := m["clientConfig"].(map[string]any)
			h.url, _ = cc["url"].(string)
			h.service, _ = cc["service"].(map[string]any)
			h.caBundle, _ = cc["caBundle"].(string)
			h.rules, _ = m["rules"].([]any)
			h.ignore = m["failurePolicy"] == "Ignore"
			h.exact = m["matchPolicy"] == "Exact"
			if t, ok := m["timeoutSeconds"].(int64); ok {
				h.timeout = t
			} else if t, ok := m["timeoutSeconds"].(float64); ok {
				h.timeout = int64(t)
			}
			h.sideEffects, _ = m["sideEffects"].(string)
			h.ifNeeded = m["reinvocationPolicy"] == "IfNeeded"
			h.nsSelector, _ = m["namespaceSelector"].(map[string]any)
			h.objSelector, _ = m["objectSelector"].(map[string]any)
			h.conditions, _ = m["matchConditions"].([]any)
			out = append(out, h)
		}
	}
	return out
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// requestVersion is the version the request is made in: the object's apiVersion.
func requestVersion(a *Attributes) string {
	o := a.Object
	if o == nil {
		o = a.OldObject
	}
	if o == nil {
		return ""
	}
	_, v := api.ParseAPIVersion(o.GetAPIVersion())
	return v
}

// matches is generic.Webhook.ShouldCallHook without the match conditions: the namespace
// and object selectors, then the rules (with any version under matchPolicy Equivalent,
// the resource's other versions being its equivalents here).
func (h *hook) matches(a *Attributes) bool {
	if !h.namespaceMatches(a) || !h.objectMatches(a) {
		return false
	}
	version := requestVersion(a)
	for _, r := range h.rules {
		if m, _ := r.(map[string]any); ruleMatches(m, a, version, false) {
			return true
		}
	}
	if !h.exact {
		for _, r := range h.rules {
			if m, _ := r.(map[string]any); ruleMatches(m, a, version, true) {
				return true
			}
		}
	}
	return false
}

// namespaceMatches is namespace.Matcher.MatchNamespaceSelector: cluster-scoped objects
// other than namespaces always match; a namespace is matched by its own labels.
func (h *hook) namespaceMatches(a *Attributes) bool {
	if emptySelector(h.nsSelector) {
		return true
	}
	var labels map[string]string
	switch {
	case a.Resource == api.GroupResource{Resource: "namespaces"}:
		if o := objOrOld(a); o != nil {
			labels = o.GetLabels()
		}
	case a.Namespace == "":
		return true
	default:
		if a.Namespaces != nil {
			if ns := a.Namespaces(a.Namespace); ns != nil {
				labels = ns.GetLabels()
			}
		}
	}
	return validation.SelectorMatches(h.nsSelector, labelsAny(labels))
}

// objectMatches is object.Matcher.MatchObjectSelector: the new or the old object matches.
func (h *hook) objectMatches(a *Attributes) bool {
	if emptySelector(h.objSelector) {
		return true
	}
	for _, o := range []*api.Unstructured{a.Object, a.OldObject} {
		if o != nil && validation.SelectorMatches(h.objSelector, labelsAny(o.GetLabels())) {
			return true
		}
	}
	return false
}

func objOrOld(a *Attributes) *api.Unstructured {
	if a.Object != nil {
		return a.Object
	}
	return a.OldObject
}

func emptySelector(s map[string]any) bool {
	if s == nil {
		return true
	}
	ml, _ := s["matchLabels"].(map[string]any)
	me, _ := s["matchExpressions"].([]any)
	return len(ml) == 0 && len(me) == 0
}

func labelsAny(l map[string]string) map[string]any {
	m := make(map[string]any, len(l))
	for k, v := range l {
		m[k] = v
	}
	return m
}

// ruleMatches is rules.Matcher.Matches for one RuleWithOperations (of a webhook or an
// admission policy's resource rules); anyVersion matches the resource at any version.
func ruleMatches(r map[string]any, a *Attributes, version string, anyVersion bool) bool {
	if r == nil {
		return false
	}
	has := func(list []string, v string) bool { return slices.Contains(list, "*") || slices.Contains(list, v) }
	if !has(strs(r, "operations"), string(a.Operation)) || !has(strs(r, "apiGroups"), a.Resource.Group) {
		return false
	}
	if !anyVersion && !has(strs(r, "apiVersions"), version) {
		return false
	}
	if !resourceMatches(strs(r, "resources"), a.Resource.Resource, a.Subresource) {
		return false
	}
	isNamespace := a.Resource == api.GroupResource{Resource: "namespaces"}
	switch r["scope"] {
	case "Namespaced":
		return !isNamespace && a.Namespace != ""
	case "Cluster":
		return isNamespace || a.Namespace == ""
	}
	return true
}

// resourceMatches is rules.Matcher.resource: "*" is every resource, "*/*" every resource
// and subresource, "pods/*" every subresource of pods, "*/status" status of any.
func resourceMatches(list []string, res, sub string) bool {
	full := res
	if sub != "" {
		full = res + "/" + sub
	}
	for _, r := range list {
		switch {
		case r == "*/*", r == full:
			return true
		case r == "*" && sub == "":
			return true
		}
		if g, s, ok := strings.Cut(r, "/"); ok && sub != "" {
			if (g == "*" && s == sub) || (g == res && s == "*") {
				return true
			}
		}
	}
	return false
}
