package networking

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// IPAddresses is the ipaddresses resource (pkg/registry/networking/ipaddress). Its strategy
// prepares nothing: the name is the address, and the allocator that owns it writes it whole.
func IPAddresses() rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "ipaddresses", Kind: "IPAddress", ShortNames: []string{"ip"},
		Strategy: rest.Base{GVK: gvk("IPAddress"), Cluster: true, Unconditional: true}}
}
