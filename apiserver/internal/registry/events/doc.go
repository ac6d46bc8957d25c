// Package events holds the strategy of events.k8s.io/v1 Events. kube-apiserver serves them
// from the core Event storage (pkg/registry/events/rest), short name included; here the two
// are separate resources.
//
//  1. Its kind keeps the generic rest.Base answers except where its file says otherwise.
package events
