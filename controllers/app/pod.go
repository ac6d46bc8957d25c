package app

import (
	"maps"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// PodPhase returns status.phase ("" when unset).
func PodPhase(pod *api.Unstructured) string {
	v, _ := nested(pod.Object, "status", "phase")
	s, _ := v.(string)
	return s
}

// IsPodActive mirrors controller.IsPodActive: not Succeeded, not Failed, not being deleted.
func IsPodActive(pod *api.Unstructured) bool {
	p := PodPhase(pod)
	return p != "Succeeded" && p != "Failed" && pod.GetDeletionTimestamp() == nil
}

// IsPodReady mirrors podutil.IsPodReady: the Ready condition is True.
func IsPodReady(pod *api.Unstructured) bool {
	return PodConditionStatus(pod, "Ready") == "True"
}

// PodConditionStatus returns the status of the pod's condition of type t, "" if absent.
func PodConditionStatus(pod *api.Unstructured, t string) string {
	v, _ := nested(pod.Object, "status", "conditions")
	list, _ := v.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		if m["type"] == t {
			s, _ := m["status"].(string)
			return s
		}
	}
	return ""
}

// NodeName returns spec.nodeName ("" while unscheduled).
func NodeName(pod *api.Unstructured) string {
	v, _ := nested(pod.Object, "spec", "nodeName")
	s, _ := v.(string)
	return s
}

// GetPodFromTemplate mirrors controller.GetPodFromTemplate: a pod to create from the
// template at template (a PodTemplateSpec's JSON shape) for owner, named by generateName
// "<owner>-" unless the caller sets a name, with the template's labels, annotations and
// finalizers and the owner reference ref.
func GetPodFromTemplate(template map[string]any, owner *api.Unstructured, ref *api.OwnerReference) *api.Unstructured {
	meta, _ := template["metadata"].(map[string]any)
	spec, _ := template["spec"].(map[string]any)
	pod := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata":   map[string]any{},
		"spec":       deepCopyJSON(spec),
	}}
	pod.SetNamespace(owner.GetNamespace())
	pod.SetGenerateName(generateNamePrefix(owner.GetName()))
	if meta != nil {
		if l := stringMap(meta["labels"]); len(l) > 0 {
			pod.SetLabels(l)
		}
		if a := stringMap(meta["annotations"]); len(a) > 0 {
			pod.SetAnnotations(a)
		}
		if f, ok := meta["finalizers"].([]any); ok {
			var fs []string
			for _, x := range f {
				if s, ok := x.(string); ok {
					fs = append(fs, s)
				}
			}
			pod.SetFinalizers(fs)
		}
	}
	if ref != nil {
		pod.SetOwnerReferences([]api.OwnerReference{*ref})
	}
	return pod
}

// generateNamePrefix mirrors getPodsPrefix: "<name>-", with upstream's cut to keep room for
// the generated suffix.
func generateNamePrefix(name string) string {
	prefix := name + "-"
	const maxGeneratedNameLength = 58 // 63 minus the five random characters
	if len(prefix) > maxGeneratedNameLength {
		prefix = strings.TrimRight(prefix[:maxGeneratedNameLength], "-.") + "-"
	}
	return prefix
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s, ok := x.(string); ok {
			out[k] = s
		}
	}
	return out
}

// deepCopyJSON copies a JSON-shaped value.
func deepCopyJSON[T any](v T) T {
	var copyAny func(any) any
	copyAny = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			m := make(map[string]any, len(t))
			for k, e := range t {
				m[k] = copyAny(e)
			}
			return m
		case []any:
			l := make([]any, len(t))
			for i, e := range t {
				l[i] = copyAny(e)
			}
			return l
		default:
			return t
		}
	}
	out, _ := copyAny(v).(T)
	return out
}

// Nested mirrors unstructured.NestedFieldNoCopy: the value at path, and whether it exists.
func Nested(obj map[string]any, path ...string) (any, bool) { return nested(obj, path...) }

// NestedString returns the string at path, "" if absent or not a string.
func NestedString(obj map[string]any, path ...string) string {
	v, _ := nested(obj, path...)
	s, _ := v.(string)
	return s
}

// NestedInt64 returns the integer at path and whether it is there (JSON numbers decode as
// int64 or float64).
func NestedInt64(obj map[string]any, path ...string) (int64, bool) {
	v, ok := nested(obj, path...)
	if !ok {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return n, true
	case float64:
		return int64(n), true
	case int:
		return int64(n), true
	}
	return 0, false
}

// NestedMap returns the map at path, nil if absent.
func NestedMap(obj map[string]any, path ...string) map[string]any {
	v, _ := nested(obj, path...)
	m, _ := v.(map[string]any)
	return m
}

// CopyStringMap returns a copy of m (nil for nil).
func CopyStringMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}
