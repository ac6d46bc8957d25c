package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// Schemas holds the reference's OpenAPI v3 component schemas, per group-version document, and
// the schema name of every group/version/kind.
type Schemas struct {
	byGVK map[string]*doc // "group/version/Kind" -> document holding it
	name  map[string]string
}

type doc struct {
	schemas map[string]map[string]any
}

// FetchSchemas reads /openapi/v3 and every group-version document it lists.
func FetchSchemas(ctx context.Context, t *runner.Target) (*Schemas, error) {
	o := t.Do(ctx, http.MethodGet, "/openapi/v3", nil, nil)
	var idx struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(o.Body, &idx); err != nil {
		return nil, fmt.Errorf("/openapi/v3: %d %v", o.Code, err)
	}
	s := &Schemas{byGVK: map[string]*doc{}, name: map[string]string{}}
	for p, e := range idx.Paths {
		if !strings.HasPrefix(p, "api/v1") && !strings.HasPrefix(p, "apis/") {
			continue
		}
		o := t.Do(ctx, http.MethodGet, e.ServerRelativeURL, nil, nil)
		var d struct {
			Components struct {
				Schemas map[string]map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(o.Body, &d); err != nil {
			return nil, fmt.Errorf("%s: %d %v", p, o.Code, err)
		}
		dd := &doc{schemas: d.Components.Schemas}
		for name, sch := range d.Components.Schemas {
			gvks, _ := sch["x-kubernetes-group-version-kind"].([]any)
			for _, g := range gvks {
				gm, _ := g.(map[string]any)
				key := fmt.Sprint(gm["group"], "/", gm["version"], "/", gm["kind"])
				if _, seen := s.byGVK[key]; !seen || len(gvks) == 1 {
					s.byGVK[key] = dd
					s.name[key] = name
				}
			}
		}
	}
	return s, nil
}

// Node is a schema node with its document, so $refs can be followed.
type Node struct {
	d *doc
	m map[string]any
}

// Root returns the schema of a kind, or false.
func (s *Schemas) Root(group, version, kind string) (Node, bool) {
	key := group + "/" + version + "/" + kind
	d, ok := s.byGVK[key]
	if !ok {
		return Node{}, false
	}
	return Node{d: d, m: d.schemas[s.name[key]]}, true
}

// resolve follows $ref and single-element allOf wrappers.
func (n Node) resolve() Node {
	for i := 0; i < 10 && n.m != nil; i++ {
		if ref, ok := n.m["$ref"].(string); ok {
			n = Node{d: n.d, m: n.d.schemas[strings.TrimPrefix(ref, "#/components/schemas/")]}
			continue
		}
		if all, ok := n.m["allOf"].([]any); ok && len(all) == 1 {
			sub, _ := all[0].(map[string]any)
			n = Node{d: n.d, m: sub}
			continue
		}
		break
	}
	return n
}

// refName is the component name a node refers to (before resolving), or "".
func (n Node) refName() string {
	if ref, ok := n.m["$ref"].(string); ok {
		return ref
	}
	if all, ok := n.m["allOf"].([]any); ok && len(all) == 1 {
		sub, _ := all[0].(map[string]any)
		return Node{d: n.d, m: sub}.refName()
	}
	return ""
}

// Prop is the schema of a property.
func (n Node) Prop(name string) (Node, bool) {
	n = n.resolve()
	props, _ := n.m["properties"].(map[string]any)
	p, ok := props[name].(map[string]any)
	if !ok {
		return Node{}, false
	}
	return Node{d: n.d, m: p}, true
}

// Items is the schema of array items.
func (n Node) Items() (Node, bool) {
	n = n.resolve()
	it, ok := n.m["items"].(map[string]any)
	return Node{d: n.d, m: it}, ok
}

// AdditionalProperties is the schema of map values.
func (n Node) AdditionalProperties() (Node, bool) {
	n = n.resolve()
	it, ok := n.m["additionalProperties"].(map[string]any)
	return Node{d: n.d, m: it}, ok
}

// Required lists required properties.
func (n Node) Required() []string {
	n = n.resolve()
	r, _ := n.m["required"].([]any)
	var out []string
	for _, x := range r {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Enum lists the enum values, if any.
func (n Node) Enum() []any {
	n = n.resolve()
	e, _ := n.m["enum"].([]any)
	return e
}

// Type is the schema type ("" if none).
func (n Node) Type() string {
	n = n.resolve()
	s, _ := n.m["type"].(string)
	return s
}

// Format is the schema format.
func (n Node) Format() string {
	n = n.resolve()
	s, _ := n.m["format"].(string)
	return s
}

// IsQuantity reports a resource.Quantity.
func (n Node) IsQuantity() bool { return strings.HasSuffix(n.refName(), "resource.Quantity") }

// IsIntOrString reports x-kubernetes-int-or-string (IntOrString types included).
func (n Node) IsIntOrString() bool {
	if strings.HasSuffix(n.refName(), "intstr.IntOrString") {
		return true
	}
	r := n.resolve()
	b, _ := r.m["x-kubernetes-int-or-string"].(bool)
	return b
}
