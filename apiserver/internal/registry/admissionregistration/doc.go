// Package admissionregistration holds the strategies of the admissionregistration.k8s.io/v1
// kinds, on the model of kubernetes pkg/registry/admissionregistration/<kind>/strategy.go
// and pkg/apis/admissionregistration/validation. The objects are stored and served only:
// nothing here calls a webhook or runs a policy.
//
//  1. Every kind is cluster-scoped, in the category api-extensions, starts at generation 1
//     and moves it when its webhooks or spec change; a PUT must carry a resourceVersion.
//  2. Only ValidatingAdmissionPolicies have a status, reset on create and written only
//     through the status subresource.
//  3. A name ending in .static.k8s.io draws the real warning on create and update.
//  4. Validation is the real one but for the CEL expressions, which are not compiled, and
//     the label selectors, which are not checked: webhooks (names, rules, policies, side
//     effects, timeouts, client config, admission review versions), policies (failure and
//     reinvocation policy, param kind, match constraints, validations or mutations) and
//     bindings (policy name, param ref, match resources, validation actions).
package admissionregistration

import (
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Group is the API group of the package's kinds.
const Group = "admissionregistration.k8s.io"

// staticSuffix mirrors StaticConfigSuffix: names reserved for manifest-based configuration.
const staticSuffix = ".static.k8s.io"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: "v1", Kind: kind}
}

// strategy is what every kind of the group shares: cluster-scoped, with generation, no
// unconditional updates, and the static-suffix warnings.
type strategy struct {
	rest.Base
	validate func(obj map[string]any) []api.StatusCause
}

func newStrategy(kind string, status bool, validate func(map[string]any) []api.StatusCause) strategy {
	s := strategy{Base: rest.Base{GVK: gvk(kind), Cluster: true, Generation: true, Status: status}, validate: validate}
	if status {
		s.ResetStatus = rest.EmptyStatus
	}
	return s
}

// kind is a rest.Kind of the group. Its stores have no GetAttrs of their own, so their
// field labels are DefaultClusterScopedAttr's: metadata.namespace (always empty) too.
func kind(resource, k string, s strategy) rest.Kind {
	return rest.Kind{Group: Group, Resource: resource, Kind: k, Categories: []string{"api-extensions"}, Strategy: s,
		Fields: map[string]rest.FieldRead{"metadata.namespace": rest.TextField("metadata.namespace")}}
}

// Validate implements rest.Strategy.
func (s strategy) Validate(obj *api.Unstructured) []api.StatusCause { return s.validate(obj.Object) }

// WarningsOnCreate implements rest.Strategy (WarningsForStaticSuffix, while the
// ManifestBasedAdmissionControlConfig gate is off, as by default).
func (strategy) WarningsOnCreate(obj *api.Unstructured) []string {
	return staticWarnings(obj.GetName())
}

// WarningsOnUpdate implements rest.Strategy.
func (strategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string {
	return staticWarnings(obj.GetName())
}

// staticWarnings mirrors WarningsForStaticSuffix.
func staticWarnings(name string) []string {
	if !strings.HasSuffix(name, staticSuffix) {
		return nil
	}
	return []string{fmt.Sprintf("metadata.name: names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticSuffix)}
}

// Tree readers. A member of the wrong JSON type reads as absent: the real server would have
// refused it at decode time.

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

func objects(m map[string]any, key string) []map[string]any {
	var out []map[string]any
	for _, e := range list(m, key) {
		o, _ := e.(map[string]any)
		out = append(out, o)
	}
	return out
}

func stringList(m map[string]any, key string) []string {
	var out []string
	for _, e := range list(m, key) {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// set reports whether a pointer member is set (present and not null).
func set(m map[string]any, key string) bool { return m[key] != nil }

func at(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// duplicate mirrors field.Duplicate.
func duplicate(path, value string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: fmt.Sprintf("Duplicate value: %q", value)}
}
