package resource

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// DeviceClasses is the deviceclasses resource (pkg/registry/resource/deviceclass). Its only
// gated field, spec.extendedResourceName, belongs to DRAExtendedResource, on in v1.36.
func DeviceClasses() rest.Kind {
	return rest.Kind{Group: "resource.k8s.io", Resource: "deviceclasses", Kind: "DeviceClass", ReturnDeletedObject: true,
		Strategy: rest.Base{GVK: gvk("DeviceClass"), Cluster: true, Generation: true, Unconditional: true}}
}
