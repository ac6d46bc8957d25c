package printers

import "testing"

// TestCh01_Printers_RoleBindings checks printRoleBinding and printClusterRoleBinding: the
// roleRef as Kind/name, then users, groups and service accounts (namespace/name), each
// joined with ", ", in the wide columns.
func TestCh01_Printers_RoleBindings(t *testing.T) {
	for _, p := range []*Printer{roleBindingPrinter, clusterRoleBindingPrinter} {
		assertColumns(t, p, "Name|string|name|0", "Role|string||0", "Age|string||0",
			"Users|string||1", "Groups|string||1", "ServiceAccounts|string||1")
		runCellCases(t, p, []cellCase{
			{
				name: "every kind of subject",
				json: withMeta("readers", `,"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},
					"subjects":[{"kind":"User","name":"alice"},{"kind":"Group","name":"devs"},{"kind":"User","name":"bob"},
					{"kind":"ServiceAccount","name":"ci","namespace":"tools"},{"kind":"ServiceAccount","name":"local"},{"kind":"Robot","name":"r"}]`),
				want: []any{"readers", "ClusterRole/view", "5m", "alice, bob", "devs", "tools/ci, /local"},
			},
			{
				name: "no subjects",
				json: withMeta("empty", `,"roleRef":{"kind":"Role","name":"pod-reader"}`),
				want: []any{"empty", "Role/pod-reader", "5m", "", "", ""},
			},
		})
	}
	assertColumns(t, builtinPrinters[groupKind{"rbac.authorization.k8s.io", "ClusterRole"}], "Name|string|name|0", "Created At|date||0")
}
