package apiserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The presence and semantic checks of the built-in kinds' validation (kubernetes
// pkg/apis/{core,apps,batch}/validation), after the object is decoded and defaulted and,
// on create, after the namespace admission check; on update after the resourceVersion
// precondition. Presence comes from the schema's required lists; a few semantic rules a
// workshop meets first are written out: a pod needs containers with an image, a workload's
// selector must match its template's labels, a Job's pods may not restart Always.

// kindCauses returns the validation causes of obj's spec, in the real server's order.
func kindCauses(res *resource, obj *api.Unstructured) []api.StatusCause {
	if !res.info.builtin {
		return customCauses(res, obj)
	}
	var causes []api.StatusCause
	templatePath := ""
	switch res.info.Group + "/" + res.info.Kind {
	case apiextensionsGroup + "/CustomResourceDefinition":
		causes = append(causes, crdCauses(obj)...)
	case "/Pod":
		causes = append(causes, podSpecCauses(obj.Object, "spec")...)
	case "apps/Deployment", "apps/ReplicaSet", "apps/StatefulSet", "apps/DaemonSet":
		causes = append(causes, workloadCauses(obj.Object)...)
		templatePath = "spec.template"
	case "batch/Job":
		causes = append(causes, jobTemplateCauses(obj.Object, "spec.template")...)
		templatePath = "spec.template"
	case "batch/CronJob":
		causes = append(causes, jobTemplateCauses(obj.Object, "spec.jobTemplate.spec.template")...)
		templatePath = "spec.jobTemplate.spec.template"
	}
	if sch, ok := schema.ForKind(res.info.GVK()); ok {
		for _, p := range sch.Validate(obj.Object).Required {
			// A template's presence is reported through what it lacks, as the real
			// validation does; so are the pod spec's containers.
			if p == templatePath || strings.HasSuffix(p, "spec.containers") || slices.ContainsFunc(causes, func(c api.StatusCause) bool { return c.Field == p }) {
				continue
			}
			causes = append(causes, validation.Required(p, ""))
		}
	}
	return causes
}

func nestedAt(obj map[string]any, path string) any {
	var cur any = obj
	for _, f := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[f]
	}
	return cur
}

// podSpecCauses mirrors the containers part of ValidatePodSpec: at least one container, and
// each with an image (validateContainerCommon).
func podSpecCauses(obj map[string]any, specPath string) []api.StatusCause {
	containers, _ := nestedAt(obj, specPath+".containers").([]any)
	if len(containers) == 0 {
		return []api.StatusCause{validation.Required(specPath+".containers", "")}
	}
	var causes []api.StatusCause
	for i, c := range containers {
		m, _ := c.(map[string]any)
		if img, _ := m["image"].(string); strings.TrimSpace(img) == "" {
			causes = append(causes, validation.Required(fmt.Sprintf("%s.containers[%d].image", specPath, i), ""))
		}
	}
	return causes
}

// workloadCauses mirrors the selector and template checks of ValidateDeploymentSpec (and
// the ReplicaSet, StatefulSet and DaemonSet ones): a selector is required, it must select
// the template's labels, and the template needs a pod spec with containers.
func workloadCauses(obj map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	sel, _ := nestedAt(obj, "spec.selector").(map[string]any)
	labels, _ := nestedAt(obj, "spec.template.metadata.labels").(map[string]any)
	switch {
	case sel == nil:
		causes = append(causes, validation.Required("spec.selector", ""))
	case len(sel) == 0 || (len(asMap(sel["matchLabels"])) == 0 && len(asSlice(sel["matchExpressions"])) == 0):
		causes = append(causes, invalidRaw("spec.selector", "v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}", "empty selector is invalid for deployment"))
	case !selectorMatches(sel, labels):
		causes = append(causes, invalidRaw("spec.template.metadata.labels", goMap(labels), "`selector` does not match template `labels`"))
	}
	return append(causes, podSpecCauses(obj, "spec.template.spec")...)
}

// jobTemplateCauses mirrors ValidateJobSpec's template checks: containers, and a restart
// policy of OnFailure or Never.
func jobTemplateCauses(obj map[string]any, template string) []api.StatusCause {
	causes := podSpecCauses(obj, template+".spec")
	if rp, _ := nestedAt(obj, template+".spec.restartPolicy").(string); rp != "OnFailure" && rp != "Never" {
		causes = append(causes, validation.NotSupported(template+".spec.restartPolicy", rp, []string{"OnFailure", "Never"}))
	}
	return causes
}

// invalidRaw is field.Invalid with a value printed as Go's %#v would, unquoted.
func invalidRaw(path, value, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: path, Message: "Invalid value: " + value + ": " + detail}
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asSlice(v any) []any        { s, _ := v.([]any); return s }

// selectorMatches applies a LabelSelector (matchLabels and matchExpressions) to labels.
func selectorMatches(sel, labels map[string]any) bool {
	get := func(k string) (string, bool) {
		v, ok := labels[k].(string)
		return v, ok
	}
	for k, v := range asMap(sel["matchLabels"]) {
		if got, ok := get(k); !ok || got != v {
			return false
		}
	}
	for _, e := range asSlice(sel["matchExpressions"]) {
		m := asMap(e)
		key, _ := m["key"].(string)
		op, _ := m["operator"].(string)
		var values []string
		for _, v := range asSlice(m["values"]) {
			s, _ := v.(string)
			values = append(values, s)
		}
		got, has := get(key)
		switch op {
		case "In":
			if !has || !slices.Contains(values, got) {
				return false
			}
		case "NotIn":
			if has && slices.Contains(values, got) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		}
	}
	return true
}

// goMap prints labels as Go's %#v prints a map[string]string, which the real message shows.
func goMap(labels map[string]any) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v, _ := labels[k].(string)
		parts[i] = strconv.Quote(k) + ":" + strconv.Quote(v)
	}
	return "map[string]string{" + strings.Join(parts, ", ") + "}"
}
