// Package core holds the strategies of the core/v1 kinds the simulated apiserver serves, one
// file per kind, on the model of kubernetes pkg/registry/core/<kind>/strategy.go, and the
// Service cluster-IP allocator of pkg/registry/core/service/ipallocator:
//
//  1. Each kind's constructor (ConfigMaps, Pods, …) returns its rest.Kind: names, field
//     labels and strategy. Only what differs from rest.Base is written out.
//  2. A Pod starts Pending; a PVC and a Service start with their reset status; Nodes,
//     Namespaces, Pods, PVCs and Services have the status subresource. So do
//     PersistentVolumes (Pending since their create, each phase change stamped),
//     ReplicationControllers (with scale and a generation) and ResourceQuotas (an empty
//     status); PodTemplates have a generation; a LimitRange names itself when nameless and
//     may be created by a PUT.
//  3. ComponentStatuses and Bindings have no storage: get and list, create only; the
//     endpoints layer answers them (the component probes, the pod binding).
//  4. A Namespace starts Active with the "kubernetes" spec finalizer; its main resource
//     never changes its spec finalizers (only the finalize subresource does) and its phase
//     follows its deletionTimestamp.
//  4. A Service gets its IP family fields, cluster IP and node ports (ServiceAllocators)
//     on create and on an update that changes its type or ports, before validation, as the
//     service REST storage does; an update keeps what the body leaves out, and a delete or
//     a change of type frees what is no longer used. A write that fails gives back what it
//     reserved.
//  5. ClusterIPAllocator hands out the IPs of one range (DefaultServiceCIDR unless told
//     otherwise) with the first held for the "kubernetes" Service; NodePortAllocator the
//     ports of DefaultNodePortRange, at random from its upper part first. A dry run
//     reserves nothing. Failures are the real Status: 422 for a malformed, out-of-range or
//     taken address or port or an unserved family, 500 when a range is full.
package core

import "github.com/informer-lab/informer-lab/api"

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func gvk(kind string) api.GroupVersionKind { return api.GroupVersionKind{Version: "v1", Kind: kind} }
