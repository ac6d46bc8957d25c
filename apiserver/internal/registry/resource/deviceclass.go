package resource

import (
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// DeviceClasses is the deviceclasses resource (pkg/registry/resource/deviceclass). Its only
// gated field, spec.extendedResourceName, belongs to DRAExtendedResource, on in v1.36.
func DeviceClasses() rest.Kind {
	return rest.Kind{Group: "resource.k8s.io", Resource: "deviceclasses", Kind: "DeviceClass", ReturnDeletedObject: true,
		Strategy: deviceClassStrategy{rest.Base{GVK: gvk("DeviceClass"), Cluster: true, Generation: true, Unconditional: true}}}
}

// deviceClassStrategy mirrors pkg/registry/resource/deviceclass/strategy.go.
type deviceClassStrategy struct{ rest.Base }

// ValidateName implements rest.NameValidator: a DNS subdomain whose length the declarative
// validation counts in bytes.
func (deviceClassStrategy) ValidateName(name string) []string {
	return validation.DNS1123SubdomainInBytes(name)
}
