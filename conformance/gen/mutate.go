package gen

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// Mutation is one systematic change of a manifest.
type Mutation struct {
	Category string // mutation-enum, mutation-int, mutation-required, mutation-quantity, mutation-intorstring
	Variant  string // stable name: kind of change and schema path
	Path     []any  // where (string keys, int indices)
	Delete   bool
	Value    any
}

// Apply returns a mutated deep copy of obj.
func (m Mutation) Apply(obj map[string]any) map[string]any {
	c := deepCopy(obj)
	if m.Delete {
		deletePath(c, m.Path)
	} else {
		setPath(c, m.Path, m.Value)
	}
	return c
}

// Mutations walks obj against its schema and lists one mutation per enum field, integer,
// required field, quantity and int-or-string found (metadata excluded), deduplicated by
// schema path (indices ignored).
func Mutations(obj map[string]any, root Node) []Mutation {
	var out []Mutation
	seen := map[string]bool{}
	add := func(m Mutation) {
		if !seen[m.Variant] {
			seen[m.Variant] = true
			out = append(out, m)
		}
	}
	var walk func(v any, n Node, path []any, depth int)
	walk = func(v any, n Node, path []any, depth int) {
		if depth > 14 || n.m == nil {
			return
		}
		sp := schemaPath(path)
		switch t := v.(type) {
		case map[string]any:
			if len(path) == 0 {
				for _, r := range n.Required() {
					if _, ok := t[r]; ok && r != "metadata" && r != "apiVersion" && r != "kind" {
						add(Mutation{Category: "mutation-required", Variant: "remove-required:" + r, Path: []any{r}, Delete: true})
					}
				}
			} else {
				for _, r := range n.Required() {
					if _, ok := t[r]; ok {
						add(Mutation{Category: "mutation-required", Variant: "remove-required:" + join(sp, r), Path: appendPath(path, r), Delete: true})
					}
				}
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if len(path) == 0 && (k == "metadata" || k == "apiVersion" || k == "kind" || k == "status") {
					continue
				}
				if c, ok := n.Prop(k); ok {
					walk(t[k], c, appendPath(path, k), depth+1)
				} else if c, ok := n.AdditionalProperties(); ok {
					walk(t[k], c, appendPath(path, k), depth+1)
				}
			}
		case []any:
			it, ok := n.Items()
			if !ok {
				return
			}
			for i, e := range t {
				if i >= 2 {
					break
				}
				walk(e, it, appendPath(path, i), depth+1)
			}
		case string:
			if len(n.Enum()) > 0 {
				add(Mutation{Category: "mutation-enum", Variant: "enum:" + sp, Path: path, Value: "NotInTheEnum"})
			}
			if n.IsQuantity() {
				if alt, ok := altQuantity(t); ok {
					add(Mutation{Category: "mutation-quantity", Variant: "quantity:" + sp, Path: path, Value: alt})
				}
			} else if n.IsIntOrString() {
				if i, err := strconv.Atoi(t); err == nil {
					add(Mutation{Category: "mutation-intorstring", Variant: "int-or-string:" + sp, Path: path, Value: i})
				}
			}
		case float64:
			if n.IsQuantity() {
				add(Mutation{Category: "mutation-quantity", Variant: "quantity:" + sp, Path: path, Value: strconv.FormatFloat(t, 'f', -1, 64)})
				return
			}
			if n.IsIntOrString() {
				add(Mutation{Category: "mutation-intorstring", Variant: "int-or-string:" + sp, Path: path, Value: strconv.FormatFloat(t, 'f', -1, 64)})
				return
			}
			if n.Type() == "integer" || n.Type() == "number" {
				if t >= 0 {
					add(Mutation{Category: "mutation-int", Variant: "negative:" + sp, Path: path, Value: -1})
				}
				huge := 1e15
				if n.Format() == "int32" {
					huge = 2147483648
				}
				add(Mutation{Category: "mutation-int", Variant: "huge:" + sp, Path: path, Value: huge})
			}
		}
	}
	walk(obj, root, nil, 0)
	return out
}

// MetadataMutations are the malformed names and labels every manifest gets. A cluster-scoped
// object's malformed names keep the case's suffix, so that a server accepting one does not
// make another case collide with it.
func MetadataMutations(obj map[string]any, clusterScoped bool) []Mutation {
	var out []Mutation
	md, _ := obj["metadata"].(map[string]any)
	if _, ok := md["name"]; ok {
		bad, long := "Bad_Name", strings.Repeat("a", 254)
		if clusterScoped {
			sfx := "-" + runner.SuffixPlaceholder
			bad += sfx
			long = strings.Repeat("a", 254-13) + sfx
		}
		out = append(out, Mutation{Category: "mutation-metadata", Variant: "name-underscore", Path: []any{"metadata", "name"}, Value: bad})
		out = append(out, Mutation{Category: "mutation-metadata", Variant: "name-too-long", Path: []any{"metadata", "name"}, Value: long})
	}
	out = append(out,
		Mutation{Category: "mutation-metadata", Variant: "label-key-malformed", Path: []any{"metadata", "labels", "bad key!"}, Value: "x"},
		Mutation{Category: "mutation-metadata", Variant: "label-value-too-long", Path: []any{"metadata", "labels", "conformance"}, Value: strings.Repeat("v", 64)},
		Mutation{Category: "mutation-metadata", Variant: "annotation-key-malformed", Path: []any{"metadata", "annotations", "-bad/key"}, Value: "x"},
	)
	return out
}

var quantityRE = regexp.MustCompile(`^([0-9.]+)([a-zA-Z]*)$`)

// altQuantity writes a quantity in another form: 500m <-> 0.5, 1Gi <-> 1073741824, 2 <-> 2000m.
func altQuantity(q string) (string, bool) {
	m := quantityRE.FindStringSubmatch(q)
	if m == nil {
		return "", false
	}
	num, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return "", false
	}
	mult := map[string]float64{"": 1, "m": 0.001, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 1024, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40}
	f, ok := mult[m[2]]
	if !ok {
		return "", false
	}
	switch m[2] {
	case "m":
		return strconv.FormatFloat(num*f, 'f', -1, 64), true
	case "":
		return strconv.FormatFloat(num*1000, 'f', -1, 64) + "m", true
	default:
		return strconv.FormatFloat(num*f, 'f', -1, 64), true
	}
}

func schemaPath(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch t := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(t)
		case int:
			b.WriteString("[]")
		}
	}
	return b.String()
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func appendPath(p []any, e any) []any {
	out := make([]any, len(p), len(p)+1)
	copy(out, p)
	return append(out, e)
}

func deepCopy(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func setPath(obj map[string]any, path []any, v any) {
	var cur any = obj
	for i, p := range path {
		last := i == len(path)-1
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			if last {
				m[k] = v
				return
			}
			if m[k] == nil {
				m[k] = map[string]any{}
			}
			cur = m[k]
		case int:
			a, ok := cur.([]any)
			if !ok || k >= len(a) {
				return
			}
			if last {
				a[k] = v
				return
			}
			cur = a[k]
		}
	}
}

func deletePath(obj map[string]any, path []any) {
	if len(path) == 0 {
		return
	}
	var cur any = obj
	for _, p := range path[:len(path)-1] {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			cur = m[k]
		case int:
			a, ok := cur.([]any)
			if !ok || k >= len(a) {
				return
			}
			cur = a[k]
		}
	}
	if m, ok := cur.(map[string]any); ok {
		if k, ok := path[len(path)-1].(string); ok {
			delete(m, k)
		}
	}
}
