package admissionregistration

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidatingWebhookConfigurations is the validatingwebhookconfigurations resource
// (pkg/registry/admissionregistration/validatingwebhookconfiguration).
func ValidatingWebhookConfigurations() rest.Kind {
	return kind("validatingwebhookconfigurations", "ValidatingWebhookConfiguration",
		newStrategy("ValidatingWebhookConfiguration", false, func(o map[string]any) []api.StatusCause { return webhooksCauses(o, false) }))
}

// MutatingWebhookConfigurations is the mutatingwebhookconfigurations resource
// (pkg/registry/admissionregistration/mutatingwebhookconfiguration).
func MutatingWebhookConfigurations() rest.Kind {
	return kind("mutatingwebhookconfigurations", "MutatingWebhookConfiguration",
		newStrategy("MutatingWebhookConfiguration", false, func(o map[string]any) []api.StatusCause { return webhooksCauses(o, true) }))
}

// sideEffectClasses are those a v1 webhook may declare (noSideEffectClasses).
var sideEffectClasses = []string{"None", "NoneOnDryRun"}

// acceptedReviewVersions mirrors AcceptedAdmissionReviewVersions.
var acceptedReviewVersions = []string{"v1", "v1beta1"}

// webhooksCauses mirrors validateValidatingWebhookConfiguration and its mutating twin with
// the options of a create.
func webhooksCauses(obj map[string]any, mutating bool) []api.StatusCause {
	var causes []api.StatusCause
	names := map[string]bool{}
	for i, hook := range objects(obj, "webhooks") {
		path := at("webhooks", i)
		causes = append(causes, webhookCauses(hook, path, mutating)...)
		causes = append(causes, reviewVersionsCauses(stringList(hook, "admissionReviewVersions"), path+".admissionReviewVersions")...)
		if name := str(hook, "name"); name != "" {
			if names[name] {
				causes = append(causes, duplicate(path+".name", name))
			}
			names[name] = true
		}
	}
	return causes
}

// webhookCauses mirrors validateValidatingWebhook and validateMutatingWebhook.
func webhookCauses(hook map[string]any, path string, mutating bool) []api.StatusCause {
	causes := fullyQualifiedNameCauses(str(hook, "name"), path+".name")
	for i, r := range objects(hook, "rules") {
		causes = append(causes, ruleWithOperationsCauses(r, at(path+".rules", i))...)
	}
	causes = append(causes, enumCause(hook, "failurePolicy", path+".failurePolicy", failurePolicies)...)
	causes = append(causes, enumCause(hook, "matchPolicy", path+".matchPolicy", matchPolicies)...)
	if !set(hook, "sideEffects") {
		causes = append(causes, validation.Required(path+".sideEffects", "must specify one of "+strings.Join(sideEffectClasses, ", ")))
	}
	causes = append(causes, enumCause(hook, "sideEffects", path+".sideEffects", sideEffectClasses)...)
	if t, ok := hook["timeoutSeconds"].(int64); ok && (t > 30 || t < 1) {
		causes = append(causes, validation.Invalid(path+".timeoutSeconds", t, "the timeout value must be between 1 and 30 seconds"))
	}
	if mutating {
		causes = append(causes, enumCause(hook, "reinvocationPolicy", path+".reinvocationPolicy", reinvocationPolicies)...)
	}
	if sel, ok := hook["namespaceSelector"].(map[string]any); ok {
		causes = append(causes, validation.LabelSelectorCauses(sel, path+".namespaceSelector")...)
	}
	if sel, ok := hook["objectSelector"].(map[string]any); ok {
		causes = append(causes, validation.LabelSelectorCauses(sel, path+".objectSelector")...)
	}
	cc := child(hook, "clientConfig")
	switch hasURL, hasService := set(cc, "url"), set(cc, "service"); {
	case hasURL == hasService:
		causes = append(causes, validation.Required(path+".clientConfig", "exactly one of url or service is required"))
	case hasURL:
		causes = append(causes, webhookURLCauses(str(cc, "url"), path+".clientConfig.url")...)
	default:
		causes = append(causes, webhookServiceCauses(child(cc, "service"), path+".clientConfig.service")...)
	}
	return append(causes, webhookMatchConditionCauses(hook, path+".matchConditions")...)
}

