package defaulting

// The defaults of admissionregistration.k8s.io/v1 (pkg/apis/admissionregistration/v1:
// SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule,
// SetDefaults_ServiceReference, SetDefaults_*AdmissionPolicySpec, SetDefaults_MatchResources,
// called as the generated SetObjectDefaults_* call them).

// defaultWebhookConfiguration mirrors SetObjectDefaults_ValidatingWebhookConfiguration and,
// mutating, SetObjectDefaults_MutatingWebhookConfiguration.
func defaultWebhookConfiguration(obj map[string]any, mutating bool) {
	each(obj, "webhooks", func(hook map[string]any) {
		setPtr(hook, "failurePolicy", "Fail")
		setPtr(hook, "matchPolicy", "Equivalent")
		setPtr(hook, "namespaceSelector", map[string]any{})
		setPtr(hook, "objectSelector", map[string]any{})
		setPtr(hook, "timeoutSeconds", int64(10))
		if mutating {
			setPtr(hook, "reinvocationPolicy", "Never")
		}
		if svc := path(hook, "clientConfig", "service"); svc != nil {
			setPtr(svc, "port", int64(443))
		}
		each(hook, "rules", defaultRule)
	})
}

func defaultValidatingWebhookConfiguration(obj map[string]any) {
	defaultWebhookConfiguration(obj, false)
}

func defaultMutatingWebhookConfiguration(obj map[string]any) { defaultWebhookConfiguration(obj, true) }

// defaultRule mirrors SetDefaults_Rule.
func defaultRule(rule map[string]any) { setPtr(rule, "scope", "*") }

// defaultMatchResources mirrors SetDefaults_MatchResources and the rules' SetDefaults_Rule.
// A missing member is not made up: the defaults apply to one that is set.
func defaultMatchResources(mr map[string]any) {
	if mr == nil {
		return
	}
	setPtr(mr, "matchPolicy", "Equivalent")
	setPtr(mr, "namespaceSelector", map[string]any{})
	setPtr(mr, "objectSelector", map[string]any{})
	each(mr, "resourceRules", defaultRule)
	each(mr, "excludeResourceRules", defaultRule)
}

// defaultAdmissionPolicy mirrors SetObjectDefaults_ValidatingAdmissionPolicy and
// SetObjectDefaults_MutatingAdmissionPolicy: the spec is a struct, so its failure policy is
// defaulted even when the body has no spec.
func defaultAdmissionPolicy(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "failurePolicy", "Fail")
	defaultMatchResources(child(spec, "matchConstraints"))
}

// defaultPolicyBinding mirrors SetObjectDefaults_ValidatingAdmissionPolicyBinding and its
// mutating twin.
func defaultPolicyBinding(obj map[string]any) {
	defaultMatchResources(path(obj, "spec", "matchResources"))
}
