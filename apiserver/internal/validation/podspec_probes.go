package validation

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// probeCauses mirrors validateProbe (and validateLivenessProbe's and validateStartupProbe's
// successThreshold of 1 when liveness): one handler, then the non-negative numbers.
func probeCauses(l *causeList, pr map[string]any, path string, successIsOne bool) {
	if pr == nil {
		return
	}
	handlers := 0
	for _, h := range []string{"exec", "httpGet", "tcpSocket", "grpc"} {
		hm, ok := pr[h].(map[string]any)
		if !ok {
			continue
		}
		if handlers > 0 {
			l.add(Forbidden(path+"."+h, "may not specify more than 1 handler type"))
			continue
		}
		handlers++
		switch h {
		case "httpGet":
			if strAt(hm, "path") == "" {
				l.add(Required(path+".httpGet.path", ""))
			}
			portNumOrNameCauses(l, hm["port"], path+".httpGet.port")
			if s, ok := hm["scheme"].(string); ok && s != "HTTP" && s != "HTTPS" {
				l.add(NotSupported(path+".httpGet.scheme", s, []string{"HTTP", "HTTPS"}))
			}
		case "tcpSocket":
			portNumOrNameCauses(l, hm["port"], path+".tcpSocket.port")
		case "grpc":
			p, _ := intAt(hm, "port")
			portNumOrNameCauses(l, p, path+".grpc.port")
		}
	}
	if handlers == 0 {
		l.add(Required(path, "must specify a handler type"))
	}
	for _, k := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"} {
		l.add(NonNegative(pr, k, path+"."+k)...)
	}
	if v, ok := intAt(pr, "terminationGracePeriodSeconds"); ok && v <= 0 {
		l.add(Invalid(path+".terminationGracePeriodSeconds", v, "must be greater than 0"))
	}
	if v, ok := intAt(pr, "successThreshold"); successIsOne && ok && v != 1 {
		l.add(Invalid(path+".successThreshold", v, "must be 1"))
	}
}

// portNumOrNameCauses mirrors ValidatePortNumOrName: a number in 1-65535 or a port name (an
// absent port is the number 0).
func portNumOrNameCauses(l *causeList, v any, path string) {
	if s, ok := v.(string); ok {
		for _, m := range portNameProblems(s) {
			l.add(Invalid(path, s, m))
		}
		return
	}
	n, _ := api.AsInt64(v)
	if n < 1 || n > 65535 {
		l.add(Invalid(path, n, inclusiveRange(1, 65535)))
	}
}

// affinityCauses mirrors validateAffinity: node selector terms, then pod (anti-)affinity
// terms.
func affinityCauses(l *causeList, a map[string]any, path string) {
	if a == nil {
		return
	}
	if na := asMap(a["nodeAffinity"]); na != nil {
		if req, ok := na["requiredDuringSchedulingIgnoredDuringExecution"].(map[string]any); ok {
			rp := path + ".nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
			terms := asSlice(req["nodeSelectorTerms"])
			if len(terms) == 0 {
				l.add(Required(rp+".nodeSelectorTerms", "must have at least one node selector term"))
			}
			for i, t := range terms {
				nodeSelectorTermCauses(l, asMap(t), fmt.Sprintf("%s.nodeSelectorTerms[%d]", rp, i))
			}
		}
		for i, p := range asSlice(na["preferredDuringSchedulingIgnoredDuringExecution"]) {
			pm := asMap(p)
			pp := fmt.Sprintf("%s.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d]", path, i)
			if w, _ := intAt(pm, "weight"); w < 1 || w > 100 {
				l.add(Invalid(pp+".weight", w, "must be in the range 1-100"))
			}
			nodeSelectorTermCauses(l, asMap(pm["preference"]), pp+".preference")
		}
	}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		pa := asMap(a[kind])
		if pa == nil {
			continue
		}
		for i, t := range asSlice(pa["requiredDuringSchedulingIgnoredDuringExecution"]) {
			podAffinityTermCauses(l, asMap(t), fmt.Sprintf("%s.%s.requiredDuringSchedulingIgnoredDuringExecution[%d]", path, kind, i))
		}
		for i, p := range asSlice(pa["preferredDuringSchedulingIgnoredDuringExecution"]) {
			pm := asMap(p)
			pp := fmt.Sprintf("%s.%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", path, kind, i)
			if w, _ := intAt(pm, "weight"); w < 1 || w > 100 {
				l.add(Invalid(pp+".weight", w, "must be in the range 1-100"))
			}
			podAffinityTermCauses(l, asMap(pm["podAffinityTerm"]), pp+".podAffinityTerm")
		}
	}
}

