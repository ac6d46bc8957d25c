package admissionregistration

import (
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidatingAdmissionPolicyBindings is the validatingadmissionpolicybindings resource
// (pkg/registry/admissionregistration/validatingadmissionpolicybinding).
func ValidatingAdmissionPolicyBindings() rest.Kind {
	return kind("validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding",
		newStrategy("ValidatingAdmissionPolicyBinding", false, func(o map[string]any) []api.StatusCause { return bindingCauses(o, false) }))
}

// MutatingAdmissionPolicyBindings is the mutatingadmissionpolicybindings resource
// (pkg/registry/admissionregistration/mutatingadmissionpolicybinding).
func MutatingAdmissionPolicyBindings() rest.Kind {
	k := kind("mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBinding",
		newStrategy("MutatingAdmissionPolicyBinding", false, func(o map[string]any) []api.StatusCause { return bindingCauses(o, true) }))
	k.Storage = storedAsBeta("MutatingAdmissionPolicyBinding")
	return k
}

// validationActions are the actions of a validating binding.
var validationActions = []string{"Audit", "Deny", "Warn"}

// bindingCauses mirrors validateValidatingAdmissionPolicyBindingSpec and
// validateMutatingAdmissionPolicyBindingSpec.
func bindingCauses(obj map[string]any, mutating bool) []api.StatusCause {
	spec := child(obj, "spec")
	var causes []api.StatusCause
	if name := str(spec, "policyName"); name == "" {
		causes = append(causes, validation.Required("spec.policyName", ""))
	} else {
		for _, e := range validation.IsDNS1123Subdomain(name) {
			causes = append(causes, validation.Invalid("spec.policyName", name, e))
		}
	}
	if set(spec, "paramRef") {
		causes = append(causes, paramRefCauses(child(spec, "paramRef"), "spec.paramRef")...)
	}
	mr := child(spec, "matchResources")
	causes = append(causes, matchResourcesCauses(mr, "spec.matchResources")...)
	if mutating {
		for _, r := range objects(mr, "resourceRules") {
			causes = append(causes, mutatingOperationCauses(r, "spec.matchResources.resourceRules.operations")...)
		}
		return causes
	}
	return append(causes, validationActionsCauses(stringList(spec, "validationActions"), "spec.validationActions")...)
}

// paramRefCauses mirrors validateParamRef.
func paramRefCauses(pr map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	name, hasSelector := str(pr, "name"), set(pr, "selector")
	if name != "" {
		for _, e := range pathSegmentCauses(name) {
			causes = append(causes, validation.Invalid(path+".name", name, e))
		}
		if hasSelector {
			causes = append(causes, validation.Forbidden(path+".name", "name and selector are mutually exclusive"))
		}
	}
	if hasSelector && name != "" {
		causes = append(causes, validation.Forbidden(path+".selector", "name and selector are mutually exclusive"))
	}
	if name == "" && !hasSelector {
		causes = append(causes, validation.Required(path, "one of name or selector must be specified"))
	}
	switch action := str(pr, "parameterNotFoundAction"); action {
	case "":
		causes = append(causes, validation.Required(path+".parameterNotFoundAction", ""))
	case "Deny", "Allow":
	default:
		causes = append(causes, validation.NotSupported(path+".parameterNotFoundAction", action, []string{"Deny", "Allow"}))
	}
	return causes
}

// pathSegmentCauses mirrors path.IsValidPathSegmentName.
func pathSegmentCauses(name string) []string {
	if name == "." || name == ".." {
		return []string{`may not be '` + name + `'`}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, `may not contain '`+bad+`'`)
		}
	}
	return errs
}

// validationActionsCauses mirrors validateValidationActions.
func validationActionsCauses(actions []string, path string) []api.StatusCause {
	var causes []api.StatusCause
	seen := map[string]bool{}
	for i, a := range actions {
		if !slices.Contains(validationActions, a) {
			causes = append(causes, validation.NotSupported(at(path, i), a, validationActions))
		}
		if seen[a] {
			causes = append(causes, duplicate(at(path, i), a))
		}
		seen[a] = true
	}
	if seen["Deny"] && seen["Warn"] {
		causes = append(causes, validation.Invalid(path, actions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(seen) == 0 {
		causes = append(causes, validation.Required(path, "at least one validation action is required"))
	}
	return causes
}
