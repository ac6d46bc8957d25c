package admission

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// A psaCheck is one of pod-security-admission's policy checks at its newest version: the
// forbidden reason and detail, or "" when the pod spec passes.
type psaCheck struct {
	id       string
	override string // the baseline check a restricted one replaces
	check    func(spec map[string]any) (reason, detail string)
}

// psaBaseline and psaRestricted are the checks of each level, each list in the order of
// its IDs (the registry's order: baseline checks, then restricted ones). Left out: the
// appArmorProfile, hostProbesAndHostLifecycle and seLinuxOptions checks.
var (
	psaBaseline = []psaCheck{
		{id: "capabilities_baseline", check: capabilitiesBaseline},
		{id: "hostNamespaces", check: hostNamespaces},
		{id: "hostPathVolumes", check: hostPathVolumes},
		{id: "hostPorts", check: hostPorts},
		{id: "privileged", check: privilegedCheck},
		{id: "procMount", check: procMountCheck(true)},
		{id: "seccompProfile_baseline", check: func(s map[string]any) (string, string) { return seccompCheck(s, false) }},
		{id: "sysctls", check: sysctlsCheck},
		{id: "windowsHostProcess", check: windowsHostProcess},
	}
	psaRestricted = []psaCheck{
		{id: "allowPrivilegeEscalation", check: allowPrivilegeEscalation},
		{id: "capabilities_restricted", override: "capabilities_baseline", check: capabilitiesRestricted},
		{id: "procMount_restricted", override: "procMount", check: procMountCheck(false)},
		{id: "restrictedVolumes", override: "hostPathVolumes", check: restrictedVolumes},
		{id: "runAsNonRoot", check: runAsNonRoot},
		{id: "runAsUser", check: runAsUser},
		{id: "seccompProfile_restricted", override: "seccompProfile_baseline", check: func(s map[string]any) (string, string) {
			if isWindows(s) {
				return "", ""
			}
			return seccompCheck(s, true)
		}},
	}
)

// psaEvaluate mirrors EvaluatePod and AggregateCheckResult.ForbiddenDetail: the failed
// checks of the level, "" when none failed.
func psaEvaluate(lv levelVersion, spec map[string]any) string {
	detail, _ := psaResults(lv, spec)
	return detail
}

// psaResults returns the failed checks as ForbiddenDetail and as ForbiddenReason print
// them, "" when none failed.
func psaResults(lv levelVersion, spec map[string]any) (detail, reasons string) {
	if lv.level == "privileged" || lv.level == "" {
		return "", ""
	}
	checks := psaBaseline
	if lv.level == "restricted" {
		overridden := map[string]bool{}
		for _, c := range psaRestricted {
			overridden[c.override] = true
		}
		checks = nil
		for _, c := range psaBaseline {
			if !overridden[c.id] {
				checks = append(checks, c)
			}
		}
		checks = append(checks, psaRestricted...)
	}
	var parts, rs []string
	for _, c := range checks {
		reason, detail := c.check(spec)
		if reason == "" {
			continue
		}
		rs = append(rs, reason)
		if detail != "" {
			reason += " (" + detail + ")"
		}
		parts = append(parts, reason)
	}
	return strings.Join(parts, ", "), strings.Join(rs, ", ")
}

// visitContainers mirrors visitContainers: init, regular, then ephemeral containers.
func visitContainers(spec map[string]any, fn func(c map[string]any)) {
	for _, key := range containerKinds {
		for _, c := range items(spec, key) {
			fn(c)
		}
	}
}

func joinQuote(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return `"` + strings.Join(l, `", "`) + `"`
}

