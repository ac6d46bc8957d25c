package validation

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The field rules of ValidatePodSpec (kubernetes pkg/apis/core/validation) on a defaulted v1
// pod spec, in upstream order: volumes, containers, init containers, restart and DNS
// policies, the pod's security context, affinity, the deadline, tolerations. Only the rules
// a client meets in practice are here; the schema's required fields cover the rest.

// causeList gathers the causes of one validation, with the constructors bound to it.
type causeList []api.StatusCause

func (l *causeList) add(c ...api.StatusCause) { *l = append(*l, c...) }

func intAt(m map[string]any, k string) (int64, bool) { return api.AsInt64(m[k]) }

func strAt(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// inclusiveRange mirrors validation.InclusiveRangeError.
func inclusiveRange(lo, hi int64) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

const nonNegative = "must be greater than or equal to 0"

// NonNegative mirrors ValidateNonnegativeField for a member that may be absent.
func NonNegative(m map[string]any, k, path string) []api.StatusCause {
	if v, ok := intAt(m, k); ok && v < 0 {
		return []api.StatusCause{Invalid(path, v, nonNegative)}
	}
	return nil
}

// enumCause is the usual switch of the core validation: Required when empty, NotSupported
// outside valid. A member the defaults always set is only checked when present.
func enumCause(m map[string]any, k, path string, valid ...string) []api.StatusCause {
	v, present := m[k]
	if !present {
		return nil
	}
	s, _ := v.(string)
	switch {
	case slices.Contains(valid, s):
		return nil
	case s == "":
		return []api.StatusCause{Required(path, "")}
	}
	return []api.StatusCause{NotSupported(path, s, valid)}
}

// PodSpecCauses mirrors ValidatePodSpec for the spec at specPath of obj.
func PodSpecCauses(obj map[string]any, specPath string) []api.StatusCause {
	return podSpecCauses(obj, specPath, nil)
}

func podSpecCauses(obj map[string]any, specPath string, extraVolumes []string) []api.StatusCause {
	spec, _ := nestedAt(obj, specPath).(map[string]any)
	var l causeList
	volumes := asSlice(spec["volumes"])
	if len(extraVolumes) > 0 {
		// A StatefulSet's claims come first, as volumes of their own name; the pod's
		// volumes of the same names give way (volumesToAddForTemplates).
		merged := make([]any, 0, len(extraVolumes)+len(volumes))
		for _, c := range extraVolumes {
			merged = append(merged, map[string]any{"name": c, "persistentVolumeClaim": map[string]any{"claimName": c}})
		}
		for _, v := range volumes {
			if !slices.Contains(extraVolumes, strAt(asMap(v), "name")) {
				merged = append(merged, v)
			}
		}
		volumes = merged
	}
	vols := volumeCauses(&l, volumes, specPath+".volumes")
	containers := asSlice(spec["containers"])
	if len(containers) == 0 {
		l.add(Required(specPath+".containers", ""))
	}
	names := map[string]bool{}
	for i, c := range containers {
		p := fmt.Sprintf("%s.containers[%d]", specPath, i)
		cm := asMap(c)
		containerCauses(&l, cm, vols, p)
		if n := strAt(cm, "name"); names[n] {
			l.add(Duplicate(p+".name", n))
		} else {
			names[n] = true
		}
		probeCauses(&l, asMap(cm["livenessProbe"]), p+".livenessProbe", true)
		probeCauses(&l, asMap(cm["readinessProbe"]), p+".readinessProbe", false)
		probeCauses(&l, asMap(cm["startupProbe"]), p+".startupProbe", true)
	}
	for i, c := range asSlice(spec["initContainers"]) {
		p := fmt.Sprintf("%s.initContainers[%d]", specPath, i)
		cm := asMap(c)
		containerCauses(&l, cm, vols, p)
		if n := strAt(cm, "name"); names[n] {
			l.add(Duplicate(p+".name", n))
		} else {
			names[n] = true
		}
	}
	if hn, _ := spec["hostNetwork"].(bool); hn {
		hostNetworkPortCauses(&l, spec, specPath)
	}
	l.add(enumCause(spec, "restartPolicy", specPath+".restartPolicy", "Always", "OnFailure", "Never")...)
	l.add(enumCause(spec, "dnsPolicy", specPath+".dnsPolicy", "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")...)
	podSecurityContextCauses(&l, asMap(spec["securityContext"]), specPath+".securityContext")
	affinityCauses(&l, asMap(spec["affinity"]), specPath+".affinity")
	spreadCauses(&l, asSlice(spec["topologySpreadConstraints"]), specPath+".topologySpreadConstraints")
	if v, ok := intAt(spec, "activeDeadlineSeconds"); ok && (v < 1 || v > math.MaxInt32) {
		l.add(Invalid(specPath+".activeDeadlineSeconds", v, inclusiveRange(1, math.MaxInt32)))
	}
	tolerationCauses(&l, asSlice(spec["tolerations"]), specPath+".tolerations")
	return l
}

// Duplicate mirrors field.Duplicate.
func Duplicate(path string, value any) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: "Duplicate value: " + badValue(value)}
}

