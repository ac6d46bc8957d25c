package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// JSONPath is a parsed template. It mirrors JSONPath of k8s.io/client-go util/jsonpath,
// over decoded JSON (map[string]any, []any, string, bool, int64, float64, nil) instead of
// reflect.Values.
type JSONPath struct {
	name             string
	root             *node
	allowMissingKeys bool

	beginRange, inRange, endRange int
	lastEnd                       *node
}

// New mirrors jsonpath.New.
func New(name string) *JSONPath { return &JSONPath{name: name} }

// AllowMissingKeys mirrors JSONPath.AllowMissingKeys: a member or map key that is absent
// gives no result instead of an error.
func (j *JSONPath) AllowMissingKeys(allow bool) *JSONPath {
	j.allowMissingKeys = allow
	return j
}

// Parse mirrors JSONPath.Parse.
func (j *JSONPath) Parse(text string) error {
	root, err := parse(text)
	if err != nil {
		return err
	}
	j.root = root
	return nil
}

// FindResults mirrors JSONPath.FindResults: the values each top-level node of the
// template selects, ranges expanded.
func (j *JSONPath) FindResults(data any) ([][]any, error) {
	if j.root == nil {
		return nil, fmt.Errorf("%s is an incomplete jsonpath template", j.name)
	}
	j.beginRange, j.inRange, j.endRange, j.lastEnd = 0, 0, 0, nil
	return j.find(j.root.nodes, data)
}

func (j *JSONPath) find(nodes []*node, data any) ([][]any, error) {
	cur := []any{data}
	var full [][]any
	for i := 0; i < len(nodes); i++ {
		results, err := j.walk(cur, nodes[i])
		if err != nil {
			return nil, err
		}
		if j.endRange > 0 && j.endRange <= j.inRange {
			j.endRange--
			j.lastEnd = nodes[i]
			break
		}
		if j.beginRange > 0 {
			j.beginRange--
			j.inRange++
			if len(results) > 0 {
				for _, v := range results {
					next, err := j.find(nodes[i+1:], v)
					if err != nil {
						return nil, err
					}
					full = append(full, next...)
				}
			} else if _, err := j.find(nodes[i+1:], nil); err != nil {
				return nil, err
			}
			j.inRange--
			for k := i + 1; k < len(nodes); k++ {
				if nodes[k] == j.lastEnd {
					i = k
					break
				}
			}
			continue
		}
		full = append(full, results)
	}
	return full, nil
}

// Execute mirrors JSONPath.Execute, as kubectl -o jsonpath prints: a null as "null".
func (j *JSONPath) Execute(w io.Writer, data any) error {
	results, err := j.FindResults(data)
	if err != nil {
		return err
	}
	for _, r := range results {
		if err := printResults(w, r, "null"); err != nil {
			return err
		}
	}
	return nil
}

// PrintResults mirrors JSONPath.PrintResults as the apiserver's column printer calls it:
// objects and lists as JSON, anything else as fmt prints it, a null as "<no value>" (the
// printer is handed the value itself, where Execute hands it the map entry holding it and
// prints "null"), results separated by a space.
func (j *JSONPath) PrintResults(w io.Writer, results []any) error {
	return printResults(w, results, "<no value>")
}

func printResults(w io.Writer, results []any, null string) error {
	for i, r := range results {
		var text []byte
		switch v := r.(type) {
		case map[string]any, []any:
			var err error
			if text, err = json.Marshal(v); err != nil {
				return err
			}
		case nil:
			text = []byte(null)
		default:
			text = []byte(fmt.Sprint(v))
		}
		if i != len(results)-1 {
			text = append(text, ' ')
		}
		if _, err := w.Write(text); err != nil {
			return err
		}
	}
	return nil
}

// typeName is the Go type reflect prints for a decoded JSON value.
func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	}
	return fmt.Sprintf("%T", v)
}

