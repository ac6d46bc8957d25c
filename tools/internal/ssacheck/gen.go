package ssacheck

import (
	"encoding/base64"
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"k8s.io/kube-openapi/pkg/validation/spec"
)

// gen draws random objects of a kind from its OpenAPI schema: small pools of names and
// values, so that managers collide on fields, list keys and set values.
type gen struct {
	r    *rand.Rand
	defs map[string]*spec.Schema
	// maxProps bounds the properties drawn per object (3 when 0).
	maxProps int
}

const (
	quantityDef    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	intOrStringDef = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	timeDef        = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
	microTimeDef   = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
	objectMetaDef  = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	rawExtDef      = "io.k8s.apimachinery.pkg.runtime.RawExtension"
	maxDepth       = 7
)

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// resolve follows a $ref (plain or in a one-element allOf) to its definition.
func (g *gen) resolve(s *spec.Schema) (*spec.Schema, string) {
	ref := s.Ref.String()
	if ref == "" && len(s.AllOf) == 1 {
		ref = s.AllOf[0].Ref.String()
	}
	if ref == "" {
		return s, ""
	}
	name := ref[strings.LastIndexByte(ref, '/')+1:]
	if d, ok := g.defs[name]; ok {
		return d, name
	}
	return &spec.Schema{}, name
}

func typeOf(s *spec.Schema) string {
	if len(s.Type) > 0 {
		return s.Type[0]
	}
	if len(s.Properties) > 0 {
		return "object"
	}
	return ""
}

// listKeys is how the type converter reads a list: its map keys, whether it is a set, or
// atomic.
func listKeys(s *spec.Schema) (keys []string, associative bool) {
	if lt, ok := s.Extensions["x-kubernetes-list-type"].(string); ok {
		switch lt {
		case "map":
			switch ks := s.Extensions["x-kubernetes-list-map-keys"].(type) {
			case []any:
				for _, k := range ks {
					keys = append(keys, k.(string))
				}
			case []string:
				keys = ks
			}
			return keys, true
		case "set":
			return nil, true
		}
		return nil, false
	}
	if ps, ok := s.Extensions["x-kubernetes-patch-strategy"].(string); ok && strings.HasPrefix(ps, "merge") {
		if k, ok := s.Extensions["x-kubernetes-patch-merge-key"].(string); ok {
			return []string{k}, true
		}
		return nil, true
	}
	return nil, false
}

var namePool = []string{"a", "b", "c"}

func (g *gen) pickString(pool []string) string { return pool[g.r.Intn(len(pool))] }

// scalar draws a value of a scalar schema (or of the special definitions).
func (g *gen) scalar(s *spec.Schema, def string) any {
	switch def {
	case quantityDef:
		return g.pickString([]string{"1", "2", "100m", "1Gi"})
	case intOrStringDef:
		if g.chance(0.5) {
			return int64(g.r.Intn(3))
		}
		return g.pickString([]string{"25%", "a", "1"})
	case timeDef:
		return fmt.Sprintf("2026-01-0%dT00:00:00Z", 1+g.r.Intn(3))
	case microTimeDef:
		return fmt.Sprintf("2026-01-0%dT00:00:00.000001Z", 1+g.r.Intn(3))
	}
	if len(s.Enum) > 0 {
		return s.Enum[g.r.Intn(len(s.Enum))]
	}
	switch typeOf(s) {
	case "integer":
		return int64(g.r.Intn(4))
	case "number":
		return []float64{0.5, 1, 2.5}[g.r.Intn(3)]
	case "boolean":
		return g.chance(0.5)
	case "string":
		switch s.Format {
		case "byte":
			return base64.StdEncoding.EncodeToString([]byte(g.pickString(namePool)))
		case "date-time":
			return fmt.Sprintf("2026-01-0%dT00:00:00Z", 1+g.r.Intn(3))
		case "int-or-string":
			return g.pickString([]string{"25%", "a"})
		}
		return g.pickString([]string{"x", "y", "z"})
	}
	return g.pickString([]string{"x", "y"})
}

