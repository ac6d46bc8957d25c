package admission

import (
	"fmt"
	"strings"
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