// NotFound mirrors field.NotFound.
func NotFound(path string, value any) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueNotFound, Field: path, Message: "Not found: " + badValue(value)}
}

var hostPathTypes = []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}

// volumeCauses mirrors ValidateVolumes: the names of the valid volumes are returned, for the
// mounts to refer to.
func volumeCauses(l *causeList, vols []any, path string) map[string]bool {
	valid := map[string]bool{}
	for i, v := range vols {
		vm := asMap(v)
		p := fmt.Sprintf("%s[%d]", path, i)
		var el causeList
		// validateVolumeSource: the first source in its order counts, each further one is
		// Forbidden and not checked.
		sources := 0
		checked := map[string]bool{}
		for _, src := range volumeSourceOrder {
			if _, ok := vm[src.member]; !ok || vm[src.member] == nil {
				continue
			}
			if sources > 0 {
				el.add(Forbidden(p+"."+src.child, "may not specify more than 1 volume type"))
				continue
			}
			sources++
			checked[src.member] = true
		}
		if hp := asMap(vm["hostPath"]); hp != nil && checked["hostPath"] {
			if strAt(hp, "path") == "" {
				el.add(Required(p+".hostPath.path", ""))
			}
			if t, ok := hp["type"].(string); ok && !slices.Contains(hostPathTypes, t) {
				el.add(NotSupported(p+".hostPath.type", t, hostPathTypes))
			}
		}
		for _, src := range []string{"secret", "configMap"} {
			if !checked[src] {
				continue
			}
			for j, it := range asSlice(asMap(vm[src])["items"]) {
				ip := fmt.Sprintf("%s.%s.items[%d]", p, src, j)
				if strAt(asMap(it), "key") == "" {
					el.add(Required(ip+".key", ""))
				}
				if strAt(asMap(it), "path") == "" {
					el.add(Required(ip+".path", ""))
				}
			}
		}
		name := strAt(vm, "name")
		if name == "" {
			el.add(Required(p+".name", ""))
		} else {
			for _, m := range isDNS1123Label(name) {
				el.add(Invalid(p+".name", name, m))
			}
		}
		if valid[name] {
			el.add(Duplicate(p+".name", name))
		}
		if len(el) == 0 {
			valid[name] = true
		}
		l.add(el...)
	}
	return valid
}

// volumeSourceOrder is the order validateVolumeSource looks at a volume's sources in, with
// the child name its "more than 1 volume type" error uses (upstream spells two of them
// differently from the members: cephFS, downwarAPI).
var volumeSourceOrder = []struct{ member, child string }{
	{"emptyDir", "emptyDir"}, {"hostPath", "hostPath"}, {"gitRepo", "gitRepo"},
	{"gcePersistentDisk", "gcePersistentDisk"}, {"awsElasticBlockStore", "awsElasticBlockStore"},
	{"secret", "secret"}, {"nfs", "nfs"}, {"iscsi", "iscsi"}, {"glusterfs", "glusterfs"},
	{"flocker", "flocker"}, {"persistentVolumeClaim", "persistentVolumeClaim"}, {"rbd", "rbd"},
	{"cinder", "cinder"}, {"cephfs", "cephFS"}, {"quobyte", "quobyte"}, {"downwardAPI", "downwarAPI"},
	{"fc", "fc"}, {"flexVolume", "flexVolume"}, {"configMap", "configMap"}, {"azureFile", "azureFile"},
	{"vsphereVolume", "vsphereVolume"}, {"photonPersistentDisk", "photonPersistentDisk"},
	{"portworxVolume", "portworxVolume"}, {"azureDisk", "azureDisk"}, {"storageos", "storageos"},
	{"projected", "projected"}, {"scaleIO", "scaleIO"}, {"csi", "csi"}, {"ephemeral", "ephemeral"},
	{"image", "image"},
}

var protocols = []string{"SCTP", "TCP", "UDP"}