// nodeSelectorTermCauses mirrors validateNodeSelectorTerm's requirement checks.
func nodeSelectorTermCauses(l *causeList, t map[string]any, path string) {
	for _, member := range []string{"matchExpressions", "matchFields"} {
		for j, e := range asSlice(t[member]) {
			em := asMap(e)
			ep := fmt.Sprintf("%s.%s[%d]", path, member, j)
			values := asSlice(em["values"])
			switch op := strAt(em, "operator"); op {
			case "In", "NotIn":
				if len(values) == 0 {
					l.add(Required(ep+".values", "must be specified when `operator` is 'In' or 'NotIn'"))
				}
			case "Exists", "DoesNotExist":
				if len(values) > 0 {
					l.add(Forbidden(ep+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
				}
			case "Gt", "Lt":
				if len(values) != 1 {
					l.add(Required(ep+".values", "must be specified single value when `operator` is 'Lt' or 'Gt'"))
				}
			default:
				l.add(Invalid(ep+".operator", op, "not a valid selector operator"))
			}
			if member == "matchExpressions" {
				key := strAt(em, "key")
				for _, m := range isQualifiedName(key) {
					l.add(Invalid(ep+".key", key, m))
				}
			}
		}
	}
}

// podAffinityTermCauses mirrors validatePodAffinityTerm: the selector's requirements and
// the topology key.
func podAffinityTermCauses(l *causeList, t map[string]any, path string) {
	l.add(LabelSelectorCauses(asMap(t["labelSelector"]), path+".labelSelector")...)
	key := strAt(t, "topologyKey")
	if key == "" {
		l.add(Required(path+".topologyKey", "can not be empty"))
	}
	for _, m := range isQualifiedName(key) {
		l.add(Invalid(path+".topologyKey", key, m))
	}
}

// PortNumOrNameCauses mirrors ValidatePortNumOrName for a port at path.
func PortNumOrNameCauses(v any, path string) []api.StatusCause {
	var l causeList
	portNumOrNameCauses(&l, v, path)
	return l
}

// PodSpecWarnings mirrors the part of warningsForPodSpecAndMeta (pkg/api/pod/warnings.go)
// done here: a negative termination grace period. path is the pod's or template's path
// ("" for a pod, "spec.template" for a workload).
func PodSpecWarnings(obj map[string]any, path string) []string {
	specPath := "spec"
	if path != "" {
		specPath = path + ".spec"
	}
	spec, _ := nestedAt(obj, specPath).(map[string]any)
	if g, ok := api.AsInt64(spec["terminationGracePeriodSeconds"]); ok && g < 0 {
		return []string{specPath + ".terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"}
	}
	return nil
}

// spreadCauses mirrors the skew, key and policy rules of validateTopologySpreadConstraints.
func spreadCauses(l *causeList, cs []any, path string) {
	for i, c := range cs {
		cm := asMap(c)
		p := fmt.Sprintf("%s[%d]", path, i)
		if v, _ := intAt(cm, "maxSkew"); v <= 0 {
			l.add(Invalid(p+".maxSkew", v, "must be greater than zero"))
		}
		if k := strAt(cm, "topologyKey"); k == "" {
			l.add(Required(p+".topologyKey", "can not be empty"))
		} else {
			for _, m := range isQualifiedName(k) {
				l.add(Invalid(p+".topologyKey", k, m))
			}
		}
		if w := strAt(cm, "whenUnsatisfiable"); w != "DoNotSchedule" && w != "ScheduleAnyway" {
			l.add(NotSupported(p+".whenUnsatisfiable", w, []string{"DoNotSchedule", "ScheduleAnyway"}))
		}
	}
}
