package node

import (
	"fmt"
	"sort"
)

// deprecatedLabels are the node labels pkg/api/node warns about, with the text it gives.
var deprecatedLabels = map[string]string{
	"beta.kubernetes.io/arch":                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	"beta.kubernetes.io/os":                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	"failure-domain.beta.kubernetes.io/region":      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	"failure-domain.beta.kubernetes.io/zone":        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	"beta.kubernetes.io/instance-type":              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	"app.kubernetes.io/created-by":                  `deprecated since v1.9`,
	"scheduler.alpha.kubernetes.io/preferAvoidPods": `deprecated since v1.22; use Taints and Tolerations instead`,
	"node-role.kubernetes.io/master":                `use "node-role.kubernetes.io/control-plane" instead`,
}

// DeprecatedLabelMessage mirrors GetNodeLabelDeprecatedMessage in pkg/api/node: why key is
// deprecated, and whether it is.
func DeprecatedLabelMessage(key string) (string, bool) {
	msg, ok := deprecatedLabels[key]
	return msg, ok
}

// SelectorWarnings mirrors GetWarningsForNodeSelector in pkg/api/node for the LabelSelector
// sel at path: each matchExpressions key, then each matchLabels key, that is deprecated.
func SelectorWarnings(sel map[string]any, path string) []string {
	var warnings []string
	exprs, _ := sel["matchExpressions"].([]any)
	for i, e := range exprs {
		m, _ := e.(map[string]any)
		key, _ := m["key"].(string)
		if msg, ok := DeprecatedLabelMessage(key); ok {
			warnings = append(warnings, fmt.Sprintf("%s.matchExpressions[%d].key: %s is %s", path, i, key, msg))
		}
	}
	labels, _ := sel["matchLabels"].(map[string]any)
	for _, key := range sortedKeys(labels) {
		if msg, ok := DeprecatedLabelMessage(key); ok {
			warnings = append(warnings, fmt.Sprintf("%s.matchLabels.%s: %s", path, key, msg))
		}
	}
	return warnings
}

// sortedKeys returns m's keys in order: upstream walks a Go map, whose order is random, so
// any fixed order is one it may give.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
