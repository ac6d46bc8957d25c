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
	roleBindingPrinter        = bindingPrinter("roleBinding")
	clusterRoleBindingPrinter = bindingPrinter("clusterRoleBinding")
)

func bindingPrinter(what string) *Printer {
	return &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Role", "string", "The role the binding grants, as Kind/name."),
			ageColumn(),
			wide("Users", "string", "Users in the "+what),
			wide("Groups", "string", "Groups in the "+what),
			wide("ServiceAccounts", "string", "ServiceAccounts in the "+what),
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
