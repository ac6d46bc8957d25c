package structural

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// correlation pairs a part of an updated object with the same part of the stored one. It
// mirrors common.CorrelatedObject of k8s.io/apiserver pkg/cel/common: members of objects and
// maps correlate by name (when the schema knows them), items of a map-list by their keys,
// items of other lists not at all.
type correlation struct {
	value, old any
	schema     *Schema
	equalDone  bool
	isEqual    bool
	oldByKey   map[string]any // a map-list's old items by key, built on first use
}

func newCorrelation(value, old any, s *Schema) *correlation {
	return &correlation{value: value, old: old, schema: s}
}

// key is the correlation of member k, or nil. At the root apiVersion and kind are never
// correlated (ratchetingValueValidator.SubPropertyValidator).
func (c *correlation) key(k string, atRoot bool) *correlation {
	if c == nil || c.schema == nil || (atRoot && (k == "apiVersion" || k == "kind")) {
		return nil
	}
	om, ok1 := c.old.(map[string]any)
	nm, ok2 := c.value.(map[string]any)
	if !ok1 || !ok2 {
		return nil
	}
	ov, ok1 := om[k]
	nv, ok2 := nm[k]
	if !ok1 || !ok2 {
		return nil
	}
	s := c.schema.Properties[k]
	if s == nil {
		s = c.schema.AdditionalProperties
	}
	if s == nil {
		return nil
	}
	return &correlation{value: nv, old: ov, schema: s}
}

// index is the correlation of item i of a map-list, or nil.
func (c *correlation) index(i int) *correlation {
	if c == nil || c.schema == nil || c.schema.Items == nil || c.schema.ListType == nil || *c.schema.ListType != "map" {
		return nil
	}
	nl, ok1 := c.value.([]any)
	ol, ok2 := c.old.([]any)
	if !ok1 || !ok2 || i >= len(nl) {
		return nil
	}
	if c.oldByKey == nil {
		c.oldByKey = map[string]any{}
		for _, e := range ol {
			if k, ok := mapListKey(c.schema.ListMapKeys, e); ok {
				if _, seen := c.oldByKey[k]; !seen {
					c.oldByKey[k] = e
				}
			}
		}
	}
	k, ok := mapListKey(c.schema.ListMapKeys, nl[i])
	if !ok {
		return nil
	}
	ov, ok := c.oldByKey[k]
	if !ok {
		return nil
	}
	return &correlation{value: nl[i], old: ov, schema: c.schema.Items}
}

// mapListKey is an item's composite key; false when a key is missing or not a scalar.
func mapListKey(keys []string, item any) (string, bool) {
	m, ok := item.(map[string]any)
	if !ok || len(keys) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, k := range keys {
		switch v := m[k].(type) {
		case bool, int64, float64, string:
			fmt.Fprintf(&b, "\x00%T:%v", v, v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// equal mirrors CorrelatedObject.CachedDeepEqual.
func (c *correlation) equal() bool {
	if c == nil {
		return false
	}
	if c.equalDone {
		return c.isEqual
	}
	c.equalDone = true
	c.isEqual = c.compare()
	return c.isEqual
}

func (c *correlation) compare() bool {
	if c.value == nil || c.old == nil {
		return c.value == nil && c.old == nil
	}
	switch nv := c.value.(type) {
	case []any:
		ov, ok := c.old.([]any)
		if !ok || len(ov) != len(nv) {
			return false
		}
		if c.schema.ListType == nil || *c.schema.ListType != "map" {
			return reflect.DeepEqual(ov, nv)
		}
		for i := range nv {
			if !c.index(i).equal() {
				return false
			}
		}
		return true
	case map[string]any:
		ov, ok := c.old.(map[string]any)
		if !ok || len(ov) != len(nv) {
			return false
		}
		for k := range nv {
			if !c.key(k, false).equal() {
				return false
			}
		}
		return true
	}
	if _, isList := c.old.([]any); isList {
		return false
	}
	if _, isMap := c.old.(map[string]any); isMap {
		return false
	}
	return reflect.DeepEqual(c.old, c.value)
}

// Correlation is the correlation the CEL validator ratchets its rules with, as
// apiextensions-apiserver's schema/cel ratchetingOptions walks a common.CorrelatedObject.
type Correlation = correlation

// NewCorrelation mirrors common.NewCorrelatedObject: value is the updated object, old the
// stored one, s the schema of both.
func NewCorrelation(value, old any, s *Schema) *Correlation { return newCorrelation(value, old, s) }

// Key mirrors CorrelatedObject.Key: the correlation of member k, nil when k is not in both
// values or the schema does not know it.
func (c *correlation) Key(k string) *Correlation { return c.key(k, false) }

// Index mirrors CorrelatedObject.Index: the correlation of item i, nil unless the list is a
// map-list and an old item has the same keys (set and atomic items never correlate).
func (c *correlation) Index(i int) *Correlation { return c.index(i) }

// Equal mirrors CorrelatedObject.CachedDeepEqual: false for nil; a map-list equals its old
// value item by item whatever the order.
func (c *correlation) Equal() bool { return c.equal() }

// CauseTypeRatchetWarning marks a cause that is not an error: a failed rule on a value an
// update left unchanged, which apiextensions-apiserver tolerates and sends as a Warning
// header (warning.AddWarning in its CEL validator). Its Message is the whole warning text,
// "<field>: <error>"; the store sends it and drops the cause.
const CauseTypeRatchetWarning api.CauseType = "RatchetWarning"

// SplitWarnings separates the ratchet warnings from the causes that are errors.
func SplitWarnings(causes []api.StatusCause) (errs []api.StatusCause, warnings []string) {
	for _, c := range causes {
		if c.Type == CauseTypeRatchetWarning {
			warnings = append(warnings, c.Message)
			continue
		}
		errs = append(errs, c)
	}
	return errs, warnings
}
