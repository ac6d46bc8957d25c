// Package flowcontrol holds the strategies of the flowcontrol.apiserver.k8s.io/v1 kinds,
// FlowSchemas and PriorityLevelConfigurations, on the model of kubernetes
// pkg/registry/flowcontrol/<kind>/strategy.go and pkg/apis/flowcontrol/validation, and the
// objects API priority and fairness creates at start-up
// (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap). Requests are not queued or limited.
//
//  1. Both kinds are cluster-scoped with a status subresource; a create resets the status
//     and starts at generation 1, a spec change moves the generation.
//  2. Validation is the real one: matching precedence, distinguisher method, priority level
//     reference, subjects and rules of a FlowSchema; type, limited or exempt settings,
//     limit response and queuing (shuffle-sharding entropy included) of a priority level;
//     the mandatory objects' specs fixed; conditions with a type, each type once.
//  3. Bootstrap gives the mandatory and suggested objects, annotated
//     apf.kubernetes.io/autoupdate-spec, each FlowSchema with the Dangling condition the
//     configuration controller writes once its priority level exists.
package flowcontrol

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Group is the API group of the package's kinds.
const Group = "flowcontrol.apiserver.k8s.io"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: "v1", Kind: kind}
}

// clusterScopedFields are the field labels of a store without its own GetAttrs
// (DefaultClusterScopedAttr): metadata.namespace, always empty, beside metadata.name.
func clusterScopedFields() map[string]rest.FieldRead {
	return map[string]rest.FieldRead{"metadata.namespace": rest.TextField("metadata.namespace")}
}

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func objects(m map[string]any, key string) []map[string]any {
	l, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		o, _ := e.(map[string]any)
		out = append(out, o)
	}
	return out
}

func stringList(m map[string]any, key string) []string {
	l, _ := m[key].([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// integer reads an integer member; ok is false when it is absent.
func integer(m map[string]any, key string) (n int64, ok bool) {
	n, ok = m[key].(int64)
	return n, ok
}

func at(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// duplicate mirrors field.Duplicate.
func duplicate(path, value string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: fmt.Sprintf("Duplicate value: %q", value)}
}

// conditionCauses mirrors ValidateFlowSchemaStatus and ValidatePriorityLevelConfigurationStatus.
func conditionCauses(obj map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	seen := map[string]bool{}
	for i, c := range objects(child(obj, "status"), "conditions") {
		path := at("status.conditions", i)
		t := str(c, "type")
		if seen[t] {
			causes = append(causes, duplicate(path+".type", t))
		}
		seen[t] = true
		if t == "" {
			causes = append(causes, validation.Required(path+".type", ""))
		}
	}
	return causes
}
