package validation

import (
	"strconv"

	"github.com/informer-lab/informer-lab/api"
)

// LabelSelectorCauses mirrors ValidateLabelSelector of k8s.io/apimachinery's
// apis/meta/v1/validation for a LabelSelector held as a JSON tree at path: matchLabels as
// labels (keys sorted, where upstream walks the map at random), then each of
// matchExpressions: its operator and the values it takes, its key, its values.
func LabelSelectorCauses(sel map[string]any, path string) []api.StatusCause {
	if sel == nil {
		return nil
	}
	match, _ := sel["matchLabels"].(map[string]any)
	labels := make(map[string]string, len(match))
	for k, v := range match {
		s, _ := v.(string)
		labels[k] = s
	}
	causes := validateLabels(labels, path+".matchLabels")
	exprs, _ := sel["matchExpressions"].([]any)
	for i, e := range exprs {
		expr, _ := e.(map[string]any)
		p := path + ".matchExpressions[" + strconv.Itoa(i) + "]"
		op, _ := expr["operator"].(string)
		values, _ := expr["values"].([]any)
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				causes = append(causes, Required(p+".values", "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				causes = append(causes, Forbidden(p+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			causes = append(causes, Invalid(p+".operator", op, "not a valid selector operator"))
		}
		key, _ := expr["key"].(string)
		for _, m := range isQualifiedName(key) {
			causes = append(causes, Invalid(p+".key", key, m))
		}
		for j, v := range values {
			s, _ := v.(string)
			for _, m := range isLabelValue(s) {
				causes = append(causes, Invalid(p+".values["+strconv.Itoa(j)+"]", s, m))
			}
		}
	}
	return causes
}
