package core

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The IP family fields of a Service, as the service REST storage fills them before it
// allocates (normalizeClusterIPs and initIPFamilyFields in pkg/registry/core/service/
// storage), for a cluster with one service range: a family this range does not serve is
// refused, and PreferDualStack gets the one family there is.

// strs reads a list of strings (a JSON array); anything else is nil.
func strs(m map[string]any, key string) []string {
	list, _ := m[key].([]any)
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, v := range list {
		out[i], _ = v.(string)
	}
	return out
}

// setStrs writes a list of strings, removing the member when the list is nil.
func setStrs(m map[string]any, key string, values []string) {
	if values == nil {
		delete(m, key)
		return
	}
	list := make([]any, len(values))
	for i, v := range values {
		list[i] = v
	}
	m[key] = list
}

// normalizeClusterIPs mirrors normalizeClusterIPs: clusterIPs follows clusterIP where the
// client (an old one) wrote only the singular field. old is nil on create.
func normalizeClusterIPs(spec, old map[string]any) {
	ip, ips := str(spec, "clusterIP"), strs(spec, "clusterIPs")
	if old == nil {
		if ip != "" && len(ips) == 0 {
			setStrs(spec, "clusterIPs", []string{ip})
		}
		return
	}
	oldIP, oldIPs := str(old, "clusterIP"), strs(old, "clusterIPs")
	if len(oldIPs) > 0 && len(ips) == 0 && oldIP == ip {
		setStrs(spec, "clusterIPs", oldIPs)
		ips = oldIPs
	}
	if oldIP != ip && slices.Equal(oldIPs, ips) {
		if oldIP != "" && ip == "" {
			delete(spec, "clusterIPs")
		} else {
			setStrs(spec, "clusterIPs", []string{ip})
		}
	}
}

// otherFamily is the family a dual-stack service would add.
func otherFamily(f string) string {
	if f == "IPv6" {
		return "IPv4"
	}
	return "IPv6"
}

// familyOf mirrors the REST storage's familyOf.
func familyOf(ip string) string {
	if f := validation.IPFamilyOf(ip); f != "" {
		return f
	}
	return "unknown"
}

