package printers

import (
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the rbac.authorization.k8s.io bindings (printRoleBinding and
// printClusterRoleBinding); Role and ClusterRole have none upstream and print Name and
// Created At.
var (
	// The Role column quotes the rbac.authorization.k8s.io/v1beta1 documentation of roleRef,
	// which is v1's without its last sentence ("This field is immutable."); no embedded
	// document holds v1beta1.
	roleBindingPrinter = bindingPrinter("roleBinding",
		"RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.")
	clusterRoleBindingPrinter = bindingPrinter("clusterRoleBinding",
		"RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.")
)

func bindingPrinter(what, roleRef string) *Printer {
	return &Printer{
		specs: []col{
			nameColumn(),
			column("Role", "string", text(roleRef)),
			ageColumn(),
			wide("Users", "string", text("Users in the "+what)),
			wide("Groups", "string", text("Groups in the "+what)),
			wide("ServiceAccounts", "string", text("ServiceAccounts in the "+what)),
		},
		cells: bindingCells,
	}
}

// bindingCells mirrors printRoleBinding with rbac.SubjectsStrings: the roleRef as
// Kind/name, then the users, groups and service accounts (namespace/name), each joined with
// ", ".
func bindingCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	var users, groups, sas []string
	for _, s := range o.objects("subjects") {
		switch s.str("kind") {
		case "ServiceAccount":
			sas = append(sas, s.str("namespace")+"/"+s.str("name"))
		case "User":
			users = append(users, s.str("name"))
		case "Group":
			groups = append(groups, s.str("name"))
		}
	}
	ref := o.obj("roleRef")
	return []any{o.name(), ref.str("kind") + "/" + ref.str("name"), age(o, now),
		strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}, nil
}
