package structural

import (
	"fmt"
	"reflect"
	"strings"
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