// initIPFamilyFields mirrors initIPFamilyFields for a single-stack cluster serving family:
// ipFamilyPolicy (the old one on update, RequireDualStack for a headless service without
// selector, else SingleStack), then ipFamilies from clusterIPs and the cluster, refusing
// what the cluster cannot serve. old is nil on create.
func initIPFamilyFields(svc, old map[string]any, family string) error {
	spec := child(svc, "spec")
	if spec == nil || str(spec, "type") == "ExternalName" {
		return nil
	}
	name := str(child(svc, "metadata"), "name")
	var oldSpec map[string]any
	if old != nil {
		oldSpec = child(old, "spec")
		if matchingPreferDualStack(spec, oldSpec) {
			return nil
		}
	}
	headlessNoSelector := str(spec, "clusterIP") == "None" && len(child(spec, "selector")) == 0
	if spec["ipFamilyPolicy"] == nil {
		switch {
		case oldSpec != nil && oldSpec["ipFamilyPolicy"] != nil:
			spec["ipFamilyPolicy"] = oldSpec["ipFamilyPolicy"]
		case headlessNoSelector:
			spec["ipFamilyPolicy"] = "RequireDualStack"
		default:
			spec["ipFamilyPolicy"] = "SingleStack"
		}
	}
	if causes := clusterIPsRelatedCauses(spec, oldSpec); len(causes) > 0 {
		return api.NewInvalid(serviceKind, name, causes)
	}
	policy := str(spec, "ipFamilyPolicy")
	ips, families := strs(spec, "clusterIPs"), strs(spec, "ipFamilies")
	var causes []api.StatusCause
	if oldSpec != nil {
		oldIPs, oldFamilies := strs(oldSpec, "clusterIPs"), strs(oldSpec, "ipFamilies")
		if policy == "SingleStack" {
			// Keeping clusterIPs and ipFamilies while asking for a single stack drops the
			// secondary ones.
			if slices.Equal(oldIPs, ips) && len(ips) > 1 {
				ips = ips[:1]
				setStrs(spec, "clusterIPs", ips)
			}
			if slices.Equal(oldFamilies, families) && len(families) > 1 {
				families = families[:1]
				setStrs(spec, "ipFamilies", families)
			}
		} else {
			if len(ips) > 0 && len(ips) < len(oldIPs) {
				causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", policy, "must be 'SingleStack' to release the secondary cluster IP"))
			}
			if len(families) > 0 && len(families) < len(oldFamilies) {
				causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", policy, "must be 'SingleStack' to release the secondary IP family"))
			}
		}
	}
	if policy == "SingleStack" {
		if len(ips) == 2 {
			causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(families) == 2 {
			causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	// A family the client did not name follows from the cluster IP in its place.
	for i, ip := range ips {
		if ip == "None" {
			break
		}
		if i < len(families) {
			continue
		}
		if fam := familyOf(ip); fam != family {
			causes = append(causes, validation.Invalid(fmt.Sprintf("spec.clusterIPs[%d]", i), ips, fam+" is not configured on this cluster"))
		} else {
			families = append(families, fam)
		}
	}
	if len(causes) > 0 {
		return api.NewInvalid(serviceKind, name, causes)
	}
	if headlessNoSelector {
		// Allowed any families: its endpoints may be of either.
		if len(families) == 0 {
			families = []string{family}
		}
		if len(families) < 2 && policy != "SingleStack" {
			families = append(families, otherFamily(families[0]))
		}
		setStrs(spec, "ipFamilies", families)
		return nil
	}
	if policy == "RequireDualStack" {
		causes = append(causes, validation.Invalid("spec.ipFamilyPolicy", policy, "this cluster is not configured for dual-stack services"))
	}
	for i, f := range families {
		if f != family {
			causes = append(causes, validation.Invalid(fmt.Sprintf("spec.ipFamilies[%d]", i), f, "not configured on this cluster"))
		}
	}
	if len(causes) > 0 {
		return api.NewInvalid(serviceKind, name, causes)
	}
	if len(families) == 0 {
		families = []string{family}
	}
	setStrs(spec, "ipFamilies", families)
	return nil
}

// matchingPreferDualStack mirrors isMatchingPreferDualStackClusterIPFields: an update of a
// PreferDualStack service that keeps its type, cluster IPs and families changes none of
// them (no automatic upgrade or downgrade).
func matchingPreferDualStack(spec, old map[string]any) bool {
	if spec["ipFamilyPolicy"] == nil || str(old, "type") != str(spec, "type") {
		return false
	}
	switch str(spec, "type") {
	case "ClusterIP", "NodePort", "LoadBalancer":
	default:
		return false
	}
	if str(spec, "ipFamilyPolicy") != "PreferDualStack" || (old["ipFamilyPolicy"] != nil && str(old, "ipFamilyPolicy") != "PreferDualStack") {
		return false
	}
	return slices.Equal(strs(old, "clusterIPs"), strs(spec, "clusterIPs")) && slices.Equal(strs(old, "ipFamilies"), strs(spec, "ipFamilies"))
}

// clusterIPsRelatedCauses mirrors ValidateServiceClusterIPsRelatedFields, which the REST
// storage runs before the strategy's validation (so these come first).
func clusterIPsRelatedCauses(spec, old map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	ip, ips := str(spec, "clusterIP"), strs(spec, "clusterIPs")
	switch {
	case ip != "" && len(ips) == 0:
		causes = append(causes, validation.Required("spec.clusterIPs", ""))
	case ip != "" && ips[0] != ip:
		causes = append(causes, validation.Invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"))
	case ip == "" && len(ips) != 0:
		causes = append(causes, validation.Invalid("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[string]bool{}
	for i, f := range strs(spec, "ipFamilies") {
		path := fmt.Sprintf("spec.ipFamilies[%d]", i)
		if f != "IPv4" && f != "IPv6" {
			causes = append(causes, validation.NotSupported(path, f, []string{"IPv4", "IPv6"}))
		}
		if seen[f] {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: fmt.Sprintf("Duplicate value: %q", f)})
		}
		seen[f] = true
	}
	if p, ok := spec["ipFamilyPolicy"].(string); ok && p != "SingleStack" && p != "PreferDualStack" && p != "RequireDualStack" {
		causes = append(causes, validation.NotSupported("spec.ipFamilyPolicy", p, []string{"PreferDualStack", "RequireDualStack", "SingleStack"}))
	}
	oldIPs := strs(old, "clusterIPs")
	invalid := false
	for i, v := range ips {
		if i == 0 && v == "None" {
			if len(ips) > 1 {
				invalid = true
				causes = append(causes, validation.Invalid("spec.clusterIPs", ips, "'None' must be the first and only value"))
			}
			continue
		}
		if slices.Contains(oldIPs, v) {
			continue
		}
		if c := legacyIPCauses(fmt.Sprintf("spec.clusterIPs[%d]", i), v); len(c) > 0 {
			invalid = true
			causes = append(causes, c...)
		}
	}
	if len(ips) > 2 {
		causes = append(causes, validation.Invalid("spec.clusterIPs", ips, "may only hold up to 2 values"))
	}
	if invalid {
		return causes
	}
	if len(ips) > 1 && !dualStack(ips) {
		causes = append(causes, validation.Invalid("spec.clusterIPs", ips, "may specify no more than one IP for each IP family"))
	}
	families := strs(spec, "ipFamilies")
	if !(len(ips) == 1 && ips[0] == "None") {
		for i, v := range ips {
			if i >= len(families) {
				break
			}
			is6 := familyOf(v) == "IPv6"
			switch {
			case families[i] == "IPv4" && is6:
				causes = append(causes, validation.Invalid(fmt.Sprintf("spec.clusterIPs[%d]", i), v, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%d]`", i)))
			case families[i] == "IPv6" && !is6:
				causes = append(causes, validation.Invalid(fmt.Sprintf("spec.clusterIPs[%d]", i), v, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%d]`", i)))
			}
		}
	}
	return causes
}

// dualStack mirrors IsDualStackIPStrings: both families among ips.
func dualStack(ips []string) bool {
	v4, v6 := false, false
	for _, ip := range ips {
		switch familyOf(ip) {
		case "IPv4":
			v4 = true
		case "IPv6":
			v6 = true
		}
	}
	return v4 && v6
}

// legacyIPCauses mirrors IsValidIPForLegacyField with strict validation (StrictIPCIDRValidation,
// beta and on in v1.36): an address, without leading zeros, not IPv4-mapped.
func legacyIPCauses(path, v string) []api.StatusCause {
	if msg := validation.StrictIPError(v); msg != "" {
		return []api.StatusCause{validation.Invalid(path, v, msg)}
	}
	return nil
}
