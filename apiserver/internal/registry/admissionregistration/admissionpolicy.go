package admissionregistration

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidatingAdmissionPolicies is the validatingadmissionpolicies resource, with its status
// subresource (pkg/registry/admissionregistration/validatingadmissionpolicy).
func ValidatingAdmissionPolicies() rest.Kind {
	return kind("validatingadmissionpolicies", "ValidatingAdmissionPolicy",
		newStrategy("ValidatingAdmissionPolicy", true, validatingPolicyCauses))
}

// MutatingAdmissionPolicies is the mutatingadmissionpolicies resource
// (pkg/registry/admissionregistration/mutatingadmissionpolicy).
func MutatingAdmissionPolicies() rest.Kind {
	k := kind("mutatingadmissionpolicies", "MutatingAdmissionPolicy",
		newStrategy("MutatingAdmissionPolicy", false, mutatingPolicyCauses))
	k.Storage = storedAsBeta("MutatingAdmissionPolicy")
	return k
}

// storedAsBeta is the storage version of the mutating policies, new in v1 in v1.36: the
// server still writes them to etcd as v1beta1, which their storageVersionHash tells.
func storedAsBeta(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: "v1beta1", Kind: kind}
}

// validationReasons are the reasons a validation may give (supportedValidationPolicyReason).
var validationReasons = []string{"Forbidden", "Invalid", "RequestEntityTooLarge"}

// patchTypes are the patch types of a mutation.
var patchTypes = []string{"ApplyConfiguration", "JSONPatch"}

// maxAuditAnnotations mirrors the limit of a policy's audit annotations.
const maxAuditAnnotations = 20

var newlines = regexp.MustCompile(`[\n\r]+`)

// policyCommonCauses is what validateValidatingAdmissionPolicySpec and
// validateMutatingAdmissionPolicySpec share: failure policy, param kind and match
// constraints with at least one resource rule.
func policyCommonCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	if !set(spec, "failurePolicy") {
		causes = append(causes, validation.Required("spec.failurePolicy", ""))
	}
	causes = append(causes, enumCause(spec, "failurePolicy", "spec.failurePolicy", failurePolicies)...)
	if pk := child(spec, "paramKind"); set(spec, "paramKind") {
		causes = append(causes, paramKindCauses(pk, "spec.paramKind")...)
	}
	mc := child(spec, "matchConstraints")
	if !set(spec, "matchConstraints") {
		return append(causes, validation.Required("spec.matchConstraints", ""))
	}
	causes = append(causes, matchResourcesCauses(mc, "spec.matchConstraints")...)
	if len(list(mc, "resourceRules")) == 0 {
		causes = append(causes, validation.Required("spec.matchConstraints.resourceRules", ""))
	}
	return causes
}

