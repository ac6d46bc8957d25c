// Package discovery holds the strategy of discovery.k8s.io/v1 EndpointSlices
// (pkg/registry/discovery/endpointslice): generation kept, and moved by a change of labels
// as well as of the endpoints.
//
//  1. Its kind keeps the generic rest.Base answers except where its file says otherwise.
package discovery
