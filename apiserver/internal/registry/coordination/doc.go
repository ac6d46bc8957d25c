// Package coordination holds the strategy of coordination.k8s.io/v1 Leases
// (pkg/registry/coordination/lease): the generic one.
//
//  1. Its kind keeps the generic rest.Base answers except where its file says otherwise.
package coordination
