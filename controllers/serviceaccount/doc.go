// Package serviceaccount is the simulated cluster's ServiceAccounts controller: it makes sure
// the `default` ServiceAccount exists in every active namespace, creating it again when it is
// deleted, and leaves terminating namespaces alone. It mirrors
// k8s.io/kubernetes pkg/controller/serviceaccount (serviceaccounts_controller.go), keyed by
// namespace name as upstream is.
//
// With it running, a server started with StrictServiceAccounts (pods refused until their
// namespace's default account exists) behaves as a real cluster does.
package serviceaccount