func plural(one, many string, n int) string {
	if n == 1 {
		return one
	}
	return many
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func isWindows(spec map[string]any) bool { return str(child(spec, "os"), "name") == "windows" }

func secCtx(c map[string]any) map[string]any { return child(c, "securityContext") }

func privilegedCheck(spec map[string]any) (string, string) {
	var bad []string
	visitContainers(spec, func(c map[string]any) {
		if b, _ := boolPtr(secCtx(c), "privileged"); b {
			bad = append(bad, str(c, "name"))
		}
	})
	if len(bad) == 0 {
		return "", ""
	}
	return "privileged", fmt.Sprintf("%s %s must not set securityContext.privileged=true", plural("container", "containers", len(bad)), joinQuote(bad))
}

func hostNamespaces(spec map[string]any) (string, string) {
	var on []string
	for _, k := range []string{"hostNetwork", "hostPID", "hostIPC"} {
		if b, _ := boolPtr(spec, k); b {
			on = append(on, k+"=true")
		}
	}
	if len(on) == 0 {
		return "", ""
	}
	return "host namespaces", strings.Join(on, ", ")
}

var baselineCapabilities = map[string]bool{"AUDIT_WRITE": true, "CHOWN": true, "DAC_OVERRIDE": true, "FOWNER": true,
	"FSETID": true, "KILL": true, "MKNOD": true, "NET_BIND_SERVICE": true, "SETFCAP": true, "SETGID": true,
	"SETPCAP": true, "SETUID": true, "SYS_CHROOT": true}

func capabilitiesBaseline(spec map[string]any) (string, string) {
	var bad []string
	caps := map[string]bool{}
	visitContainers(spec, func(c map[string]any) {
		valid := true
		add, _ := child(secCtx(c), "capabilities")["add"].([]any)
		for _, x := range add {
			if s := fmt.Sprint(x); !baselineCapabilities[s] {
				valid = false
				caps[s] = true
			}
		}
		if !valid {
			bad = append(bad, str(c, "name"))
		}
	})
	if len(bad) == 0 {
		return "", ""
	}
	return "non-default capabilities", fmt.Sprintf("%s %s must not include %s in securityContext.capabilities.add",
		plural("container", "containers", len(bad)), joinQuote(bad), joinQuote(sortedSet(caps)))
}

func hostPathVolumes(spec map[string]any) (string, string) {
	var bad []string
	for _, v := range items(spec, "volumes") {
		if child(v, "hostPath") != nil {
			bad = append(bad, str(v, "name"))
		}
	}
	if len(bad) == 0 {
		return "", ""
	}
	return "hostPath volumes", fmt.Sprintf("%s %s", plural("volume", "volumes", len(bad)), joinQuote(bad))
}

func hostPorts(spec map[string]any) (string, string) {
	var bad []string
	ports := map[string]bool{}
	visitContainers(spec, func(c map[string]any) {
		valid := true
		for _, p := range items(c, "ports") {
			if n, _ := api.AsInt64(p["hostPort"]); n != 0 {
				valid = false
				ports[strconv.FormatInt(n, 10)] = true
			}
		}
		if !valid {
			bad = append(bad, str(c, "name"))
		}
	})
	if len(bad) == 0 {
		return "", ""
	}
	return "hostPort", fmt.Sprintf("%s %s %s %s %s", plural("container", "containers", len(bad)), joinQuote(bad),
		plural("uses", "use", len(bad)), plural("hostPort", "hostPorts", len(ports)), strings.Join(sortedSet(ports), ", "))
}

func windowsHostProcess(spec map[string]any) (string, string) {
	var bad []string
	visitContainers(spec, func(c map[string]any) {
		if b, _ := boolPtr(child(secCtx(c), "windowsOptions"), "hostProcess"); b {
			bad = append(bad, str(c, "name"))
		}
	})
	var setters []string
	if b, _ := boolPtr(child(child(spec, "securityContext"), "windowsOptions"), "hostProcess"); b {
		setters = append(setters, "pod")
	}
	if len(bad) > 0 {
		setters = append(setters, plural("container", "containers", len(bad))+" "+joinQuote(bad))
	}
	if len(setters) == 0 {
		return "", ""
	}
	return "hostProcess", strings.Join(setters, " and ") + " must not set securityContext.windowsOptions.hostProcess=true"
}

// seccompCheck is the baseline check (no Unconfined) and, with required, the restricted
// one (RuntimeDefault or Localhost on the pod or every container).
func seccompCheck(spec map[string]any, required bool) (string, string) {
	valid := func(t string) bool { return t == "RuntimeDefault" || t == "Localhost" }
	var setters, implicit []string
	values := map[string]bool{}
	podSet := false
	if p := child(child(spec, "securityContext"), "seccompProfile"); p != nil {
		if t := str(p, "type"); !valid(t) {
			setters = append(setters, "pod")
			values[t] = true
		} else {
			podSet = true
		}
	}
	var explicit []string
	visitContainers(spec, func(c map[string]any) {
		if p := child(secCtx(c), "seccompProfile"); p != nil {
			if t := str(p, "type"); !valid(t) {
				explicit = append(explicit, str(c, "name"))
				values[t] = true
			}
		} else if !podSet {
			implicit = append(implicit, str(c, "name"))
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, plural("container", "containers", len(explicit))+" "+joinQuote(explicit))
	}
	if len(setters) > 0 {
		return "seccompProfile", fmt.Sprintf("%s must not set securityContext.seccompProfile.type to %s", strings.Join(setters, " and "), joinQuote(sortedSet(values)))
	}
	if required && len(implicit) > 0 {
		return "seccompProfile", fmt.Sprintf(`pod or %s %s must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
			plural("container", "containers", len(implicit)), joinQuote(implicit))
	}
	return "", ""
}

func allowPrivilegeEscalation(spec map[string]any) (string, string) {
	if isWindows(spec) {
		return "", ""
	}
	var bad []string
	visitContainers(spec, func(c map[string]any) {
		if b, ok := boolPtr(secCtx(c), "allowPrivilegeEscalation"); !ok || b {
			bad = append(bad, str(c, "name"))
		}
	})
	if len(bad) == 0 {
		return "", ""
	}
	return "allowPrivilegeEscalation != false", fmt.Sprintf("%s %s must set securityContext.allowPrivilegeEscalation=false",
		plural("container", "containers", len(bad)), joinQuote(bad))
}

func capabilitiesRestricted(spec map[string]any) (string, string) {
	if isWindows(spec) {
		return "", ""
	}
	var noDrop, adding []string
	caps := map[string]bool{}
	visitContainers(spec, func(c map[string]any) {
		cp := child(secCtx(c), "capabilities")
		if cp == nil {
			noDrop = append(noDrop, str(c, "name"))
			return
		}
		drop, _ := cp["drop"].([]any)
		all := false
		for _, x := range drop {
			all = all || x == "ALL"
		}
		if !all {
			noDrop = append(noDrop, str(c, "name"))
		}
		add, _ := cp["add"].([]any)
		bad := false
		for _, x := range add {
			if s := fmt.Sprint(x); s != "NET_BIND_SERVICE" {
				bad = true
				caps[s] = true
			}
		}
		if bad {
			adding = append(adding, str(c, "name"))
		}
	})
	var details []string
	if len(noDrop) > 0 {
		details = append(details, fmt.Sprintf(`%s %s must set securityContext.capabilities.drop=["ALL"]`, plural("container", "containers", len(noDrop)), joinQuote(noDrop)))
	}
	if len(adding) > 0 {
		details = append(details, fmt.Sprintf(`%s %s must not include %s in securityContext.capabilities.add`,
			plural("container", "containers", len(adding)), joinQuote(adding), joinQuote(sortedSet(caps))))
	}
	if len(details) == 0 {
		return "", ""
	}
	return "unrestricted capabilities", strings.Join(details, "; ")
}

// allowedVolumeSources are the restricted level's volume types.
var allowedVolumeSources = []string{"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "image", "persistentVolumeClaim", "projected", "secret"}

// restrictedVolumeTypes are the other types, in the order upstream names them.
var restrictedVolumeTypes = []string{"hostPath", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "nfs", "iscsi", "glusterfs",
	"rbd", "flexVolume", "cinder", "cephfs", "flocker", "fc", "azureFile", "vsphereVolume", "quobyte", "azureDisk",
	"photonPersistentDisk", "portworxVolume", "scaleIO", "storageos"}

func restrictedVolumes(spec map[string]any) (string, string) {
	var bad []string
	types := map[string]bool{}
	for _, v := range items(spec, "volumes") {
		ok := false
		for _, k := range allowedVolumeSources {
			ok = ok || child(v, k) != nil
		}
		if ok {
			continue
		}
		bad = append(bad, str(v, "name"))
		t := "unknown"
		for _, k := range restrictedVolumeTypes {
			if child(v, k) != nil {
				t = k
				break
			}
		}
		types[t] = true
	}
	if len(bad) == 0 {
		return "", ""
	}
	return "restricted volume types", fmt.Sprintf("%s %s %s %s %s", plural("volume", "volumes", len(bad)), joinQuote(bad),
		plural("uses", "use", len(bad)), plural("restricted volume type", "restricted volume types", len(types)), joinQuote(sortedSet(types)))
}

// userNamespaced mirrors relaxPolicyForUserNamespacePod: hostUsers=false.
func userNamespaced(spec map[string]any) bool {
	b, ok := boolPtr(spec, "hostUsers")
	return ok && !b
}

func runAsNonRoot(spec map[string]any) (string, string) {
	if userNamespaced(spec) {
		return "", ""
	}
	var setters, explicit, implicit []string
	podNonRoot := false
	if b, ok := boolPtr(child(spec, "securityContext"), "runAsNonRoot"); ok {
		if !b {
			setters = append(setters, "pod")
		} else {
			podNonRoot = true
		}
	}
	visitContainers(spec, func(c map[string]any) {
		if b, ok := boolPtr(secCtx(c), "runAsNonRoot"); ok {
			if !b {
				explicit = append(explicit, str(c, "name"))
			}
		} else if !podNonRoot {
			implicit = append(implicit, str(c, "name"))
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, plural("container", "containers", len(explicit))+" "+joinQuote(explicit))
	}
	if len(setters) > 0 {
		return "runAsNonRoot != true", strings.Join(setters, " and ") + " must not set securityContext.runAsNonRoot=false"
	}
	if len(implicit) > 0 {
		return "runAsNonRoot != true", fmt.Sprintf("pod or %s %s must set securityContext.runAsNonRoot=true",
			plural("container", "containers", len(implicit)), joinQuote(implicit))
	}
	return "", ""
}

func runAsUser(spec map[string]any) (string, string) {
	if userNamespaced(spec) {
		return "", ""
	}
	isRoot := func(m map[string]any) bool {
		v, ok := m["runAsUser"]
		n, isInt := api.AsInt64(v)
		return ok && isInt && n == 0
	}
	var setters, bad []string
	if isRoot(child(spec, "securityContext")) {
		setters = append(setters, "pod")
	}
	visitContainers(spec, func(c map[string]any) {
		if isRoot(secCtx(c)) {
			bad = append(bad, str(c, "name"))
		}
	})
	if len(bad) > 0 {
		setters = append(setters, plural("container", "containers", len(bad))+" "+joinQuote(bad))
	}
	if len(setters) == 0 {
		return "", ""
	}
	return "runAsUser=0", strings.Join(setters, " and ") + " must not set runAsUser=0"
}
