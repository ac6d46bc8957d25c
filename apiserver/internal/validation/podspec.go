package validation

import (
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// The presence and semantic checks of pod specs and workloads that several kinds share
// (kubernetes pkg/apis/{core,apps,batch}/validation): a pod needs containers with an image,
// a workload's selector must match its template's labels, a Job's pods may not restart
// Always.

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

// JobTemplateCauses mirrors validateJobSpec: the counts that may not be negative, then the
// template's checks: containers, and a restart policy of OnFailure or Never.
func JobTemplateCauses(obj map[string]any, template string) []api.StatusCause {
	var causes []api.StatusCause
	specPath := strings.TrimSuffix(template, ".template")
	spec := asMap(nestedAt(obj, specPath))
	for _, f := range []string{"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
		"ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"} {
		causes = append(causes, NonNegative(spec, f, specPath+"."+f)...)
	}
	causes = append(causes, TemplateCauses(obj, template)...)
	switch rp, _ := nestedAt(obj, template+".spec.restartPolicy").(string); rp {
	case "OnFailure", "Never":
	case "", "Always": // the pod defaults make an empty one Always
		causes = append(causes, Required(template+".spec.restartPolicy", `valid values: "OnFailure", "Never"`))
	default:
		causes = append(causes, NotSupported(template+".spec.restartPolicy", rp, []string{"OnFailure", "Never"}))
	}
	return causes
}

// InvalidRaw is field.Invalid with a value printed as Go's %#v would, unquoted.
func InvalidRaw(path, value, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: path, Message: "Invalid value: " + value + ": " + detail}
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asSlice(v any) []any        { s, _ := v.([]any); return s }

// SelectorMatches applies a LabelSelector (matchLabels and matchExpressions) to labels.
func SelectorMatches(sel, labels map[string]any) bool {
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

// GoMap prints labels as Go's %#v prints a map[string]string, which the real message shows.
func GoMap(labels map[string]any) string {
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
