package admissionregistration

import (
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The sets the real validation checks against, sorted as its messages list them.
var (
	failurePolicies      = []string{"Fail", "Ignore"}
	matchPolicies        = []string{"Equivalent", "Exact"}
	reinvocationPolicies = []string{"IfNeeded", "Never"}
	operations           = []string{"*", "CONNECT", "CREATE", "DELETE", "UPDATE"}
	mutatingOperations   = []string{"*", "CONNECT", "CREATE", "UPDATE"}
	scopes               = []string{"*", "Cluster", "Namespaced"}
)

// enumCause is NotSupported when a set pointer member m[key] is not one of valid.
func enumCause(m map[string]any, key, path string, valid []string) []api.StatusCause {
	if !set(m, key) {
		return nil
	}
	if v := str(m, key); !slices.Contains(valid, v) {
		return []api.StatusCause{validation.NotSupported(path, m[key], valid)}
	}
	return nil
}

// ruleWithOperationsCauses mirrors validateRuleWithOperations.
func ruleWithOperationsCauses(rule map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	ops := stringList(rule, "operations")
	if len(ops) == 0 {
		causes = append(causes, validation.Required(path+".operations", ""))
	}
	if len(ops) > 1 && slices.Contains(ops, "*") {
		causes = append(causes, validation.Invalid(path+".operations", ops, "if '*' is present, must not specify other operations"))
	}
	for i, op := range ops {
		if !slices.Contains(operations, op) {
			causes = append(causes, validation.NotSupported(at(path+".operations", i), op, operations))
		}
	}
	return append(causes, ruleCauses(rule, path)...)
}

// ruleCauses mirrors validateRule with subresources allowed.
func ruleCauses(rule map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	groups, versions := stringList(rule, "apiGroups"), stringList(rule, "apiVersions")
	if len(groups) == 0 {
		causes = append(causes, validation.Required(path+".apiGroups", ""))
	}
	if len(groups) > 1 && slices.Contains(groups, "*") {
		causes = append(causes, validation.Invalid(path+".apiGroups", groups, "if '*' is present, must not specify other API groups"))
	}
	if len(versions) == 0 {
		causes = append(causes, validation.Required(path+".apiVersions", ""))
	}
	if len(versions) > 1 && slices.Contains(versions, "*") {
		causes = append(causes, validation.Invalid(path+".apiVersions", versions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range versions {
		if v == "" {
			causes = append(causes, validation.Required(at(path+".apiVersions", i), ""))
		}
	}
	causes = append(causes, resourcesCauses(stringList(rule, "resources"), path+".resources")...)
	return append(causes, enumCause(rule, "scope", path+".scope", scopes)...)
}

// resourcesCauses mirrors validateResources: resources and subresources, with their
// wildcards used consistently.
func resourcesCauses(resources []string, path string) []api.StatusCause {
	var causes []api.StatusCause
	if len(resources) == 0 {
		causes = append(causes, validation.Required(path, ""))
	}
	wildSub, wildRes := map[string]bool{}, map[string]bool{} // x/* and */x
	doubleWild, singleWild, plain := false, false, false
	for i, rs := range resources {
		if rs == "" {
			causes = append(causes, validation.Required(at(path, i), ""))
			continue
		}
		doubleWild = doubleWild || rs == "*/*"
		singleWild = singleWild || rs == "*"
		res, sub, hasSub := strings.Cut(rs, "/")
		if !hasSub {
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			causes = append(causes, validation.Invalid(at(path, i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if wildRes[sub] {
			causes = append(causes, validation.Invalid(at(path, i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && doubleWild {
		causes = append(causes, validation.Invalid(path, resources, "if '*/*' is present, must not specify other resources"))
	}
	if singleWild && plain {
		causes = append(causes, validation.Invalid(path, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return causes
}

// matchResourcesCauses mirrors validateMatchResources.
func matchResourcesCauses(mc map[string]any, path string) []api.StatusCause {
	if mc == nil {
		return nil
	}
	var causes []api.StatusCause
	if !set(mc, "matchPolicy") {
		causes = append(causes, validation.Required(path+".matchPolicy", ""))
	}
	causes = append(causes, enumCause(mc, "matchPolicy", path+".matchPolicy", matchPolicies)...)
	for _, sel := range []string{"namespaceSelector", "objectSelector"} {
		if !set(mc, sel) {
			causes = append(causes, validation.Required(path+"."+sel, ""))
		} else {
			causes = append(causes, validation.LabelSelectorCauses(child(mc, sel), path+"."+sel)...)
		}
	}
	for _, rules := range []string{"resourceRules", "excludeResourceRules"} {
		for i, r := range objects(mc, rules) {
			rp := at(path+"."+rules, i)
			seen := map[string]bool{}
			for j, n := range stringList(r, "resourceNames") {
				for _, e := range pathSegmentCauses(n) {
					causes = append(causes, validation.Invalid(at(rp+".resourceNames", j), n, e))
				}
				if seen[n] {
					causes = append(causes, duplicate(at(rp+".resourceNames", j), n))
				}
				seen[n] = true
			}
			causes = append(causes, ruleWithOperationsCauses(r, rp)...)
		}
	}
	return causes
}
