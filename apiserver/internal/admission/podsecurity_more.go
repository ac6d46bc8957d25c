package admission

import (
	"fmt"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// allowedSysctls are the sysctls the baseline level allows (v1.32 and later).
var allowedSysctls = map[string]bool{"kernel.shm_rmid_forced": true, "net.ipv4.ip_local_port_range": true,
	"net.ipv4.tcp_syncookies": true, "net.ipv4.ping_group_range": true, "net.ipv4.ip_unprivileged_port_start": true,
	"net.ipv4.ip_local_reserved_ports": true, "net.ipv4.tcp_keepalive_time": true, "net.ipv4.tcp_fin_timeout": true,
	"net.ipv4.tcp_keepalive_intvl": true, "net.ipv4.tcp_keepalive_probes": true, "net.ipv4.tcp_rmem": true, "net.ipv4.tcp_wmem": true}

func sysctlsCheck(spec map[string]any) (string, string) {
	var bad []string
	for _, s := range items(child(spec, "securityContext"), "sysctls") {
		if n := str(s, "name"); !allowedSysctls[n] {
			bad = append(bad, n)
		}
	}
	if len(bad) == 0 {
		return "", ""
	}
	return "forbidden sysctls", strings.Join(bad, ", ")
}

// procMountCheck is the procMount check; the baseline one lets user-namespaced pods
// (hostUsers=false) through, the restricted one does not.
func procMountCheck(relaxed bool) func(map[string]any) (string, string) {
	return func(spec map[string]any) (string, string) {
		if relaxed && userNamespaced(spec) {
			return "", ""
		}
		var bad []string
		types := map[string]bool{}
		visitContainers(spec, func(c map[string]any) {
			if t, ok := secCtx(c)["procMount"].(string); ok && t != "Default" {
				bad = append(bad, str(c, "name"))
				types[t] = true
			}
		})
		if len(bad) == 0 {
			return "", ""
		}
		return "procMount", fmt.Sprintf("%s %s must not set securityContext.procMount to %s",
			plural("container", "containers", len(bad)), joinQuote(bad), joinQuote(sortedSet(types)))
	}
}

// psaMaxPodsToCheck is the plugin's default namespaceMaxPodsToCheck.
const psaMaxPodsToCheck = 3000

// psaExistingPods mirrors the warnings of ValidateNamespace on an update that tightens the
// enforce level (EvaluatePodsInNamespace): the existing pods that break it, grouped by
// their failed checks.
func psaExistingPods(a *Attributes) []string {
	if a.Operation != Update || a.OldObject == nil || a.Subresource != "" {
		return nil
	}
	enforce, _, _, causes := psaPolicy(a.Object.GetLabels())
	old, _, _, _ := psaPolicy(a.OldObject.GetLabels())
	if len(causes) > 0 || enforce == old || enforce.level == "privileged" ||
		(enforce.version == old.version && psaLevels[enforce.level] <= psaLevels[old.level]) {
		return nil
	}
	pods := a.list("", "pods", a.Name)
	// Pods of a controller already seen go last (prioritizePods).
	var first, dup []*api.Unstructured
	seen := map[string]bool{}
	for _, p := range pods {
		owner := ""
		for _, r := range items(child(p.Object, "metadata"), "ownerReferences") {
			if b, _ := boolPtr(r, "controller"); b {
				owner = str(r, "uid")
			}
		}
		if owner != "" && seen[owner] {
			dup = append(dup, p)
			continue
		}
		seen[owner] = owner != ""
		first = append(first, p)
	}
	pods = append(first, dup...)
	total := len(pods)
	if total > psaMaxPodsToCheck {
		pods = pods[:psaMaxPodsToCheck]
	}
	type group struct {
		name  string
		count int
	}
	groups := map[string]*group{}
	var order []string
	for _, p := range pods {
		_, reasons := psaResults(enforce, child(p.Object, "spec"))
		if reasons == "" {
			continue
		}
		g, ok := groups[reasons]
		if !ok {
			g = &group{name: p.GetName()}
			groups[reasons] = g
			order = append(order, reasons)
		} else if p.GetName() < g.name {
			g.name = p.GetName()
		}
		g.count++
	}
	var out []string
	if len(pods) < total {
		out = append(out, fmt.Sprintf("new PodSecurity enforce level only checked against the first %d of %d existing pods", len(pods), total))
	}
	if len(order) == 0 {
		return out
	}
	out = append(out, fmt.Sprintf("existing pods in namespace %q violate the new PodSecurity enforce level %q", a.Name, enforce.String()))
	var lines []string
	for _, r := range order {
		g := groups[r]
		switch g.count {
		case 1:
			lines = append(lines, fmt.Sprintf("%s: %s", g.name, r))
		case 2:
			lines = append(lines, fmt.Sprintf("%s (and 1 other pod): %s", g.name, r))
		default:
			lines = append(lines, fmt.Sprintf("%s (and %d other pods): %s", g.name, g.count-1, r))
		}
	}
	sort.Strings(lines)
	return append(out, lines...)
}