// containerCauses mirrors validateContainerCommon.
func containerCauses(l *causeList, c map[string]any, vols map[string]bool, p string) {
	if n := strAt(c, "name"); n == "" {
		l.add(Required(p+".name", ""))
	} else {
		for _, m := range isDNS1123Label(n) {
			l.add(Invalid(p+".name", n, m))
		}
	}
	if strAt(c, "image") == "" {
		l.add(Required(p+".image", ""))
	}
	l.add(enumCause(c, "terminationMessagePolicy", p+".terminationMessagePolicy", "File", "FallbackToLogsOnError")...)
	portNames := map[string]bool{}
	for i, port := range asSlice(c["ports"]) {
		pm := asMap(port)
		pp := fmt.Sprintf("%s.ports[%d]", p, i)
		if n := strAt(pm, "name"); n != "" {
			if msgs := portNameProblems(n); len(msgs) > 0 {
				for _, m := range msgs {
					l.add(Invalid(pp+".name", n, m))
				}
			} else if portNames[n] {
				l.add(Duplicate(pp+".name", n))
			} else {
				portNames[n] = true
			}
		}
		if cp, _ := intAt(pm, "containerPort"); cp == 0 {
			l.add(Required(pp+".containerPort", ""))
		} else if cp < 1 || cp > 65535 {
			l.add(Invalid(pp+".containerPort", cp, inclusiveRange(1, 65535)))
		}
		if hp, _ := intAt(pm, "hostPort"); hp != 0 && (hp < 1 || hp > 65535) {
			l.add(Invalid(pp+".hostPort", hp, inclusiveRange(1, 65535)))
		}
		if pr, ok := pm["protocol"].(string); ok && !slices.Contains(protocols, pr) {
			if pr == "" {
				l.add(Required(pp+".protocol", ""))
			} else {
				l.add(NotSupported(pp+".protocol", pr, protocols))
			}
		}
	}
	envCauses(l, asSlice(c["env"]), p+".env")
	mounts := map[string]bool{}
	for i, m := range asSlice(c["volumeMounts"]) {
		mm := asMap(m)
		mp := fmt.Sprintf("%s.volumeMounts[%d]", p, i)
		name := strAt(mm, "name")
		if name == "" {
			l.add(Required(mp+".name", ""))
		}
		if !vols[name] {
			l.add(NotFound(mp+".name", name))
		}
		path := strAt(mm, "mountPath")
		if path == "" {
			l.add(Required(mp+".mountPath", ""))
		}
		if mounts[path] {
			l.add(Invalid(mp+".mountPath", path, "must be unique"))
		}
		mounts[path] = true
		if prop, ok := mm["mountPropagation"].(string); ok {
			// Upstream names the list, not the item, here.
			l.add(enumCause(mm, "mountPropagation", p+".volumeMounts.mountPropagation", "Bidirectional", "HostToContainer", "None")...)
			_ = prop
		}
	}
	l.add(enumCause(c, "imagePullPolicy", p+".imagePullPolicy", "Always", "IfNotPresent", "Never")...)
	resourceCauses(l, asMap(c["resources"]), p+".resources")
	securityContextIDCauses(l, asMap(c["securityContext"]), p+".securityContext", "runAsUser", "runAsGroup")
}