// validatingPolicyCauses mirrors validateValidatingAdmissionPolicySpec.
func validatingPolicyCauses(obj map[string]any) []api.StatusCause {
	spec := child(obj, "spec")
	causes := policyCommonCauses(spec)
	causes = append(causes, conditionAndVariableCauses(spec, false)...)
	validations, audits := objects(spec, "validations"), objects(spec, "auditAnnotations")
	if len(validations) == 0 && len(audits) == 0 {
		const detail = "validations or auditAnnotations must contain at least one item"
		return append(causes, validation.Required("spec.validations", detail), validation.Required("spec.auditAnnotations", detail))
	}
	for i, v := range validations {
		path := at("spec.validations", i)
		if strings.TrimSpace(str(v, "expression")) == "" {
			causes = append(causes, validation.Required(path+".expression", "expression is not specified"))
		} else {
			causes = append(causes, compileCause(admission.RoleValidation, str(v, "expression"), path+".expression", false, set(spec, "paramKind"))...)
		}
		if me := str(v, "messageExpression"); me != "" && strings.TrimSpace(me) == "" {
			causes = append(causes, validation.Invalid(path+".messageExpression", me, "must be non-empty if specified"))
		} else if me != "" {
			causes = append(causes, compileCause(admission.RoleMessage, me, path+".messageExpression", false, set(spec, "paramKind"))...)
		}
		switch msg := str(v, "message"); {
		case msg != "" && strings.TrimSpace(msg) == "":
			causes = append(causes, validation.Invalid(path+".message", msg, "must be non-empty if specified"))
		case newlines.MatchString(strings.TrimSpace(msg)):
			causes = append(causes, validation.Invalid(path+".message", msg, "must not contain line breaks"))
		}
		causes = append(causes, enumCause(v, "reason", path+".reason", validationReasons)...)
	}
	if len(audits) > maxAuditAnnotations {
		causes = append(causes, validation.Invalid("spec.auditAnnotations", list(spec, "auditAnnotations"), fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
	}
	keys := map[string]bool{}
	for i, a := range audits {
		path := at("spec.auditAnnotations", i)
		key := str(child(obj, "metadata"), "name") + "/" + str(a, "key")
		for _, m := range validation.IsQualifiedName(key) {
			causes = append(causes, validation.Invalid(path+".key", key, m))
		}
		if strings.TrimSpace(str(a, "valueExpression")) == "" {
			causes = append(causes, validation.Required(path+".valueExpression", "valueExpression is not specified"))
		} else {
			causes = append(causes, compileCause(admission.RoleAudit, str(a, "valueExpression"), path+".valueExpression", false, set(spec, "paramKind"))...)
		}
		if key := str(a, "key"); keys[key] {
			causes = append(causes, duplicate(path+".key", key))
		}
		keys[str(a, "key")] = true
	}
	return causes
}

// mutatingPolicyCauses mirrors validateMutatingAdmissionPolicySpec.
func mutatingPolicyCauses(obj map[string]any) []api.StatusCause {
	spec := child(obj, "spec")
	causes := policyCommonCauses(spec)
	for _, r := range objects(child(spec, "matchConstraints"), "resourceRules") {
		causes = append(causes, mutatingOperationCauses(r, "spec.matchConstraints.resourceRules.operations")...)
	}
	causes = append(causes, conditionAndVariableCauses(spec, true)...)
	mutations := objects(spec, "mutations")
	if len(mutations) == 0 {
		causes = append(causes, validation.Required("spec.mutations", "mutations must contain at least one item"))
	}
	for i, m := range mutations {
		causes = append(causes, mutationCauses(m, at("spec.mutations", i), set(spec, "paramKind"))...)
	}
	switch rp := str(spec, "reinvocationPolicy"); {
	case rp == "":
		causes = append(causes, validation.Required("spec.reinvocationPolicy", ""))
	case !slices.Contains(reinvocationPolicies, rp):
		causes = append(causes, validation.NotSupported("spec.reinvocationPolicy", rp, reinvocationPolicies))
	}
	return causes
}

// mutatingOperationCauses: a mutating policy or binding matches only what can be mutated.
func mutatingOperationCauses(rule map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	for _, op := range stringList(rule, "operations") {
		if !slices.Contains(mutatingOperations, op) {
			causes = append(causes, validation.NotSupported(path, op, mutatingOperations))
		}
	}
	return causes
}

// mutationCauses mirrors validateMutation: a patch type and the one member it names.
func mutationCauses(m map[string]any, path string, hasParams bool) []api.StatusCause {
	expression := func(member string) []api.StatusCause {
		src := str(child(m, member), "expression")
		if strings.TrimSpace(src) == "" {
			return []api.StatusCause{validation.Required(path+"."+member+".expression", "")}
		}
		role := admission.RoleApply
		if member == "jsonPatch" {
			role = admission.RoleJSONPatch
		}
		return compileCause(role, src, path+"."+member+".expression", true, hasParams)
	}
	switch pt := str(m, "patchType"); pt {
	case "":
		return []api.StatusCause{validation.Required(path+".patchType", "")}
	case "JSONPatch":
		if !set(m, "jsonPatch") {
			return []api.StatusCause{validation.Required(path+".jsonPatch", "must be specified when patchType is JSONPatch")}
		}
		causes := expression("jsonPatch")
		if set(m, "applyConfiguration") {
			causes = append(causes, validation.InvalidRaw(path+".applyConfiguration", `"{applyConfiguration}"`, "must not be specified when patchType is JSONPatch"))
		}
		return causes
	case "ApplyConfiguration":
		if !set(m, "applyConfiguration") {
			return []api.StatusCause{validation.Required(path+".applyConfiguration", "must be specified when patchType is ApplyConfiguration")}
		}
		causes := expression("applyConfiguration")
		if set(m, "jsonPatch") {
			causes = append(causes, validation.InvalidRaw(path+".jsonPatch", `"{jsonPatch}"`, "must not be specified when patchType is ApplyConfiguration"))
		}
		return causes
	default:
		return []api.StatusCause{validation.NotSupported(path+".patchType", pt, patchTypes)}
	}
}

// paramKindCauses mirrors validateParamKind.
func paramKindCauses(pk map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	switch av := str(pk, "apiVersion"); {
	case av == "":
		causes = append(causes, validation.Required(path+".apiVersion", ""))
	case strings.Count(av, "/") > 1:
		causes = append(causes, validation.Invalid(path+".apiVersion", av, "unexpected GroupVersion string: "+av))
	default:
		group, version, found := strings.Cut(av, "/")
		if !found {
			group, version = "", av
		}
		if group != "" {
			if errs := validation.IsDNS1123Subdomain(group); len(errs) > 0 {
				causes = append(causes, validation.Invalid(path+".apiVersion", group, strings.Join(errs, ",")))
			}
		}
		if version == "" {
			causes = append(causes, validation.Invalid(path+".apiVersion", av, "version must be specified"))
		} else if errs := validation.IsDNS1035Label(version); len(errs) > 0 {
			causes = append(causes, validation.Invalid(path+".apiVersion", version, strings.Join(errs, ",")))
		}
	}
	switch k := str(pk, "kind"); {
	case k == "":
		causes = append(causes, validation.Required(path+".kind", ""))
	default:
		if errs := validation.IsDNS1035Label(strings.ToLower(k)); len(errs) > 0 {
			causes = append(causes, validation.Invalid(path+".kind", k, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
		}
	}
	return causes
}

// compileCause is the Invalid cause of an expression that does not compile to what its
// role must return, as the real validation compiles each one.
func compileCause(role admission.ExprRole, src, path string, mutating, hasParams bool) []api.StatusCause {
	if detail := admission.CheckExpression(role, src, mutating, hasParams); detail != "" {
		return []api.StatusCause{validation.Invalid(path, src, detail)}
	}
	return nil
}

// conditionAndVariableCauses mirror validateMatchConditions and validateVariable: names,
// expressions and their compile errors.
func conditionAndVariableCauses(spec map[string]any, mutating bool) []api.StatusCause {
	var causes []api.StatusCause
	hasParams := set(spec, "paramKind")
	names := map[string]bool{}
	for i, mc := range objects(spec, "matchConditions") {
		path := at("spec.matchConditions", i)
		if src := strings.TrimSpace(str(mc, "expression")); src == "" {
			causes = append(causes, validation.Required(path+".expression", ""))
		} else {
			causes = append(causes, compileCause(admission.RoleCondition, src, path+".expression", mutating, hasParams)...)
		}
		name := str(mc, "name")
		if name == "" {
			causes = append(causes, validation.Required(path+".name", ""))
		} else {
			for _, m := range validation.IsQualifiedName(name) {
				causes = append(causes, validation.Invalid(path+".name", name, m))
			}
			if names[name] {
				causes = append(causes, duplicate(path+".name", name))
			}
			names[name] = true
		}
	}
	for i, v := range objects(spec, "variables") {
		path := at("spec.variables", i)
		if name := str(v, "name"); strings.TrimSpace(name) == "" {
			causes = append(causes, validation.Required(path+".name", "name is not specified"))
		} else if !celIdentifier.MatchString(name) || slices.Contains(celReserved, name) {
			causes = append(causes, validation.Invalid(path+".name", name, "must be a valid CEL identifier"))
		}
		if src := str(v, "expression"); strings.TrimSpace(src) == "" {
			causes = append(causes, validation.Required(path+".expression", "expression is not specified"))
		} else {
			causes = append(causes, compileCause(admission.RoleVariable, src, path+".expression", mutating, hasParams)...)
		}
	}
	return causes
}

var celIdentifier = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

// celReserved are CEL's reserved words, which no variable may be named.
var celReserved = []string{"true", "false", "null", "in", "as", "break", "const", "continue", "else",
	"for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"}
