// Package resource holds the strategies of the resource.k8s.io/v1 kinds (dynamic resource
// allocation), one file per kind, on the model of kubernetes
// pkg/registry/resource/<kind>/strategy.go:
//
//  1. ResourceClaims have the status subresource: a create resets the status ({}), an
//     update of the main resource keeps the stored one.
//  2. DeviceClasses and ResourceSlices start at generation 1, which moves on a change of
//     the spec; the claims and templates keep none.
//  3. Every kind accepts unconditional updates and answers a DELETE with the deleted object.
//  4. Fields of the feature gates that are off in v1.36 are dropped unless the stored
//     object already uses them: on a ResourceSlice, the devices' nodeAllocatableResourceMappings
//     (DRANodeAllocatableResources) and list-typed attributes (DRAListTypeAttributes). Every
//     gate the claims, templates and classes check is on.
//  5. ResourceSlices are selected by spec.nodeName and spec.driver as well, and a driver
//     name with upper-case letters is warned about.
package resource

import "github.com/informer-lab/informer-lab/api"

func gvk(kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: "resource.k8s.io", Version: "v1", Kind: kind}
}