func (j *JSONPath) walk(in []any, n *node) ([]any, error) {
	switch n.typ {
	case nodeList:
		cur := in
		for _, c := range n.nodes {
			var err error
			if cur, err = j.walk(cur, c); err != nil {
				return cur, err
			}
		}
		return cur, nil
	case nodeText:
		return []any{n.text}, nil
	case nodeField:
		return j.field(in, n.text)
	case nodeArray:
		return j.array(in, n.params)
	case nodeFilter:
		return j.filter(in, n)
	case nodeInt, nodeFloat, nodeBool:
		out := make([]any, len(in))
		for i := range in {
			out[i] = map[nodeType]any{nodeInt: n.i, nodeFloat: n.f, nodeBool: n.b}[n.typ]
		}
		return out, nil
	case nodeWildcard:
		var out []any
		for _, v := range in {
			out = append(out, children(v)...)
		}
		return out, nil
	case nodeRecursive:
		return recursive(in), nil
	case nodeUnion:
		var out []any
		for _, l := range n.union {
			r, err := j.walk(in, l)
			if err != nil {
				return in, err
			}
			out = append(out, r...)
		}
		return out, nil
	case nodeIdentifier:
		switch n.text {
		case "range":
			j.beginRange++
			return in, nil
		case "end":
			if j.inRange > 0 {
				j.endRange++
				return nil, nil
			}
			return nil, fmt.Errorf("not in range, nothing to end")
		}
		return in, fmt.Errorf("unrecognized identifier %v", n.text)
	}
	return in, fmt.Errorf("unexpected Node %v", n)
}

func (j *JSONPath) field(in []any, name string) ([]any, error) {
	var out []any
	if len(in) == 0 {
		return out, nil
	}
	for _, v := range in {
		if m, ok := v.(map[string]any); ok {
			if e, found := m[name]; found {
				out = append(out, e)
			}
		}
	}
	if len(out) == 0 && !j.allowMissingKeys {
		return out, fmt.Errorf("%s is not found", name)
	}
	return out, nil
}

func (j *JSONPath) array(in []any, params [3]param) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		l, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%v is not array or slice", typeName(v))
		}
		p := params
		if !p[0].known {
			p[0].value = 0
		}
		if p[0].value < 0 {
			p[0].value += len(l)
		}
		if !p[1].known {
			p[1].value = len(l)
		}
		if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
			p[1].value += len(l)
		}
		if p[1].value == p[0].value {
			return out, nil
		}
		switch {
		case p[0].value >= len(l) || p[0].value < 0:
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[0].value, len(l))
		case p[1].value > len(l) || p[1].value < 0:
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[1].value-1, len(l))
		case p[0].value > p[1].value:
			return in, fmt.Errorf("starting index %d is greater than ending index %d", p[0].value, p[1].value)
		}
		step := 1
		if p[2].known {
			if p[2].value <= 0 {
				return in, fmt.Errorf("step must be > 0")
			}
			step = p[2].value
		}
		sub := l[p[0].value:p[1].value]
		for i := 0; i < len(sub); i += step {
			out = append(out, sub[i])
		}
	}
	return out, nil
}

// children are the values inside v: a map's values (in key order, where the real one walks
// a Go map), a list's items, a string's bytes.
func children(v any) []any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = t[k]
		}
		return out
	case []any:
		return append([]any(nil), t...)
	case string:
		out := make([]any, len(t))
		for i := 0; i < len(t); i++ {
			out[i] = t[i]
		}
		return out
	}
	return nil
}

func recursive(in []any) []any {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		if c := children(v); len(c) > 0 {
			out = append(out, v)
			out = append(out, recursive(c)...)
		}
	}
	return out
}

func (j *JSONPath) filter(in []any, n *node) ([]any, error) {
	var out []any
	for _, v := range in {
		l, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%v is not array or slice and cannot be filtered", printValue(v))
		}
		for _, e := range l {
			lefts, err := j.walk([]any{e}, n.left)
			if n.op == "exists" {
				if len(lefts) > 0 {
					out = append(out, e)
				}
				continue
			}
			if err != nil {
				return in, err
			}
			switch {
			case len(lefts) == 0:
				continue
			case len(lefts) > 1:
				return in, fmt.Errorf("can only compare one element at a time")
			}
			rights, err := j.walk([]any{e}, n.right)
			if err != nil {
				return in, err
			}
			switch {
			case len(rights) == 0:
				continue
			case len(rights) > 1:
				return in, fmt.Errorf("can only compare one element at a time")
			}
			pass, err := compare(n.op, lefts[0], rights[0])
			if err != nil {
				return out, err
			}
			if pass {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// printValue prints a value as fmt prints a reflect.Value holding it.
func printValue(v any) string {
	var b bytes.Buffer
	fmt.Fprint(&b, v)
	return b.String()
}