// portNameProblems mirrors validation.IsValidPortName.
func portNameProblems(n string) []string {
	var out []string
	if len(n) > 15 {
		out = append(out, "must be no more than 15 characters")
	}
	letter, ok := false, true
	for _, r := range n {
		switch {
		case r >= 'a' && r <= 'z':
			letter = true
		case r >= '0' && r <= '9', r == '-':
		default:
			ok = false
		}
	}
	if !ok {
		out = append(out, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if len(n) > 0 && (n[0] == '-' || n[len(n)-1] == '-') {
		out = append(out, "must not begin or end with a hyphen")
	}
	if !letter {
		out = append(out, "must contain at least one letter (a-z)")
	}
	for i := 1; i < len(n); i++ {
		if n[i] == '-' && n[i-1] == '-' {
			out = append(out, "must not contain consecutive hyphens")
			break
		}
	}
	return out
}

// envCauses mirrors the name and valueFrom checks of ValidateEnv.
func envCauses(l *causeList, env []any, path string) {
	for i, e := range env {
		em := asMap(e)
		p := fmt.Sprintf("%s[%d]", path, i)
		if strAt(em, "name") == "" {
			l.add(Required(p+".name", ""))
		}
		if vf, ok := em["valueFrom"].(map[string]any); ok && len(vf) == 0 {
			l.add(Invalid(p+".valueFrom", "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
		}
	}
}

// resourceCauses mirrors the request-above-limit rule of ValidateContainerResourceRequirements.
func resourceCauses(l *causeList, res map[string]any, path string) {
	limits, requests := asMap(res["limits"]), asMap(res["requests"])
	for _, name := range sortedStringKeys(requests) {
		req, _ := requests[name].(string)
		lim, ok := limits[name].(string)
		if !ok {
			continue
		}
		rv, ok1 := schema.QuantityValue(req)
		lv, ok2 := schema.QuantityValue(lim)
		if ok1 && ok2 && rv.Cmp(lv) > 0 {
			l.add(Invalid(path+".requests", req, fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim)))
		}
	}
}

// securityContextIDCauses mirrors the user and group ID ranges of the security contexts.
func securityContextIDCauses(l *causeList, sc map[string]any, path string, members ...string) {
	for _, k := range members {
		if v, ok := intAt(sc, k); ok && (v < 0 || v > math.MaxInt32) {
			l.add(Invalid(path+"."+k, v, inclusiveRange(0, math.MaxInt32)))
		}
	}
}

// podSecurityContextCauses mirrors validatePodSpecSecurityContext's ID ranges and seccomp
// profile.
func podSecurityContextCauses(l *causeList, sc map[string]any, path string) {
	securityContextIDCauses(l, sc, path, "fsGroup", "runAsUser", "runAsGroup")
	for i, g := range asSlice(sc["supplementalGroups"]) {
		if v, ok := api.AsInt64(g); ok && (v < 0 || v > math.MaxInt32) {
			l.add(Invalid(fmt.Sprintf("%s.supplementalGroups[%d]", path, i), v, inclusiveRange(0, math.MaxInt32)))
		}
	}
	if sp := asMap(sc["seccompProfile"]); sp != nil {
		seccompCauses(l, sp, path+".seccompProfile")
	}
}

// seccompCauses mirrors validateSeccompProfileField.
func seccompCauses(l *causeList, sp map[string]any, path string) {
	t := strAt(sp, "type")
	lp, hasLP := sp["localhostProfile"].(string)
	switch t {
	case "Localhost":
		if !hasLP {
			l.add(Required(path+".localhostProfile", "must be set when seccomp type is Localhost"))
		}
	case "RuntimeDefault", "Unconfined":
		if hasLP {
			l.add(Invalid(path+".localhostProfile", lp, "can only be set when seccomp type is Localhost"))
		}
	case "":
		l.add(Required(path+".type", "type is required when seccompProfile is set"))
		if hasLP {
			l.add(InvalidRaw(path+".localhostProfile", fmt.Sprintf(`{"Type":"","LocalhostProfile":%q}`, lp), "can only be set when seccomp type is Localhost"))
		}
	default:
		l.add(NotSupported(path+".type", t, []string{"Localhost", "RuntimeDefault", "Unconfined"}))
		if hasLP {
			l.add(InvalidRaw(path+".localhostProfile", fmt.Sprintf(`{"Type":%q,"LocalhostProfile":%q}`, t, lp), "can only be set when seccomp type is Localhost"))
		}
	}
}

var tolerationEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// tolerationCauses mirrors ValidateTolerations' operator and effect rules.
func tolerationCauses(l *causeList, ts []any, path string) {
	for i, t := range ts {
		tm := asMap(t)
		p := fmt.Sprintf("%s[%d]", path, i)
		key := strAt(tm, "key")
		if key != "" {
			for _, m := range isQualifiedName(key) {
				l.add(Invalid(p+".key", key, m))
			}
		}
		op := strAt(tm, "operator")
		if key == "" && op != "Exists" {
			l.add(Invalid(p+".operator", op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if _, ok := tm["tolerationSeconds"]; ok && strAt(tm, "effect") != "NoExecute" {
			l.add(Invalid(p+".effect", strAt(tm, "effect"), "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch op {
		case "Equal", "":
			if v := strAt(tm, "value"); len(isLabelValue(v)) > 0 {
				l.add(Invalid(p+".operator", v, strings.Join(isLabelValue(v), ";")))
			}
		case "Exists":
			if v := strAt(tm, "value"); v != "" {
				l.add(Invalid(p+".operator", v, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			l.add(NotSupported(p+".operator", op, []string{"Equal", "Exists"}))
		}
		if e, ok := tm["effect"].(string); ok && e != "" && !slices.Contains(tolerationEffects, e) {
			l.add(NotSupported(p+".effect", e, tolerationEffects))
		}
	}
}

// hostNetworkPortCauses mirrors validatePodHostNetworkDeps: with the host's network, a
// container's host port is its container port; a template's may be unset (a pod's spec is
// at "spec", a template's deeper).
func hostNetworkPortCauses(l *causeList, spec map[string]any, specPath string) {
	isPod := specPath == "spec"
	for i, c := range asSlice(spec["containers"]) {
		for j, p := range asSlice(asMap(c)["ports"]) {
			pm := asMap(p)
			hp, _ := intAt(pm, "hostPort")
			cp, _ := intAt(pm, "containerPort")
			if (isPod || hp != 0) && hp != cp {
				l.add(Invalid(fmt.Sprintf("%s.containers[%d].ports[%d].hostPort", specPath, i, j), hp, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
}

// TolerationCauses mirrors ValidateTolerations for the list at path.
func TolerationCauses(ts []any, path string) []api.StatusCause {
	var l causeList
	tolerationCauses(&l, ts, path)
	return l
}
