package fields

import (
	"slices"
	"strings"
)

// Fields mirrors fields.Fields in k8s.io/apimachinery/pkg/fields: read access to the
// selectable fields of one object ("metadata.name", "spec.nodeName", ...).
type Fields interface {
	// Has reports whether the field is present.
	Has(field string) (exists bool)
	// Get returns the field's value, or "" when absent; selectors rely on that (L20).
	Get(field string) (value string)
}

// Set mirrors fields.Set in k8s.io/apimachinery/pkg/fields: a plain map of field values.
type Set map[string]string

// Has mirrors fields.Set.Has.
func (fs Set) Has(field string) bool {
	_, ok := fs[field]
	return ok
}

// Get mirrors fields.Set.Get.
func (fs Set) Get(field string) string {
	return fs[field]
}

// String mirrors fields.Set.String: the "field=value" pairs sorted and joined by ",".
// Like upstream it does not escape values; use AsSelector().String() for parseable text.
func (fs Set) String() string {
	pairs := make([]string, 0, len(fs))
	for k, v := range fs {
		pairs = append(pairs, k+"="+v)
	}
	slices.Sort(pairs)
	return strings.Join(pairs, ",")
}

// AsSelector mirrors fields.Set.AsSelector: a selector requiring every field=value in the set.
func (fs Set) AsSelector() Selector {
	return SelectorFromSet(fs)
}
