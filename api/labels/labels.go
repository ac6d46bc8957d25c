package labels

import (
	"slices"
	"strings"
)

// Labels mirrors labels.Labels in k8s.io/apimachinery/pkg/labels: read-only access to the
// labels of one object, so selectors can match without knowing the object's type.
type Labels interface {
	// Has reports whether the key is present, even with an empty value.
	Has(label string) (exists bool)
	// Get returns the value for the key, or "" when absent.
	Get(label string) (value string)
}

// Set mirrors labels.Set in k8s.io/apimachinery/pkg/labels: a plain map of labels.
type Set map[string]string

// Has mirrors labels.Set.Has.
func (ls Set) Has(label string) bool {
	_, ok := ls[label]
	return ok
}

// Get mirrors labels.Set.Get.
func (ls Set) Get(label string) string {
	return ls[label]
}

// String mirrors labels.Set.String: "a=b,c=d", sorted by key so the output is stable.
func (ls Set) String() string {
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(ls[k])
	}
	return b.String()
}

// AsSelector mirrors labels.Set.AsSelector: a selector requiring every key=value in the set.
func (ls Set) AsSelector() Selector {
	return SelectorFromSet(ls)
}
