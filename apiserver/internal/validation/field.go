package validation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Field error constructors. Each returns the StatusCause that field.Error becomes inside an
// Invalid Status: Message is the error body without the field path.

// Required mirrors field.Required in k8s.io/apimachinery/pkg/util/validation/field.
func Required(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueRequired, Field: path, Message: withDetail("Required value", detail)}
}

// Invalid mirrors field.Invalid in k8s.io/apimachinery/pkg/util/validation/field.
func Invalid(path string, value any, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: path,
		Message: withDetail("Invalid value: "+badValue(value), detail)}
}

// Forbidden mirrors field.Forbidden in k8s.io/apimachinery/pkg/util/validation/field.
func Forbidden(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeForbidden, Field: path, Message: withDetail("Forbidden", detail)}
}

// maxSupportedValuesBytes bounds the list of valid values NotSupported spells out.
const maxSupportedValuesBytes = 4 << 10

// NotSupported mirrors field.NotSupported in k8s.io/apimachinery/pkg/util/validation/field:
// the value and the quoted list of valid ones.
func NotSupported(path string, value any, valid []string) api.StatusCause {
	return NotSupportedOf(path, value, len(valid), func(i int) string { return valid[i] })
}

// NotSupportedOf is NotSupported of n valid values that valid(i) spells, for a caller whose
// values are not strings yet: only those the message shows are asked for.
func NotSupportedOf(path string, value any, n int, valid func(i int) string) api.StatusCause {
	detail := ""
	if n > 0 {
		var b strings.Builder
		b.WriteString("supported values: ")
		for i := range n {
			if b.Len() > maxSupportedValuesBytes {
				// Upstream spells every value; a schema's enum can hold thousands, and
				// each bad value would repeat them all (see api.MaxStatusBytes).
				fmt.Fprintf(&b, ", and %d more", n-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(valid(i)))
		}
		detail = b.String()
	}
	return api.StatusCause{Type: api.CauseTypeFieldValueNotSupported, Field: path,
		Message: withDetail("Unsupported value: "+badValue(value), detail)}
}

// TooLong mirrors field.TooLong in k8s.io/apimachinery/pkg/util/validation/field, with a
// limit in bytes.
func TooLong(path string, maxBytes int) api.StatusCause {
	unit := "bytes"
	if maxBytes == 1 {
		unit = "byte"
	}
	return api.StatusCause{Type: api.CauseTypeTooLong, Field: path,
		Message: fmt.Sprintf("Too long: may not be more than %d %s", maxBytes, unit)}
}

func withDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}

// badValue prints a bad value as field.Error.ErrorBody does: strings quoted, numbers and
// booleans plain, anything else as JSON.
func badValue(v any) string {
	switch t := v.(type) {
	case string:
		return strconv.Quote(t)
	case int, int32, int64, float32, float64, bool:
		return fmt.Sprint(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// LabelSelector is metav1.LabelSelector as encoding/json writes it: its members in the Go
// struct's order, for messages and annotations that embed a selector's JSON.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement as encoding/json writes it.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// LabelSelectorOf reads a LabelSelector member of a JSON tree; nil for a missing one.
func LabelSelectorOf(v any) *LabelSelector {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	sel := &LabelSelector{}
	if ml, ok := m["matchLabels"].(map[string]any); ok {
		sel.MatchLabels = map[string]string{}
		for k, v := range ml {
			s, _ := v.(string)
			sel.MatchLabels[k] = s
		}
	}
	for _, e := range asSlice(m["matchExpressions"]) {
		em := asMap(e)
		r := LabelSelectorRequirement{}
		r.Key, _ = em["key"].(string)
		r.Operator, _ = em["operator"].(string)
		for _, v := range asSlice(em["values"]) {
			s, _ := v.(string)
			r.Values = append(r.Values, s)
		}
		sel.MatchExpressions = append(sel.MatchExpressions, r)
	}
	return sel
}
