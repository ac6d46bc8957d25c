package apiserver

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
)

// selectors are the parsed labelSelector and fieldSelector of a LIST or WATCH (L17–L21).
// nil selectors match everything.
type selectors struct {
	label     labels.Selector
	field     fields.Selector
	labelText string
	fieldText string
}

// parseSelectors parses and checks both selectors for res: syntax errors are 400 with the
// parser's text (E29, E30), unsupported field labels 400 with the kind's text (E31).
func parseSelectors(res *resource, labelText, fieldText string) (selectors, error) {
	sel := selectors{labelText: labelText, fieldText: fieldText}
	if labelText != "" {
		ls, err := labels.Parse(labelText)
		if err != nil {
			return sel, api.NewBadRequest(err.Error())
		}
		if !ls.Empty() {
			sel.label = ls
		}
	}
	if fieldText != "" {
		fs, err := fields.ParseSelector(fieldText)
		if err != nil {
			return sel, api.NewBadRequest(err.Error())
		}
		if res.Info.Kind == "Pod" && res.Builtin {
			if fs, err = fs.Transform(podFieldLabelAlias); err != nil {
				return sel, api.NewBadRequest(err.Error())
			}
		}
		if err := decode.ValidateFieldSelectorFields(fs, res.Info.AllowedFields(), fieldSelectorKind(res)); err != nil {
			return sel, err
		}
		if !fs.Empty() {
			sel.field = fs
		}
	}
	return sel, nil
}

// fieldSelectorKind names the kind whose field-label error text applies (L19): Pod and
// Namespace have their own conversion functions, everything else the default one.
func fieldSelectorKind(res *resource) string {
	if res.Builtin {
		return res.Info.Kind
	}
	return ""
}

func (sel selectors) empty() bool { return sel.label == nil && sel.field == nil }

// keepFunc returns the filter a record must pass, or nil when everything passes.
func (sel selectors) keepFunc(res *resource) func(*record) bool {
	if sel.empty() {
		return nil
	}
	return func(r *record) bool {
		if sel.label != nil && !sel.label.Matches(labels.Set(r.Obj.GetLabels())) {
			return false
		}
		return sel.field == nil || sel.field.Matches(res.Info.FieldsOf(r.Obj))
	}
}
