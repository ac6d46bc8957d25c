package daemonset

import (
	"encoding/json"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The labels and annotation of apps/v1 a DaemonSet's pods and revisions carry
// (apps.DefaultDaemonSetUniqueLabelKey, extensions.DaemonSetTemplateGenerationKey,
// apps.DeprecatedTemplateGeneration).
const (
	hashLabel               = app.ControllerRevisionHashLabel
	templateGenerationLabel = "pod-template-generation"
	templateGenerationAnnot = "deprecated.daemonset.template.generation"
	rollingUpdateStrategy   = "RollingUpdate"
	defaultHistoryLimit     = 10
	objectNameField         = "metadata.name"
	tolerationOpExists      = "Exists"
	taintEffectNoSchedule   = "NoSchedule"
	taintEffectNoExecute    = "NoExecute"
)

// daemonSet is the part of apps/v1 DaemonSet the controller reads; the template stays
// JSON-shaped so every field reaches the pods.
type daemonSet struct {
	u    *api.Unstructured
	Spec struct {
		Selector       *app.LabelSelector `json:"selector"`
		Template       map[string]any     `json:"template"`
		UpdateStrategy struct {
			Type          string `json:"type"`
			RollingUpdate *struct {
				MaxUnavailable any `json:"maxUnavailable"`
				MaxSurge       any `json:"maxSurge"`
			} `json:"rollingUpdate"`
		} `json:"updateStrategy"`
		MinReadySeconds      int32  `json:"minReadySeconds"`
		RevisionHistoryLimit *int32 `json:"revisionHistoryLimit"`
	} `json:"spec"`
	Status dsStatus `json:"status"`
}

// dsStatus is apps/v1 DaemonSetStatus without conditions.
type dsStatus struct {
	CurrentNumberScheduled int32  `json:"currentNumberScheduled"`
	NumberMisscheduled     int32  `json:"numberMisscheduled"`
	DesiredNumberScheduled int32  `json:"desiredNumberScheduled"`
	NumberReady            int32  `json:"numberReady"`
	ObservedGeneration     int64  `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32  `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32  `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32  `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32 `json:"collisionCount,omitempty"`
}

func parseDaemonSet(u *api.Unstructured) (*daemonSet, error) {
	d, err := app.FromUnstructured[daemonSet](u)
	if err != nil {
		return nil, err
	}
	d.u = u
	if d.Spec.UpdateStrategy.Type == "" {
		d.Spec.UpdateStrategy.Type = rollingUpdateStrategy
	}
	return d, nil
}

func (d *daemonSet) controllerRef() api.OwnerReference {
	ref := app.NewControllerRef(d.u)
	ref.APIVersion, ref.Kind = "apps/v1", "DaemonSet"
	return ref
}

// templateGeneration mirrors GetTemplateGeneration: the deprecated annotation, if any.
func (d *daemonSet) templateGeneration() *int64 {
	s, ok := d.u.GetAnnotations()[templateGenerationAnnot]
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

// surgeCount mirrors SurgeCount: maxSurge scaled to n, 0 for OnDelete.
func (d *daemonSet) surgeCount(n int) (int, error) {
	r := d.Spec.UpdateStrategy.RollingUpdate
	if d.Spec.UpdateStrategy.Type != rollingUpdateStrategy || r == nil {
		return 0, nil
	}
	return app.ScaledValueFromIntOrPercent(r.MaxSurge, n, true)
}

// unavailableCount mirrors UnavailableCount: maxUnavailable scaled to n, 0 for OnDelete.
func (d *daemonSet) unavailableCount(n int) (int, error) {
	r := d.Spec.UpdateStrategy.RollingUpdate
	if d.Spec.UpdateStrategy.Type != rollingUpdateStrategy || r == nil {
		return 0, nil
	}
	return app.ScaledValueFromIntOrPercent(r.MaxUnavailable, n, true)
}

// allowsSurge mirrors AllowsSurge.
func (d *daemonSet) allowsSurge() bool {
	n, err := d.surgeCount(1)
	return err == nil && n > 0
}

// isPodUpdated mirrors IsPodUpdated: the pod carries the current hash (or the template
// generation of the deprecated annotation).
func isPodUpdated(pod *api.Unstructured, hash string, generation *int64) bool {
	l := pod.GetLabels()
	if generation != nil && l[templateGenerationLabel] == strconv.FormatInt(*generation, 10) {
		return true
	}
	return hash != "" && l[hashLabel] == hash
}

// automaticTolerations mirrors AddOrUpdateDaemonPodTolerations: a daemon pod tolerates
// the node conditions a node agent must run through.
func automaticTolerations(hostNetwork bool) []map[string]any {
	t := func(key, effect string) map[string]any {
		return map[string]any{"key": key, "operator": tolerationOpExists, "effect": effect}
	}
	out := []map[string]any{
		t("node.kubernetes.io/not-ready", taintEffectNoExecute),
		t("node.kubernetes.io/unreachable", taintEffectNoExecute),
		t("node.kubernetes.io/disk-pressure", taintEffectNoSchedule),
		t("node.kubernetes.io/memory-pressure", taintEffectNoSchedule),
		t("node.kubernetes.io/pid-pressure", taintEffectNoSchedule),
		t("node.kubernetes.io/unschedulable", taintEffectNoSchedule),
	}
	if hostNetwork {
		out = append(out, t("node.kubernetes.io/network-unavailable", taintEffectNoSchedule))
	}
	return out
}

// addTolerations mirrors AddOrUpdateTolerationInPodSpec for each automatic toleration: one
// that matches an existing toleration (same key, operator, value and effect) replaces it.
func addTolerations(spec map[string]any) {
	hostNetwork, _ := spec["hostNetwork"].(bool)
	list, _ := spec["tolerations"].([]any)
	for _, want := range automaticTolerations(hostNetwork) {
		found := false
		for i, x := range list {
			m, _ := x.(map[string]any)
			if m != nil && str(m, "key") == want["key"] && str(m, "effect") == want["effect"] &&
				str(m, "operator") == want["operator"] && str(m, "value") == "" {
				list[i], found = want, true
			}
		}
		if !found {
			list = append(list, want)
		}
	}
	spec["tolerations"] = list
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// podTemplate mirrors CreatePodTemplate: the template with the automatic tolerations and
// the hash (and template generation) labels.
func podTemplate(d *daemonSet, hash string) map[string]any {
	t := deepCopy(d.Spec.Template)
	if t == nil {
		t = map[string]any{}
	}
	spec, _ := t["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		t["spec"] = spec
	}
	addTolerations(spec)
	meta, _ := t["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		t["metadata"] = meta
	}
	l, _ := meta["labels"].(map[string]any)
	if l == nil {
		l = map[string]any{}
		meta["labels"] = l
	}
	if g := d.templateGeneration(); g != nil {
		l[templateGenerationLabel] = strconv.FormatInt(*g, 10)
	}
	if hash != "" {
		l[hashLabel] = hash
	}
	return t
}

// pinToNode mirrors ReplaceDaemonSetPodNodeNameNodeAffinity: the pod's required node
// affinity becomes the one term "metadata.name In [node]", so the scheduler binds it there.
func pinToNode(spec map[string]any, node string) {
	term := map[string]any{"matchFields": []any{map[string]any{"key": objectNameField, "operator": "In", "values": []any{node}}}}
	aff, _ := spec["affinity"].(map[string]any)
	if aff == nil {
		aff = map[string]any{}
		spec["affinity"] = aff
	}
	na, _ := aff["nodeAffinity"].(map[string]any)
	if na == nil {
		na = map[string]any{}
		aff["nodeAffinity"] = na
	}
	req, _ := na["requiredDuringSchedulingIgnoredDuringExecution"].(map[string]any)
	if req == nil {
		req = map[string]any{}
		na["requiredDuringSchedulingIgnoredDuringExecution"] = req
	}
	req["nodeSelectorTerms"] = []any{term}
}

// targetNodeName mirrors GetTargetNodeName: spec.nodeName, or the node the affinity pins.
func targetNodeName(pod *api.Unstructured) string {
	if n := app.NodeName(pod); n != "" {
		return n
	}
	v, _ := app.Nested(pod.Object, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
	terms, _ := v.([]any)
	for _, t := range terms {
		tm, _ := t.(map[string]any)
		fields, _ := tm["matchFields"].([]any)
		for _, f := range fields {
			fm, _ := f.(map[string]any)
			vals, _ := fm["values"].([]any)
			if str(fm, "key") == objectNameField && str(fm, "operator") == "In" && len(vals) == 1 {
				s, _ := vals[0].(string)
				return s
			}
		}
	}
	return ""
}

// revisionPatch mirrors getPatch: the template, marked to replace the DaemonSet's own.
func revisionPatch(d *daemonSet) map[string]any {
	t := deepCopy(d.Spec.Template)
	if t == nil {
		t = map[string]any{}
	}
	t["$patch"] = "replace"
	return map[string]any{"spec": map[string]any{"template": t}}
}

func canonical(v any) []byte {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return b
}

func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	var out map[string]any
	_ = json.Unmarshal(canonical(m), &out)
	return out
}
