package flowcontrol

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// flowSchemaStrategy mirrors flowSchemaStrategy and flowSchemaStatusStrategy of
// pkg/registry/flowcontrol/flowschema/strategy.go.
type flowSchemaStrategy struct{ rest.Base }

// FlowSchemas is the flowschemas resource, with its status subresource.
func FlowSchemas() rest.Kind {
	return rest.Kind{Group: Group, Resource: "flowschemas", Kind: "FlowSchema", Fields: clusterScopedFields(), Bootstrap: BootstrapFlowSchemas,
		Strategy: flowSchemaStrategy{rest.Base{GVK: gvk("FlowSchema"), Cluster: true, Status: true, Generation: true,
			Unconditional: true, ResetStatus: rest.EmptyStatus}}}
}

// Validate implements rest.Strategy (ValidateFlowSchema).
func (flowSchemaStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec := child(obj.Object, "spec")
	causes := flowSchemaSpecCauses(obj.GetName(), spec)
	if want, mandatory := mandatoryFlowSchemaSpec(obj.GetName()); mandatory && !reflect.DeepEqual(spec, want) {
		causes = append(causes, validation.InvalidRaw("spec", internalText(spec, &internalFlowSchemaSpec{}), fmt.Sprintf("spec of '%s' must equal the fixed value", obj.GetName())))
	}
	return append(causes, conditionCauses(obj.Object)...)
}

// maxMatchingPrecedence mirrors FlowSchemaMaxMatchingPrecedence.
const maxMatchingPrecedence = 10000

var (
	distinguisherMethods = []string{"ByNamespace", "ByUser"}
	policyVerbs          = []string{"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"}
	subjectKinds         = []string{"Group", "ServiceAccount", "User"}
)

// flowSchemaSpecCauses mirrors ValidateFlowSchemaSpec.
func flowSchemaSpecCauses(name string, spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	mp, _ := integer(spec, "matchingPrecedence")
	if mp <= 0 {
		causes = append(causes, validation.Invalid("spec.matchingPrecedence", mp, "must be a positive value"))
	}
	if mp > maxMatchingPrecedence {
		causes = append(causes, validation.Invalid("spec.matchingPrecedence", mp, fmt.Sprintf("must not be greater than %v", maxMatchingPrecedence)))
	}
	if mp == 1 && name != "exempt" {
		causes = append(causes, validation.Invalid("spec.matchingPrecedence", mp, "only the schema named 'exempt' may have matchingPrecedence 1"))
	}
	if dm := child(spec, "distinguisherMethod"); dm != nil && !slices.Contains(distinguisherMethods, str(dm, "type")) {
		causes = append(causes, notSupportedRaw("spec.distinguisherMethod.type", internalText(dm, &internalDistinguisher{}), distinguisherMethods))
	}
	if pl := str(child(spec, "priorityLevelConfiguration"), "name"); pl != "" {
		for _, e := range validation.IsDNS1123Subdomain(pl) {
			causes = append(causes, validation.Invalid("spec.priorityLevelConfiguration.name", pl, e))
		}
	} else {
		causes = append(causes, validation.Required("spec.priorityLevelConfiguration.name", "must reference a priority level"))
	}
	for i, rule := range objects(spec, "rules") {
		causes = append(causes, rulesWithSubjectsCauses(rule, at("spec.rules", i))...)
	}
	return causes
}

// rulesWithSubjectsCauses mirrors ValidateFlowSchemaPolicyRulesWithSubjects.
func rulesWithSubjectsCauses(rule map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	subjects := objects(rule, "subjects")
	if len(subjects) == 0 {
		causes = append(causes, validation.Required(path+".subjects", "subjects must contain at least one value"))
	}
	for i, s := range subjects {
		causes = append(causes, subjectCauses(s, at(path+".subjects", i))...)
	}
	resourceRules, nonResourceRules := objects(rule, "resourceRules"), objects(rule, "nonResourceRules")
	if len(resourceRules) == 0 && len(nonResourceRules) == 0 {
		causes = append(causes, validation.Required(path, "at least one of resourceRules and nonResourceRules has to be non-empty"))
	}
	for i, r := range resourceRules {
		causes = append(causes, resourceRuleCauses(r, at(path+".resourceRules", i))...)
	}
	for i, r := range nonResourceRules {
		causes = append(causes, nonResourceRuleCauses(r, at(path+".nonResourceRules", i))...)
	}
	return causes
}

