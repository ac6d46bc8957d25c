package batch

import (
	"encoding/json"
	"maps"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The labels a Job's generated selector is made of (pkg/apis/batch/types.go): the legacy
// unprefixed pair and the batch.kubernetes.io pair.
const (
	legacyJobNameLabel       = "job-name"
	jobNameLabel             = "batch.kubernetes.io/job-name"
	legacyControllerUIDLabel = "controller-uid"
	controllerUIDLabel       = "batch.kubernetes.io/controller-uid"
)

// jobStrategy mirrors pkg/registry/batch/job/strategy.go: the template's checks, and the
// selector the server generates unless spec.manualSelector is true.
type jobStrategy struct{ templateStrategy }

// PrepareAfterAdmission implements rest.LatePreparer: PrepareForCreate's
// generateSelectorIfNeeded, which upstream runs after the defaults and mutating admission,
// so the defaults copy only the labels the user gave the template to the Job's own.
func (jobStrategy) PrepareAfterAdmission(obj *api.Unstructured) {
	spec, _ := obj.Object["spec"].(map[string]any)
	if manual, _ := spec["manualSelector"].(bool); !manual {
		generateSelector(obj)
	}
}

// generateSelector mirrors generateSelector: the name and uid labels on the template,
// each only where the user has not set it, and a selector on the batch.kubernetes.io uid
// label unless the selector already names it. A conflict the user made is validation's.
func generateSelector(obj *api.Unstructured) {
	spec := child(obj.Object, "spec")
	tmpl := child(spec, "template")
	md := child(tmpl, "metadata")
	labels := child(md, "labels")
	name, uid := obj.GetName(), obj.GetUID()
	for k, v := range map[string]string{legacyJobNameLabel: name, jobNameLabel: name, legacyControllerUIDLabel: uid, controllerUIDLabel: uid} {
		if _, found := labels[k]; !found {
			labels[k] = v
		}
	}
	match := child(child(spec, "selector"), "matchLabels")
	if _, found := match[controllerUIDLabel]; !found {
		match[controllerUIDLabel] = uid
	}
}

// child returns m[key] as an object, creating it (or replacing a null) when absent.
func child(m map[string]any, key string) map[string]any {
	c, ok := m[key].(map[string]any)
	if !ok {
		c = map[string]any{}
		m[key] = c
	}
	return c
}

// Validate implements rest.Strategy: ValidateJob's order, validateGeneratedSelector first,
// then the spec's template checks, the selector's presence and its match of the template
// labels, then presence.
func (s jobStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	causes := generatedSelectorCauses(obj)
	causes = append(causes, validation.JobTemplateCauses(obj.Object, s.template)...)
	spec, _ := obj.Object["spec"].(map[string]any)
	sel, hasSel := spec["selector"].(map[string]any)
	labelMap := templateLabels(obj)
	if !hasSel {
		causes = append(causes, validation.Required("spec.selector", ""))
	}
	// A missing selector selects nothing (LabelSelectorAsSelector(nil)).
	if !hasSel || !validation.SelectorMatches(sel, labelMap) {
		causes = append(causes, validation.Invalid("spec.template.metadata.labels", labelMap, "`selector` does not match template `labels`"))
	}
	return rest.RequiredCauses(s.GVK, obj, causes, s.template)
}

// generatedSelectorCauses mirrors validateGeneratedSelector with RequirePrefixedLabels, as
// on every create: without manualSelector the template must carry the four labels with
// the Job's name and uid, and the selector must select them.
func generatedSelectorCauses(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	if manual, _ := spec["manualSelector"].(bool); manual {
		return nil
	}
	sel, ok := spec["selector"].(map[string]any)
	if !ok {
		return nil
	}
	var causes []api.StatusCause
	if obj.GetUID() == "" {
		causes = append(causes, validation.Required("metadata.uid", ""))
	}
	labelMap := templateLabels(obj)
	name, uid := obj.GetName(), obj.GetUID()
	expected := map[string]any{}
	for _, l := range []struct{ key, value string }{
		{legacyControllerUIDLabel, uid}, {legacyJobNameLabel, name}, {controllerUIDLabel, uid}, {jobNameLabel, name},
	} {
		causes = append(causes, hasLabelCauses(labelMap, l.key, l.value)...)
		expected[l.key] = l.value
	}
	if !validation.SelectorMatches(sel, expected) {
		causes = append(causes, validation.InvalidRaw("spec.selector", selectorJSON(sel), "`selector` not auto-generated"))
	}
	return causes
}

// templateLabels is the template's label map, nil when it has none.
func templateLabels(obj *api.Unstructured) map[string]any {
	labels, _, _ := api.NestedMap(obj.Object, "spec", "template", "metadata", "labels")
	return labels
}

// hasLabelCauses mirrors ValidateHasLabel on the template's metadata: a wrong value is
// reported with the whole label map.
func hasLabelCauses(labels map[string]any, key, want string) []api.StatusCause {
	path := "spec.template.metadata.labels[" + key + "]"
	v, found := labels[key]
	switch {
	case !found:
		return []api.StatusCause{validation.Required(path, "must be '"+want+"'")}
	case v != want:
		return []api.StatusCause{validation.Invalid(path, labels, "must be '"+want+"'")}
	}
	return nil
}

// selectorJSON prints a LabelSelector as encoding/json prints the Go struct: matchLabels
// (keys sorted), then matchExpressions, each key, operator and values.
func selectorJSON(sel map[string]any) string {
	type requirement struct {
		Key      string   `json:"key"`
		Operator string   `json:"operator"`
		Values   []string `json:"values,omitempty"`
	}
	var out struct {
		MatchLabels      map[string]string `json:"matchLabels,omitempty"`
		MatchExpressions []requirement     `json:"matchExpressions,omitempty"`
	}
	match, _ := sel["matchLabels"].(map[string]any)
	for k, v := range match {
		if out.MatchLabels == nil {
			out.MatchLabels = map[string]string{}
		}
		out.MatchLabels[k], _ = v.(string)
	}
	exprs, _ := sel["matchExpressions"].([]any)
	for _, e := range exprs {
		m, _ := e.(map[string]any)
		r := requirement{}
		r.Key, _ = m["key"].(string)
		r.Operator, _ = m["operator"].(string)
		vals, _ := m["values"].([]any)
		for _, v := range vals {
			s, _ := v.(string)
			r.Values = append(r.Values, s)
		}
		out.MatchExpressions = append(out.MatchExpressions, r)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Jobs is the jobs resource (pkg/registry/batch/job). The label says "successful"; the
// member it reads is status.succeeded.
func Jobs() rest.Kind {
	return rest.Kind{Group: "batch", Resource: "jobs", Kind: "Job", Categories: []string{"all"},
		Fields:   map[string]rest.FieldRead{"status.successful": rest.IntField("status.succeeded")},
		Strategy: jobStrategy{templated("Job", "spec.template")}}
}

// ValidateUpdate implements rest.Strategy: ValidateJobSpecUpdate's immutable selector and
// template. The real message prints the internal template as Go's JSON of the struct; the
// v1 JSON is printed here.
func (jobStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	var causes []api.StatusCause
	if !reflect.DeepEqual(spec["selector"], oldSpec["selector"]) {
		causes = append(causes, validation.Invalid("spec.selector", validation.LabelSelectorOf(spec["selector"]), "field is immutable"))
	}
	if !reflect.DeepEqual(spec["template"], oldSpec["template"]) {
		causes = append(causes, validation.Invalid("spec.template", spec["template"], "field is immutable"))
	}
	return causes
}

// BeginCreate implements rest.Hooks: the Job's labels default to its template's once more,
// as every read of the stored Job defaults them upstream, so a Job created without labels
// shows the generated ones; validation has already judged only the labels it was given.
func (jobStrategy) BeginCreate(_ rest.Context, obj *api.Unstructured) error {
	if len(obj.GetLabels()) > 0 {
		return nil
	}
	if labels := templateLabels(obj); len(labels) > 0 {
		child(obj.Object, "metadata")["labels"] = maps.Clone(labels)
	}
	return nil
}

// AfterDelete implements rest.Hooks: nothing to release.
func (jobStrategy) AfterDelete(*api.Unstructured) {}
