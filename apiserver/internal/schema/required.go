package schema

import "encoding/json"

// MissingRequired is Validate(obj).Required, edits included, for a caller that wants only the
// missing required members (a strategy's validation, after the decoder has already checked
// and pruned the object). Most objects have nothing missing, nothing unknown and no null:
// one unsorted walk that parses no scalar finds that, and then Validate would have changed
// nothing and listed nothing. Anything else, even where Validate would not look (below a
// value of the wrong type), is left to Validate itself.
func (s *Schema) MissingRequired(obj map[string]any) []string {
	if s.quietObject(obj, true, false) {
		return nil
	}
	return s.Validate(obj).Required
}

// quietObject reports whether Validate's object walk of m would remove nothing, replace
// nothing and find no required member missing.
func (s *Schema) quietObject(m map[string]any, top, inStatus bool) bool {
	for k, x := range m {
		child, known := s.Member(k)
		if !known {
			return false // pruned
		}
		if !quietValue(child, x, inStatus || (top && k == "status")) {
			return false
		}
	}
	return s.Kind != KindObject || inStatus || len(s.Missing(m)) == 0
}

func quietValue(s *Schema, x any, inStatus bool) bool {
	switch t := x.(type) {
	case nil:
		return false // dropped, or replaced by the zero value
	case map[string]any:
		if s != nil && (s.Kind == KindObject || s.Kind == KindMap) {
			return s.quietObject(t, false, inStatus)
		}
	case []any:
		if s != nil && s.Kind == KindArray {
			for _, e := range t {
				if !quietValue(s.Items, e, inStatus) {
					return false
				}
			}
		}
	case string, bool, int64, int, float64, json.Number:
	default:
		// Not a JSON tree value (the json.RawMessage of a managedFields entry's fieldsV1):
		// Validate takes it for an object and walks into it only where an object belongs,
		// and what it does there (it cannot read it as one), it does.
		return s == nil || (s.Kind != KindObject && s.Kind != KindMap)
	}
	return true
}
