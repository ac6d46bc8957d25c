package core

import (
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

var serviceKind = api.GroupKind{Kind: "Service"}

// ServiceAllocators mirrors the Allocators of the service REST storage
// (pkg/registry/core/service/storage/alloc.go) on a single-stack cluster: the cluster IPs
// of one range and the node ports.
type ServiceAllocators struct {
	IPs   *ClusterIPAllocator
	Ports *NodePortAllocator
}

// serviceTxn is one write's allocation (the REST storage's metaTransaction): what it
// reserved goes back unless the write succeeds, and what it frees is freed only if it does.
type serviceTxn struct {
	ips             *ClusterIPAllocator
	dryRun          bool
	allocated, free []string // cluster IPs
	ports           *portOperation
}

func (al ServiceAllocators) begin(dryRun bool) *serviceTxn {
	return &serviceTxn{ips: al.IPs, dryRun: dryRun, ports: &portOperation{a: al.Ports, dryRun: dryRun}}
}

// finish commits (ok) or reverts the transaction.
func (t *serviceTxn) finish(ok bool) {
	t.ports.finish(ok)
	if t.dryRun {
		return
	}
	ips := t.allocated
	if ok {
		ips = t.free
	}
	for _, ip := range ips {
		t.ips.Release(ip)
	}
}

// AllocateCreate mirrors allocateCreate (the REST storage's beginCreate): clusterIPs from
// clusterIP, the IP family fields, the cluster IPs, then the node ports of a NodePort or
// LoadBalancer service and the health check node port of a LoadBalancer with
// externalTrafficPolicy Local. finish(true) once the create is stored, finish(false) if
// it fails later; a dry run reserves nothing.
func (al ServiceAllocators) AllocateCreate(svc map[string]any, dryRun bool) (finish func(ok bool), err error) {
	spec := child(svc, "spec")
	if spec == nil {
		return func(bool) {}, nil
	}
	normalizeClusterIPs(spec, nil)
	if err := initIPFamilyFields(svc, nil, al.IPs.family); err != nil {
		return nil, err
	}
	txn := al.begin(dryRun)
	if txn.allocated, err = al.IPs.allocClusterIPs(svc, dryRun); err != nil {
		return nil, err
	}
	if err := allocNodePorts(svc, txn.ports); err != nil {
		txn.finish(false)
		return nil, err
	}
	return txn.finish, nil
}

// AllocateUpdate mirrors allocateUpdate (the REST storage's beginUpdate, after
// patchAllocatedValues): the IP family fields, a cluster IP for a service leaving
// ExternalName or the release of the old ones for one becoming it, then the node ports
// and the health check node port as the type and ports changed.
func (al ServiceAllocators) AllocateUpdate(svc, old map[string]any, dryRun bool) (finish func(ok bool), err error) {
	spec, oldSpec := child(svc, "spec"), child(old, "spec")
	if spec == nil || oldSpec == nil {
		return func(bool) {}, nil
	}
	normalizeClusterIPs(spec, oldSpec)
	if err := initIPFamilyFields(svc, old, al.IPs.family); err != nil {
		return nil, err
	}
	txn := al.begin(dryRun)
	if !matchingPreferDualStack(spec, oldSpec) {
		oldType, newType := str(oldSpec, "type"), str(spec, "type")
		oldIPs := strs(oldSpec, "clusterIPs")
		switch {
		case oldType == "ExternalName" && newType != "ExternalName":
			if txn.allocated, err = al.IPs.allocClusterIPs(svc, dryRun); err != nil {
				return nil, err
			}
		case len(oldIPs) > 0 && oldIPs[0] == "None":
		case newType == "ExternalName":
			txn.free = oldIPs
		}
	}
	if err := updateNodePorts(svc, old, txn.ports); err != nil {
		txn.finish(false)
		return nil, err
	}
	return txn.finish, nil
}

// Release mirrors releaseAllocatedResources: a deleted service's cluster IPs and node ports
// go back.
func (al ServiceAllocators) Release(svc map[string]any) {
	al.IPs.ReleaseService(svc)
	spec := child(svc, "spec")
	for _, p := range serviceNodePorts(spec) {
		al.Ports.Release(p)
	}
	if needsHealthCheck(spec) {
		if p := intOf(spec["healthCheckNodePort"]); p > 0 {
			al.Ports.Release(p)
		}
	}
}

// AllocateService gives a Service (a map of its JSON, defaulted) the IP family fields and
// its cluster IP, as the cluster-IP half of AllocateCreate, and keeps what it reserved.
// An ExternalName or headless ("None") service gets none. A failure is the real
// *api.Status: 422 for a family this range does not serve, a dual-stack demand, or a
// requested address that is malformed, outside the range or taken; 500 when the range is
// full.
func (a *ClusterIPAllocator) AllocateService(svc map[string]any, dryRun bool) error {
	spec := child(svc, "spec")
	if spec == nil {
		return nil
	}
	normalizeClusterIPs(spec, nil)
	if err := initIPFamilyFields(svc, nil, a.family); err != nil {
		return err
	}
	_, err := a.allocClusterIPs(svc, dryRun)
	return err
}

// allocClusterIPs mirrors allocClusterIPs: one address per family (one family here), the
// requested one or the next free, written to clusterIPs and clusterIP. It returns what it
// reserved.
func (a *ClusterIPAllocator) allocClusterIPs(svc map[string]any, dryRun bool) ([]string, error) {
	spec := child(svc, "spec")
	ips := strs(spec, "clusterIPs")
	if str(spec, "type") == "ExternalName" || len(ips) > 0 && ips[0] == "None" {
		return nil, nil
	}
	name := str(child(svc, "metadata"), "name")
	families := strs(spec, "ipFamilies")
	for len(ips) < len(families) {
		ips = append(ips, "") // a marker: allocate this one
	}
	var allocated []string
	for i := range families {
		requested := ips[i]
		ip, err := a.Allocate(requested, dryRun)
		switch {
		case err == nil:
		case requested == "" && errors.Is(err, ErrFull):
			a.releaseAll(allocated, dryRun)
			return nil, api.NewInternalError(fmt.Errorf("failed to allocate a serviceIP for Service %q: %w", name, err))
		case requested == "":
			a.releaseAll(allocated, dryRun)
			return nil, api.NewInvalid(serviceKind, name, []api.StatusCause{validation.Invalid("spec.clusterIPs", ips, "failed to allocate IP: "+err.Error())})
		default:
			a.releaseAll(allocated, dryRun)
			return nil, api.NewInvalid(serviceKind, name, []api.StatusCause{validation.Invalid("spec.clusterIPs", ips, fmt.Sprintf("failed to allocate IP %s: %v", requested, err))})
		}
		allocated = append(allocated, ip)
		ips[i] = ip
		if i == 0 {
			spec["clusterIP"] = ip
		}
	}
	setStrs(spec, "clusterIPs", ips)
	if dryRun {
		return nil, nil
	}
	return allocated, nil
}

func (a *ClusterIPAllocator) releaseAll(ips []string, dryRun bool) {
	if dryRun {
		return
	}
	for _, ip := range ips {
		a.Release(ip)
	}
}

// ReleaseService mirrors releaseClusterIPs in the service REST storage: it frees the
// cluster IPs a deleted Service held.
func (a *ClusterIPAllocator) ReleaseService(svc map[string]any) {
	spec := child(svc, "spec")
	if str(spec, "type") == "ExternalName" {
		return
	}
	ips := strs(spec, "clusterIPs")
	if len(ips) == 0 {
		if ip := str(spec, "clusterIP"); ip != "" {
			ips = []string{ip}
		}
	}
	for _, ip := range ips {
		if ip != "None" {
			a.Release(ip)
		}
	}
}