// value draws a value of schema s; ok false means none (too deep, or nothing to draw).
func (g *gen) value(s *spec.Schema, depth int) (any, bool) {
	s, def := g.resolve(s)
	switch def {
	case quantityDef, intOrStringDef, timeDef, microTimeDef:
		return g.scalar(s, def), true
	case rawExtDef:
		return map[string]any{"k": g.pickString(namePool)}, true
	case objectMetaDef:
		return g.meta(), true
	}
	switch typeOf(s) {
	case "object":
		if depth >= maxDepth {
			return nil, false
		}
		return g.object(s, depth), true
	case "array":
		if depth >= maxDepth || s.Items == nil || s.Items.Schema == nil {
			return nil, false
		}
		return g.list(s, depth), true
	case "":
		if depth >= maxDepth {
			return nil, false
		}
		return g.pickString([]string{"x", "y"}), true
	}
	return g.scalar(s, def), true
}

func sortedProps(s *spec.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (g *gen) object(s *spec.Schema, depth int) map[string]any {
	out := map[string]any{}
	if len(s.Properties) > 0 {
		names := sortedProps(s)
		maxProps := g.maxProps
		if maxProps == 0 {
			maxProps = 3
		}
		n := 1 + g.r.Intn(min(maxProps, len(names)))
		for i := 0; i < n; i++ {
			name := names[g.r.Intn(len(names))]
			p := s.Properties[name]
			if v, ok := g.value(&p, depth+1); ok {
				out[name] = v
			}
		}
		return out
	}
	var elem *spec.Schema
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		elem = s.AdditionalProperties.Schema
	}
	for i, n := 0, g.r.Intn(3); i < n; i++ {
		k := g.pickString(namePool)
		if elem == nil {
			out[k] = g.pickString([]string{"x", "y"})
		} else if v, ok := g.value(elem, depth+1); ok {
			out[k] = v
		}
	}
	return out
}

func (g *gen) list(s *spec.Schema, depth int) []any {
	keys, assoc := listKeys(s)
	item := s.Items.Schema
	n := g.r.Intn(3)
	var out []any
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		v, ok := g.value(item, depth+1)
		if !ok {
			continue
		}
		if len(keys) > 0 {
			m, isMap := v.(map[string]any)
			if !isMap {
				continue
			}
			is, _ := g.resolve(item)
			for _, k := range keys {
				p := is.Properties[k]
				if kv, ok := g.value(&p, maxDepth-1); ok {
					m[k] = kv
				}
			}
		}
		if assoc {
			id := fmt.Sprint(keyOf(v, keys))
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, v)
	}
	return out
}

// keyOf is what identifies a set or map-list item.
func keyOf(v any, keys []string) any {
	if len(keys) == 0 {
		return v
	}
	m, _ := v.(map[string]any)
	var parts []any
	for _, k := range keys {
		parts = append(parts, m[k])
	}
	return parts
}

func (g *gen) meta() map[string]any {
	out := map[string]any{}
	if g.chance(0.6) {
		l := map[string]any{}
		for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
			l[g.pickString(namePool)] = g.pickString([]string{"1", "2", "3"})
		}
		out["labels"] = l
	}
	if g.chance(0.3) {
		out["annotations"] = map[string]any{g.pickString(namePool): g.pickString([]string{"1", "2"})}
	}
	if g.chance(0.2) {
		out["finalizers"] = []any{"example.com/" + g.pickString(namePool)}
	}
	return out
}

// root draws a whole object: apiVersion, kind, metadata.name and a few top-level members.
func (g *gen) root(s *spec.Schema, apiVersion, kind string) map[string]any {
	obj := map[string]any{}
	names := sortedProps(s)
	for _, name := range names {
		if name == "apiVersion" || name == "kind" || name == "metadata" || !g.chance(0.6) {
			continue
		}
		p := s.Properties[name]
		if v, ok := g.value(&p, 1); ok {
			obj[name] = v
		}
	}
	md := g.meta()
	md["name"] = "obj"
	obj["metadata"] = md
	obj["apiVersion"] = apiVersion
	obj["kind"] = kind
	return obj
}