// subjectCauses mirrors ValidateFlowSchemaSubject: the member its kind names, and no other.
func subjectCauses(s map[string]any, path string) []api.StatusCause {
	members := map[string]string{"ServiceAccount": "serviceAccount", "User": "user", "Group": "group"}
	kind := str(s, "kind")
	own, known := members[kind]
	if !known {
		return []api.StatusCause{validation.NotSupported(path+".kind", kind, subjectKinds)}
	}
	var causes []api.StatusCause
	m := child(s, own)
	switch {
	case m == nil:
		causes = append(causes, validation.Required(path+"."+own, fmt.Sprintf("%s is required when subject kind is '%s'", own, kind)))
	case kind == "ServiceAccount":
		if n := str(m, "name"); n == "" {
			causes = append(causes, validation.Required(path+".serviceAccount.name", ""))
		} else if n != "*" {
			for _, e := range validation.IsDNS1123Subdomain(n) {
				causes = append(causes, validation.Invalid(path+".serviceAccount.name", n, e))
			}
		}
		if ns := str(m, "namespace"); ns != "" {
			for _, e := range validation.IsDNS1123Label(ns) {
				causes = append(causes, validation.Invalid(path+".serviceAccount.namespace", ns, e))
			}
		} else {
			causes = append(causes, validation.Required(path+".serviceAccount.namespace", "must specify namespace for service account"))
		}
	case str(m, "name") == "":
		causes = append(causes, validation.Required(path+"."+own+".name", ""))
	}
	// The other members, in the order the real checks name them.
	others := map[string][]string{"ServiceAccount": {"User", "Group"}, "User": {"ServiceAccount", "Group"}, "Group": {"ServiceAccount", "User"}}
	for _, other := range others[kind] {
		if s[members[other]] != nil {
			causes = append(causes, validation.Forbidden(path+"."+members[other], fmt.Sprintf("%s is forbidden when subject kind is not '%s'", members[other], other)))
		}
	}
	return causes
}

// verbsCauses is the verbs check both rule kinds share.
func verbsCauses(verbs []string, path string) []api.StatusCause {
	switch {
	case len(verbs) == 0:
		return []api.StatusCause{validation.Required(path, "verbs must contain at least one value")}
	case slices.Contains(verbs, "*"):
		if len(verbs) > 1 {
			return []api.StatusCause{validation.Invalid(path, verbs, "if '*' is present, must not specify other verbs")}
		}
	default:
		for _, v := range verbs {
			if !slices.Contains(policyVerbs, v) {
				return []api.StatusCause{validation.NotSupported(path, verbs, policyVerbs)}
			}
		}
	}
	return nil
}

// resourceRuleCauses mirrors ValidateFlowSchemaResourcePolicyRule.
func resourceRuleCauses(r map[string]any, path string) []api.StatusCause {
	causes := verbsCauses(stringList(r, "verbs"), path+".verbs")
	groups, resources, namespaces := stringList(r, "apiGroups"), stringList(r, "resources"), stringList(r, "namespaces")
	if len(groups) == 0 {
		causes = append(causes, validation.Required(path+".apiGroups", "resource rules must supply at least one api group"))
	} else if len(groups) > 1 && slices.Contains(groups, "*") {
		causes = append(causes, validation.Invalid(path+".apiGroups", groups, "if '*' is present, must not specify other api groups"))
	}
	if len(resources) == 0 {
		causes = append(causes, validation.Required(path+".resources", "resource rules must supply at least one resource"))
	} else if len(resources) > 1 && slices.Contains(resources, "*") {
		causes = append(causes, validation.Invalid(path+".resources", resources, "if '*' is present, must not specify other resources"))
	}
	clusterScope, _ := r["clusterScope"].(bool)
	switch {
	case len(namespaces) == 0 && !clusterScope:
		causes = append(causes, validation.Required(path+".namespaces", "resource rules that are not cluster scoped must supply at least one namespace"))
	case slices.Contains(namespaces, "*"):
		if len(namespaces) > 1 {
			causes = append(causes, validation.Invalid(path+".namespaces", namespaces, "if '*' is present, must not specify other namespaces"))
		}
	default:
		for i, ns := range namespaces {
			for _, e := range validation.IsDNS1123Label(ns) {
				causes = append(causes, validation.Invalid(at(path+".namespaces", i), ns, "each member of this list must be '*' or a DNS-1123 label; "+e))
			}
		}
	}
	return causes
}

// nonResourceRuleCauses mirrors ValidateFlowSchemaNonResourcePolicyRule.
func nonResourceRuleCauses(r map[string]any, path string) []api.StatusCause {
	causes := verbsCauses(stringList(r, "verbs"), path+".verbs")
	urls := stringList(r, "nonResourceURLs")
	switch {
	case len(urls) == 0:
		causes = append(causes, validation.Required(path+".nonResourceURLs", "nonResourceURLs must contain at least one value"))
	case slices.Contains(urls, "*"):
		if len(urls) > 1 {
			causes = append(causes, validation.Invalid(path+".nonResourceURLs", urls, "if '*' is present, must not specify other non-resource URLs"))
		}
	default:
		for i, u := range urls {
			if msg := nonResourceURLProblem(u); msg != "" {
				causes = append(causes, validation.Invalid(at(path+".nonResourceURLs", i), u, msg))
			}
		}
	}
	return causes
}

// nonResourceURLProblem mirrors ValidateNonResourceURLPath.
func nonResourceURLProblem(p string) string {
	switch {
	case p == "":
		return "must not be empty"
	case p == "/":
		return ""
	case !strings.HasPrefix(p, "/"):
		return "must start with slash"
	case strings.Contains(p, " "):
		return "must not contain white-space"
	case strings.Contains(p, "//"):
		return "must not contain double slash"
	}
	if n := strings.Count(p, "*"); n > 1 || n == 1 && !strings.HasSuffix(p, "/*") {
		return "wildcard can only do suffix matching"
	}
	return ""
}

// notSupportedRaw is field.NotSupported with a value already printed.
func notSupportedRaw(path, value string, valid []string) api.StatusCause {
	c := validation.NotSupported(path, "", valid)
	c.Message = strings.Replace(c.Message, `""`, value, 1)
	return c
}