// webhookMatchConditionCauses mirrors validateMatchConditions for a webhook: each
// condition's expression (required, then compiled in the environment of a validating
// policy without params, where a webhook's object and request are), and name (required, a
// qualified name), then duplicate names.
func webhookMatchConditionCauses(hook map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	names := map[string]bool{}
	for i, mc := range objects(hook, "matchConditions") {
		p := at(path, i)
		if src := strings.TrimSpace(str(mc, "expression")); src == "" {
			causes = append(causes, validation.Required(p+".expression", ""))
		} else {
			causes = append(causes, compileCause(admission.RoleCondition, src, p+".expression", false, false)...)
		}
		name := str(mc, "name")
		if name == "" {
			causes = append(causes, validation.Required(p+".name", ""))
		} else {
			for _, m := range validation.IsQualifiedName(name) {
				causes = append(causes, validation.Invalid(p+".name", name, m))
			}
		}
		if name != "" {
			if names[name] {
				causes = append(causes, duplicate(p+".name", name))
			}
			names[name] = true
		}
	}
	return causes
}

// fullyQualifiedNameCauses mirrors validation.IsFullyQualifiedName: a DNS subdomain of at
// least three segments.
func fullyQualifiedNameCauses(name, path string) []api.StatusCause {
	if name == "" {
		return []api.StatusCause{validation.Required(path, "")}
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return []api.StatusCause{validation.Invalid(path, name, strings.Join(errs, ","))}
	}
	if len(strings.Split(name, ".")) < 3 {
		return []api.StatusCause{validation.Invalid(path, name, "should be a domain with at least three segments separated by dots")}
	}
	return nil
}

// reviewVersionsCauses mirrors validateAdmissionReviewVersions, a recognised version
// required.
func reviewVersionsCauses(versions []string, path string) []api.StatusCause {
	if len(versions) == 0 {
		return []api.StatusCause{validation.Required(path, fmt.Sprintf("must specify one of %v", strings.Join(acceptedReviewVersions, ", ")))}
	}
	var causes []api.StatusCause
	seen, accepted := map[string]bool{}, false
	for i, v := range versions {
		if seen[v] {
			causes = append(causes, validation.Invalid(at(path, i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, e := range validation.IsDNS1035Label(v) {
			causes = append(causes, validation.Invalid(at(path, i), v, e))
		}
		accepted = accepted || slices.Contains(acceptedReviewVersions, v)
	}
	if !accepted {
		causes = append(causes, validation.Invalid(path, versions, fmt.Sprintf("must include at least one of %v", strings.Join(acceptedReviewVersions, ", "))))
	}
	return causes
}

// webhookURLCauses mirrors webhook.ValidateWebhookURL with https required.
func webhookURLCauses(raw, path string) []api.StatusCause {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return []api.StatusCause{validation.Required(path, "url must be a valid URL: "+err.Error()+form)}
	}
	var causes []api.StatusCause
	if u.Scheme != "https" {
		causes = append(causes, validation.Invalid(path, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		causes = append(causes, validation.Invalid(path, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		causes = append(causes, validation.Invalid(path, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		causes = append(causes, validation.Invalid(path, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		causes = append(causes, validation.Invalid(path, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return causes
}

// webhookServiceCauses mirrors webhook.ValidateWebhookService (the port is defaulted to 443
// before it runs).
func webhookServiceCauses(svc map[string]any, path string) []api.StatusCause {
	// The real call passes the service's name and namespace in the order opposite to the
	// parameters, so a missing name is reported as the namespace and the other way round.
	var causes []api.StatusCause
	if str(svc, "namespace") == "" {
		causes = append(causes, validation.Required(path+".name", ""))
	}
	if str(svc, "name") == "" {
		causes = append(causes, validation.Required(path+".namespace", ""))
	}
	if p, ok := svc["port"].(int64); ok && (p < 1 || p > 65535) {
		causes = append(causes, validation.Invalid(path+".port", p, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	p, ok := svc["path"].(string)
	if !ok || p == "/" || p == "" {
		return causes
	}
	if p == "//" {
		return append(causes, validation.Invalid(path+".path", p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		causes = append(causes, validation.Invalid(path+".path", p, "must start with a '/'"))
	}
	check := strings.TrimSuffix(p[1:], "/")
	for i, step := range strings.Split(check, "/") {
		if step == "" {
			causes = append(causes, validation.Invalid(path+".path", p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, e := range validation.IsDNS1123Subdomain(step) {
			causes = append(causes, validation.Invalid(path+".path", p, fmt.Sprintf("segment[%d]: %v", i, e)))
		}
	}
	return causes
}
