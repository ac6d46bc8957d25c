package app

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
)

// LabelSelector is metav1.LabelSelector's JSON shape.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement's JSON shape.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// LabelSelectorAsSelector mirrors metav1.LabelSelectorAsSelector: nil selects nothing, an
// empty selector everything.
func LabelSelectorAsSelector(ps *LabelSelector) (labels.Selector, error) {
	if ps == nil {
		return labels.Nothing(), nil
	}
	if len(ps.MatchLabels)+len(ps.MatchExpressions) == 0 {
		return labels.Everything(), nil
	}
	var reqs []labels.Requirement
	for k, v := range ps.MatchLabels {
		r, err := labels.NewRequirement(k, labels.Equals, []string{v})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	for _, e := range ps.MatchExpressions {
		var op labels.Operator
		switch e.Operator {
		case "In":
			op = labels.In
		case "NotIn":
			op = labels.NotIn
		case "Exists":
			op = labels.Exists
		case "DoesNotExist":
			op = labels.DoesNotExist
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := labels.NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	return labels.Everything().Add(reqs...), nil
}

// SelectorOf reads the label selector at path (for example "spec", "selector") of u.
func SelectorOf(u *api.Unstructured, path ...string) (labels.Selector, error) {
	raw, ok := nested(u.Object, path...)
	if !ok || raw == nil {
		return labels.Nothing(), nil
	}
	ps, err := FromUnstructured[LabelSelector](&api.Unstructured{Object: asMap(raw)})
	if err != nil {
		return nil, err
	}
	return LabelSelectorAsSelector(ps)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// nested walks maps along path.
func nested(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}
