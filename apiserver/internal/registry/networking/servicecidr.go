package networking

import (
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// ServiceCIDRs is the servicecidrs resource (pkg/registry/networking/servicecidr), with
// ServiceCIDRStatusFieldWiping on as in v1.36: a create clears the status and only the
// status subresource writes it. A fresh server holds the ServiceCIDR "kubernetes" of its
// service range cidr (--service-cluster-ip-range).
func ServiceCIDRs(cidr string) rest.Kind {
	return rest.Kind{Group: "networking.k8s.io", Resource: "servicecidrs", Kind: "ServiceCIDR",
		Bootstrap: func() []map[string]any { return []map[string]any{DefaultServiceCIDR(cidr, time.Now())} },
		Strategy:  rest.Base{GVK: gvk("ServiceCIDR"), Cluster: true, Status: true, Unconditional: true, ResetStatus: rest.EmptyStatus}}
}

// DefaultServiceCIDRName is the name of the ServiceCIDR the apiserver keeps for its own
// range (DefaultServiceCIDRName in k8s.io/api networking/v1).
const DefaultServiceCIDRName = "kubernetes"

// DefaultServiceCIDR returns the ServiceCIDR "kubernetes" as the apiserver's
// default-servicecidr controller leaves it (pkg/controlplane/controller/defaultservicecidr):
// created with the range, then given the Ready condition through the status subresource at
// now. Creating it through the strategy would clear that status: the status is the
// controller's second write.
func DefaultServiceCIDR(cidr string, now time.Time) map[string]any {
	return map[string]any{
		"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR",
		"metadata": map[string]any{"name": DefaultServiceCIDRName},
		"spec":     map[string]any{"cidrs": []any{cidr}},
		"status": map[string]any{"conditions": []any{map[string]any{
			"type": "Ready", "status": "True", "reason": "",
			"message":            "Kubernetes default Service CIDR is ready",
			"lastTransitionTime": now.UTC().Truncate(time.Second).Format(time.RFC3339),
		}}},
	}
}
