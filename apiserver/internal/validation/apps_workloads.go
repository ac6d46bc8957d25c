package validation

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// The spec rules of kubernetes pkg/apis/apps/validation (ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateDaemonSetSpec, ValidateStatefulSetSpec) and of
// ValidateReplicationControllerSpec, on the defaulted v1 objects.

// WorkloadCauses mirrors the spec validation of the apps workload kind of obj.
func WorkloadCauses(kind string, obj map[string]any) []api.StatusCause {
	spec := asMap(obj["spec"])
	var l causeList
	switch kind {
	case "Deployment":
		l.add(NonNegative(spec, "replicas", "spec.replicas")...)
		selectorCauses(&l, spec, "deployment", true)
		templateForReplicaSet(&l, obj, spec, "ReplicaSet", true)
		deploymentStrategyCauses(&l, asMap(spec["strategy"]))
		l.add(NonNegative(spec, "minReadySeconds", "spec.minReadySeconds")...)
		l.add(NonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit")...)
		if pd, ok := intAt(spec, "progressDeadlineSeconds"); ok {
			l.add(NonNegative(spec, "progressDeadlineSeconds", "spec.progressDeadlineSeconds")...)
			if mr, _ := intAt(spec, "minReadySeconds"); pd <= mr {
				l.add(Invalid("spec.progressDeadlineSeconds", pd, "must be greater than minReadySeconds"))
			}
		}
	case "ReplicaSet":
		l.add(NonNegative(spec, "replicas", "spec.replicas")...)
		l.add(NonNegative(spec, "minReadySeconds", "spec.minReadySeconds")...)
		selectorCauses(&l, spec, "deployment", true)
		templateForReplicaSet(&l, obj, spec, "ReplicaSet", true)
	case "DaemonSet":
		sel, hasSel := spec["selector"].(map[string]any)
		l.add(LabelSelectorCauses(sel, "spec.selector")...)
		if !SelectorMatches(selectorOrNothing(sel, hasSel), templateLabels(spec)) {
			l.add(Invalid("spec.template.metadata.labels", templateLabelsValue(spec), "`selector` does not match template `labels`"))
		}
		if hasSel && len(asMap(sel["matchLabels"]))+len(asSlice(sel["matchExpressions"])) == 0 {
			l.add(Invalid("spec.selector", LabelSelectorOf(sel), "empty selector is invalid for daemonset"))
		}
		templateForReplicaSet(&l, obj, spec, "DaemonSet", false)
		l.add(NonNegative(spec, "minReadySeconds", "spec.minReadySeconds")...)
		us := asMap(spec["updateStrategy"])
		switch t, set := us["type"]; {
		case !set, t == "OnDelete":
		case t == "RollingUpdate":
			if ru := asMap(us["rollingUpdate"]); ru != nil {
				intOrPercentCauses(&l, ru, "maxUnavailable", "spec.updateStrategy.rollingUpdate.maxUnavailable")
				intOrPercentCauses(&l, ru, "maxSurge", "spec.updateStrategy.rollingUpdate.maxSurge")
			}
		default:
			l.add(NotSupportedRaw("spec.updateStrategy", strategyValue(us, "MaxUnavailable", "MaxSurge"), []string{"RollingUpdate", "OnDelete"}))
		}
		l.add(NonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit")...)
	case "StatefulSet":
		statefulSetCauses(&l, obj, spec)
	}
	return l
}

// statefulSetCauses mirrors ValidateStatefulSetSpec.
func statefulSetCauses(l *causeList, obj, spec map[string]any) {
	switch p, set := spec["podManagementPolicy"]; {
	case !set, p == "OrderedReady", p == "Parallel":
	case p == "":
		l.add(Required("spec.podManagementPolicy", ""))
	default:
		l.add(Invalid("spec.podManagementPolicy", p, "must be 'OrderedReady' or 'Parallel'"))
	}
	us := asMap(spec["updateStrategy"])
	switch t, set := us["type"]; {
	case !set:
	case t == "":
		l.add(Required("spec.updateStrategy", ""))
	case t == "OnDelete":
		if ru, ok := us["rollingUpdate"]; ok {
			l.add(Invalid("spec.updateStrategy.rollingUpdate", ru, "only allowed for updateStrategy 'RollingUpdate'"))
		}
	case t == "RollingUpdate":
		if ru := asMap(us["rollingUpdate"]); ru != nil {
			l.add(NonNegative(ru, "partition", "spec.updateStrategy.rollingUpdate.partition")...)
		}
	default:
		l.add(InvalidRaw("spec.updateStrategy", statefulSetStrategyValue(us), "must be 'RollingUpdate' or 'OnDelete'"))
	}
	if rp := asMap(spec["persistentVolumeClaimRetentionPolicy"]); rp != nil {
		for _, k := range []string{"whenDeleted", "whenScaled"} {
			if v := strAt(rp, k); v != "Retain" && v != "Delete" {
				l.add(NotSupported("spec.persistentVolumeClaimRetentionPolicy."+k, v, []string{"Retain", "Delete"}))
			}
		}
	}
	var claims []string
	for i, t := range asSlice(spec["volumeClaimTemplates"]) {
		tm := asMap(t)
		claims = append(claims, strAt(asMap(tm["metadata"]), "name"))
		l.add(PVCSpecCauses(asMap(tm["spec"]), fmt.Sprintf("spec.volumeClaimTemplates[%d].spec", i))...)
	}
	l.add(NonNegative(spec, "replicas", "spec.replicas")...)
	l.add(NonNegative(spec, "minReadySeconds", "spec.minReadySeconds")...)
	if o := asMap(spec["ordinals"]); o != nil {
		l.add(NonNegative(o, "start", "spec.ordinals.start")...)
	}
	if sn := strAt(spec, "serviceName"); sn != "" {
		for _, m := range isDNS1123Label(sn) {
			l.add(Invalid("spec.serviceName", sn, m))
		}
	}
	selectorCauses(l, spec, "statefulset", true)
	sel, hasSel := spec["selector"].(map[string]any)
	if hasSel && !SelectorMatches(sel, templateLabels(spec)) {
		l.add(Invalid("spec.template.metadata.labels", templateLabelsValue(spec), "`selector` does not match template `labels`"))
	} else if !hasSel {
		l.add(Invalid("spec.template.metadata.labels", templateLabelsValue(spec), "`selector` does not match template `labels`"))
	}
	podTemplateCauses(l, obj, "spec.template", claims)
	ps := asMap(asMap(spec["template"])["spec"])
	if rp, ok := ps["restartPolicy"].(string); ok && rp != "Always" {
		l.add(NotSupported("spec.template.spec.restartPolicy", rp, []string{"Always"}))
	}
	if _, ok := ps["activeDeadlineSeconds"]; ok {
		l.add(Forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in StatefulSet is not Supported"))
	}
}

// statefulSetStrategyValue prints a StatefulSetUpdateStrategy as the internal Go struct's
// JSON.
func statefulSetStrategyValue(us map[string]any) string {
	t, _ := json.Marshal(strAt(us, "type"))
	ru, ok := us["rollingUpdate"].(map[string]any)
	if !ok {
		return `{"Type":` + string(t) + `,"RollingUpdate":null}`
	}
	part, _ := intAt(ru, "partition")
	mu, _ := json.Marshal(ru["maxUnavailable"])
	return fmt.Sprintf(`{"Type":%s,"RollingUpdate":{"Partition":%d,"MaxUnavailable":%s}}`, t, part, mu)
}

var accessModes = []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}

// PVCSpecCauses mirrors the access mode and volume mode rules of
// ValidatePersistentVolumeClaimSpec.
func PVCSpecCauses(spec map[string]any, path string) []api.StatusCause {
	causes := accessModeCauses(spec, path, "at least 1 access mode is required")
	if vm, ok := spec["volumeMode"].(string); ok && !slices.Contains(volumeModes, vm) {
		causes = append(causes, NotSupported(path+".volumeMode", vm, volumeModes))
	}
	return causes
}

// volumeModes is supportedVolumeModes, sorted as sets.List prints it.
var volumeModes = []string{"Block", "Filesystem"}

// PVSpecCauses mirrors the access mode and reclaim policy rules of
// ValidatePersistentVolumeSpec.
func PVSpecCauses(spec map[string]any, path string) []api.StatusCause {
	causes := accessModeCauses(spec, path, "")
	if rp, _ := spec["persistentVolumeReclaimPolicy"].(string); rp != "" && !slices.Contains(reclaimPolicies, rp) {
		causes = append(causes, NotSupported(path+".persistentVolumeReclaimPolicy", rp, reclaimPolicies))
	}
	return causes
}

// reclaimPolicies is supportedReclaimPolicy, sorted as sets.List prints it.
var reclaimPolicies = []string{"Delete", "Recycle", "Retain"}

func accessModeCauses(spec map[string]any, path, required string) []api.StatusCause {
	var l causeList
	modes := asSlice(spec["accessModes"])
	if len(modes) == 0 {
		l.add(Required(path+".accessModes", required))
	}
	for _, m := range modes {
		s, _ := m.(string)
		if !slices.Contains(accessModes, s) {
			l.add(NotSupported(path+".accessModes", s, accessModes))
		}
	}
	return l
}

// selectorOrNothing is the selector LabelSelectorAsSelector makes: a missing one selects
// nothing.
func selectorOrNothing(sel map[string]any, present bool) map[string]any {
	if !present {
		return map[string]any{"matchExpressions": []any{map[string]any{"key": "", "operator": "In"}}}
	}
	return sel
}

func templateLabels(spec map[string]any) map[string]any {
	return asMap(asMap(asMap(spec["template"])["metadata"])["labels"])
}

// templateLabelsValue is the template's labels as a message prints them: null when none.
func templateLabelsValue(spec map[string]any) any {
	if l := templateLabels(spec); l != nil {
		return l
	}
	return nil
}

// selectorCauses mirrors the selector part of ValidateDeploymentSpec and its siblings.
func selectorCauses(l *causeList, spec map[string]any, what string, required bool) {
	sel, ok := spec["selector"].(map[string]any)
	if !ok {
		if required {
			l.add(Required("spec.selector", ""))
		}
		return
	}
	l.add(LabelSelectorCauses(sel, "spec.selector")...)
	if len(asMap(sel["matchLabels"]))+len(asSlice(sel["matchExpressions"])) == 0 {
		l.add(Invalid("spec.selector", LabelSelectorOf(sel), "empty selector is invalid for "+what))
	}
}

// templateForReplicaSet mirrors ValidatePodTemplateSpecForReplicaSet (matching when
// withMatch), then the template's own rules and the restart policy of Always.
func templateForReplicaSet(l *causeList, obj, spec map[string]any, owner string, withMatch bool) {
	if withMatch {
		sel, hasSel := spec["selector"].(map[string]any)
		if !SelectorMatches(selectorOrNothing(sel, hasSel), templateLabels(spec)) {
			l.add(Invalid("spec.template.metadata.labels", templateLabelsValue(spec), "`selector` does not match template `labels`"))
		}
	}
	PodTemplateCauses(l, obj, "spec.template")
	ps := asMap(asMap(spec["template"])["spec"])
	if rp, ok := ps["restartPolicy"].(string); ok && rp != "Always" {
		l.add(NotSupported("spec.template.spec.restartPolicy", rp, []string{"Always"}))
	}
	if _, ok := ps["activeDeadlineSeconds"]; ok {
		l.add(Forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in "+owner+" is not Supported"))
	}
}

// PodTemplateCauses mirrors ValidatePodTemplateSpec: the template's labels and
// annotations, then its pod spec.
func PodTemplateCauses(l *causeList, obj map[string]any, path string) {
	podTemplateCauses(l, obj, path, nil)
}

// podTemplateCauses is PodTemplateCauses with volumes the pods get besides their own (a
// StatefulSet's claims).
func podTemplateCauses(l *causeList, obj map[string]any, path string, extraVolumes []string) {
	meta := asMap(nestedAt(obj, path+".metadata"))
	labels, annotations := map[string]string{}, map[string]string{}
	for k, v := range asMap(meta["labels"]) {
		labels[k], _ = v.(string)
	}
	for k, v := range asMap(meta["annotations"]) {
		annotations[k], _ = v.(string)
	}
	l.add(validateLabels(labels, path+".labels")...)
	l.add(validateAnnotations(annotations, path+".annotations")...)
	l.add(podSpecCauses(obj, path+".spec", extraVolumes)...)
}

// TemplateCauses is PodTemplateCauses as a list.
func TemplateCauses(obj map[string]any, path string) []api.StatusCause {
	var l causeList
	PodTemplateCauses(&l, obj, path)
	return l
}

// deploymentStrategyCauses mirrors ValidateDeploymentStrategy.
func deploymentStrategyCauses(l *causeList, st map[string]any) {
	if _, set := st["type"]; !set {
		return // the defaults always set it
	}
	switch strAt(st, "type") {
	case "Recreate":
		if _, ok := st["rollingUpdate"]; ok {
			l.add(Forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'"))
		}
	case "RollingUpdate":
		ru := asMap(st["rollingUpdate"])
		if ru == nil {
			l.add(Required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil"))
			return
		}
		intOrPercentCauses(l, ru, "maxUnavailable", "spec.strategy.rollingUpdate.maxUnavailable")
		intOrPercentCauses(l, ru, "maxSurge", "spec.strategy.rollingUpdate.maxSurge")
		if intOrPercentValue(ru["maxUnavailable"]) == 0 && intOrPercentValue(ru["maxSurge"]) == 0 {
			l.add(Invalid("spec.strategy.rollingUpdate.maxUnavailable", ru["maxUnavailable"], "may not be 0 when `maxSurge` is 0"))
		}
		if s, ok := ru["maxUnavailable"].(string); ok && percentRegexp.MatchString(s) {
			if n, _ := strconv.Atoi(strings.TrimSuffix(s, "%")); n > 100 {
				l.add(Invalid("spec.strategy.rollingUpdate.maxUnavailable", s, "must not be greater than 100%"))
			}
		}
	default:
		l.add(NotSupportedRaw("spec.strategy", strategyValue(st, "MaxUnavailable", "MaxSurge"), []string{"Recreate", "RollingUpdate"}))
	}
}

var percentRegexp = regexp.MustCompile(`^[0-9]+%$`)

// intOrPercentCauses mirrors ValidatePositiveIntOrPercent.
func intOrPercentCauses(l *causeList, m map[string]any, k, path string) {
	switch v := m[k].(type) {
	case string:
		if !percentRegexp.MatchString(v) {
			l.add(Invalid(path, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"))
		}
	case nil:
	default:
		l.add(NonNegative(m, k, path)...)
	}
}

func intOrPercentValue(v any) int64 {
	if s, ok := v.(string); ok {
		if !percentRegexp.MatchString(s) {
			return 0
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(s, "%"))
		return int64(n)
	}
	n, _ := api.AsInt64(v)
	return n
}

// strategyValue prints a strategy as the internal Go struct's JSON (field names without
// tags): {"Type":…,"RollingUpdate":{…}}, with the given rolling update members.
func strategyValue(st map[string]any, members ...string) string {
	var b strings.Builder
	t, _ := json.Marshal(strAt(st, "type"))
	b.WriteString(`{"Type":` + string(t) + `,"RollingUpdate":`)
	ru, ok := st["rollingUpdate"].(map[string]any)
	if !ok {
		b.WriteString("null}")
		return b.String()
	}
	b.WriteString("{")
	for i, m := range members {
		if i > 0 {
			b.WriteString(",")
		}
		v, present := ru[strings.ToLower(m[:1])+m[1:]]
		if !present {
			v = 0 // the internal IntOrString's zero value
		}
		j, _ := json.Marshal(v)
		fmt.Fprintf(&b, "%q:%s", m, j)
	}
	b.WriteString("}}")
	return b.String()
}

// NotSupportedRaw is field.NotSupported with a value already printed.
func NotSupportedRaw(path, value string, valid []string) api.StatusCause {
	c := NotSupported(path, "", valid)
	c.Message = strings.Replace(c.Message, `""`, value, 1)
	return c
}
