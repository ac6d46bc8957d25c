package core

import (
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

var serviceKind = api.GroupKind{Kind: "Service"}

// AllocateService gives a defaulted Service (a map of its JSON) its cluster IP, as the
// create half of the service REST storage does (allocClusterIPs in
// pkg/registry/core/service/storage/alloc.go), and writes it to clusterIP and clusterIPs.
// An ExternalName or headless ("None") service gets none. Call it on create only, after
// Default; with dryRun nothing is reserved. A failure is the real *api.Status: 422 for a
// family this range does not serve, a dual-stack demand, or a requested address that is
// malformed, outside the range or taken; 500 when the range is full.
func (a *ClusterIPAllocator) AllocateService(svc map[string]any, dryRun bool) error {
	spec := child(svc, "spec")
	if spec == nil || str(spec, "type") == "ExternalName" {
		return nil
	}
	name := str(child(svc, "metadata"), "name")
	requested := str(spec, "clusterIP")
	ips, _ := spec["clusterIPs"].([]any)
	if len(ips) > 0 {
		requested, _ = ips[0].(string)
	}
	if requested == "None" {
		return nil
	}
	if causes := a.familyCauses(spec); len(causes) > 0 {
		return api.NewInvalid(serviceKind, name, causes)
	}
	if requested != "" && validation.IPFamilyOf(requested) == "" {
		return api.NewInvalid(serviceKind, name, []api.StatusCause{validation.Invalid("spec.clusterIPs[0]",
			requested, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")})
	}
	ip, err := a.Allocate(requested, dryRun)
	switch {
	case err == nil:
	case requested == "" && errors.Is(err, ErrFull):
		return api.NewInternalError(fmt.Errorf("failed to allocate a serviceIP for Service %q: %w", name, err))
	case requested == "":
		return api.NewInvalid(serviceKind, name, []api.StatusCause{validation.Invalid("spec.clusterIPs",
			clusterIPsValue(spec), "failed to allocate IP: "+err.Error())})
	default:
		return api.NewInvalid(serviceKind, name, []api.StatusCause{validation.Invalid("spec.clusterIPs",
			clusterIPsValue(spec), fmt.Sprintf("failed to allocate IP %s: %v", requested, err))})
	}
	spec["clusterIP"] = ip
	if len(ips) > 1 {
		ips[0] = ip
	} else {
		spec["clusterIPs"] = []any{ip}
	}
	return nil
}

// familyCauses mirrors the checks of initIPFamilyFields that need to know the cluster:
// every named family must be served and a single-stack cluster refuses RequireDualStack.
func (a *ClusterIPAllocator) familyCauses(spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	if str(spec, "ipFamilyPolicy") == "RequireDualStack" {
		causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", "RequireDualStack",
			"this cluster is not configured for dual-stack services"))
	}
	fams, _ := spec["ipFamilies"].([]any)
	for i, f := range fams {
		if s, _ := f.(string); s != a.family {
			causes = append(causes, validation.Invalid(fmt.Sprintf("spec.ipFamilies[%d]", i), f, "not configured on this cluster"))
		}
	}
	return causes
}

// clusterIPsValue is the clusterIPs list as the error prints it, the requested clusterIP
// standing in for it when it was not given.
func clusterIPsValue(spec map[string]any) []string {
	var out []string
	if ips, ok := spec["clusterIPs"].([]any); ok {
		for _, v := range ips {
			s, _ := v.(string)
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		if ip := str(spec, "clusterIP"); ip != "" {
			out = []string{ip}
		}
	}
	return out
}

// ReleaseService mirrors releaseClusterIPs in the service REST storage: it frees the
// cluster IPs a deleted Service held.
func (a *ClusterIPAllocator) ReleaseService(svc map[string]any) {
	spec := child(svc, "spec")
	ips, _ := spec["clusterIPs"].([]any)
	if len(ips) == 0 {
		if ip := str(spec, "clusterIP"); ip != "" {
			ips = []any{ip}
		}
	}
	for _, v := range ips {
		if s, ok := v.(string); ok && s != "None" {
			a.Release(s)
		}
	}
}
