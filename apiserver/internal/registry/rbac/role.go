package rbac

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// strategy is what the four kinds share (pkg/registry/rbac/*/strategy.go): a PUT may create,
// names are path segments, and no field is reset.
type strategy struct {
	rest.Base
	validate       func(obj map[string]any) []api.StatusCause
	validateUpdate func(obj, old map[string]any) []api.StatusCause
}

func newStrategy(kind string, cluster bool) strategy {
	return strategy{Base: rest.Base{GVK: api.GroupVersionKind{Group: groupName, Version: "v1", Kind: kind}, Cluster: cluster, Unconditional: true}}
}

// AllowCreateOnUpdate implements rest.Strategy: true for every RBAC kind.
func (strategy) AllowCreateOnUpdate() bool { return true }

// ValidateName implements rest.NameValidator: ValidateRBACName, a path segment name.
func (strategy) ValidateName(name string) []string { return validation.IsPathSegmentName(name) }

// Validate implements rest.Strategy: the kind's rules. The real validation reads the
// defaulted Go struct, so an absent field is its zero value ("roleRef.kind: Unsupported
// value: \"\""), never a Required cause from the schema.
func (s strategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return s.validate(obj.Object)
}

// ValidateUpdate implements rest.Strategy.
func (s strategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	if s.validateUpdate == nil {
		return nil
	}
	return s.validateUpdate(obj.Object, old.Object)
}

// Roles is the roles resource (pkg/registry/rbac/role).
func Roles() rest.Kind {
	s := newStrategy("Role", false)
	s.validate = func(obj map[string]any) []api.StatusCause { return rulesCauses(obj, true) }
	return rest.Kind{Group: groupName, Resource: "roles", Kind: "Role", Strategy: s,
		Bootstrap: func() []map[string]any { return bootstrapObjects(rolesFile) }}
}

// ClusterRoles is the clusterroles resource (pkg/registry/rbac/clusterrole).
func ClusterRoles() rest.Kind {
	s := newStrategy("ClusterRole", true)
	s.validate = func(obj map[string]any) []api.StatusCause {
		return append(rulesCauses(obj, false), aggregationCauses(obj)...)
	}
	return rest.Kind{Group: groupName, Resource: "clusterroles", Kind: "ClusterRole", Strategy: s,
		Bootstrap: func() []map[string]any { return bootstrapObjects(clusterRolesFile) }}
}

// RoleBindings is the rolebindings resource (pkg/registry/rbac/rolebinding).
func RoleBindings() rest.Kind {
	s := newStrategy("RoleBinding", false)
	s.validate = func(obj map[string]any) []api.StatusCause { return bindingCauses(obj, true) }
	s.validateUpdate = roleRefCauses
	return rest.Kind{Group: groupName, Resource: "rolebindings", Kind: "RoleBinding", Strategy: s,
		Bootstrap: func() []map[string]any { return bootstrapObjects(roleBindingsFile) }}
}

// ClusterRoleBindings is the clusterrolebindings resource (pkg/registry/rbac/clusterrolebinding).
func ClusterRoleBindings() rest.Kind {
	s := newStrategy("ClusterRoleBinding", true)
	s.validate = func(obj map[string]any) []api.StatusCause { return bindingCauses(obj, false) }
	s.validateUpdate = roleRefCauses
	return rest.Kind{Group: groupName, Resource: "clusterrolebindings", Kind: "ClusterRoleBinding", Strategy: s,
		Bootstrap: func() []map[string]any { return bootstrapObjects(clusterRoleBindingsFile) }}
}
