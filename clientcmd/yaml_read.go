package clientcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file reads YAML with gopkg.in/yaml.v3 into the tree decode.go and YAMLToJSON
// consume: map[string]any, []any, string (a quoted or block scalar, or one tagged !!str),
// plain (a plain scalar, typed only where it is used, as YAML 1.1 does) and nil. The
// library parses; this file decides what kubectl's parser (sigs.k8s.io/yaml over go-yaml
// v2, YAML 1.1) would make of the nodes: plain scalars keep their text for resolvePlain,
// aliases and merge keys (<<) are expanded here under a node budget, a key given twice
// takes its last value, and explicit keys ("? key"), tags other than !!str, !!map and !!seq,
// and a second document are refused with an error naming the line.

// plain is a plain (unquoted) scalar other than null. Whether it means a string, a number or
// a boolean depends on where it is used: "true" is a boolean for insecure-skip-tls-verify and
// text for a token.
type plain string

// Bounds that keep hostile input cheap: nesting depth, and the nodes an expanded document
// may hold (aliases can multiply a small file: the "billion laughs").
const (
	maxYAMLDepth = 200
	maxYAMLNodes = 1 << 20
)

// parseYAML reads one YAML document into the tree described above; nil for an empty one.
func parseYAML(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("yaml: the data is not valid UTF-8")
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, libraryError(err, data)
	}
	// Later documents are refused, but a --- or ... with nothing after it is fine.
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, libraryError(err, data)
		}
		if len(next.Content) > 0 && !isEmptyNode(next.Content[0]) {
			return nil, fmt.Errorf("yaml: line %d: only one document is supported", next.Line)
		}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	t := &yamlTree{src: newSourceLines(data), budget: maxYAMLNodes, expanding: map[*yaml.Node]bool{}}
	return t.value(doc.Content[0], 0)
}

// isEmptyNode reports whether n is what an empty document holds: a plain empty scalar.
func isEmptyNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0 && n.Anchor == ""
}

// unknownAnchor is the library's error for an alias without its anchor, which names no line.
var unknownAnchor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`) })

// controlChars is the library's error for a character YAML does not allow in a stream.
const controlChars = "yaml: control characters are not allowed"

// libraryError passes on a parse error of the library ("yaml: line N: …") with the line it
// leaves out. The library names the line of a syntax error only when it is not the first
// (its marks count from 0, and 0 prints nothing); a character YAML does not allow and an
// alias without its anchor name none, and get the line of the first.
func libraryError(err error, data []byte) error {
	msg := err.Error()
	src := newSourceLines(data)
	if m := unknownAnchor().FindStringSubmatch(msg); m != nil {
		if line := src.aliasLine(m[1]); line > 0 {
			return fmt.Errorf("yaml: line %d: unknown anchor %q referenced", line, m[1])
		}
		return fmt.Errorf("yaml: unknown anchor %q referenced", m[1])
	}
	if msg == controlChars {
		if line := src.controlLine(); line > 0 {
			return fmt.Errorf("yaml: line %d: control characters are not allowed", line)
		}
		return err
	}
	if rest, ok := strings.CutPrefix(msg, "yaml: "); ok && !strings.HasPrefix(rest, "line ") {
		return fmt.Errorf("yaml: line 1: %s", rest)
	}
	return err
}

func errorAt(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("yaml: line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

// yamlTree turns the library's nodes into the tree; budget counts down the nodes made, and
// expanding holds the anchored nodes an alias is being expanded into (an alias inside its
// own anchor would never end).
type yamlTree struct {
	src       sourceLines
	budget    int
	expanding map[*yaml.Node]bool
}

func (t *yamlTree) value(n *yaml.Node, depth int) (any, error) {
	if depth > maxYAMLDepth {
		return nil, errorAt(n, "nesting deeper than %d levels", maxYAMLDepth)
	}
	if t.budget--; t.budget < 0 {
		return nil, fmt.Errorf("yaml: the document expands to more than %d nodes", maxYAMLNodes)
	}
	if err := t.checkTag(n); err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.AliasNode:
		if t.expanding[n.Alias] {
			return nil, errorAt(n, "unknown anchor %q referenced inside the node it names", n.Value)
		}
		t.expanding[n.Alias] = true
		defer delete(t.expanding, n.Alias)
		return t.value(n.Alias, depth)
	case yaml.MappingNode:
		return t.mapping(n, depth)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := t.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	const quotedOrBlock = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	if n.Style&quotedOrBlock != 0 || n.Style&yaml.TaggedStyle != 0 || t.src.nonSpecificTag(n) {
		return n.Value, nil // quoted, block, or tagged !!str or !
	}
	if resolvePlain(n.Value) == nil {
		return nil, nil
	}
	return plain(n.Value), nil
}

// checkTag refuses the tags kubeconfig files have no use for, and a tag its node cannot hold.
func (t *yamlTree) checkTag(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle == 0 {
		return nil // untagged, or "!", which a scalar reads as !!str and a collection ignores
	}
	want := map[string]yaml.Kind{"!!str": yaml.ScalarNode, "!!map": yaml.MappingNode, "!!seq": yaml.SequenceNode}
	kind, ok := want[n.Tag]
	if !ok {
		return errorAt(n, "tag %s is not supported (only !!str, !!map and !!seq are)", n.Tag)
	}
	if n.Kind != kind {
		return errorAt(n, "a %s node cannot hold this value", n.Tag)
	}
	return nil
}

// mapping reads a mapping. A key given twice takes the later value, and a merge key (<<:
// *a or <<: [*a, *b]) applies where it stands, as kubectl's parser does: the merged keys
// replace those before it and later keys replace them; of a list of mappings, the first has
// the last word.
func (t *yamlTree) mapping(n *yaml.Node, depth int) (any, error) {
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, merge, err := t.key(n.Content[i])
		if err != nil {
			return nil, err
		}
		if merge {
			if err := t.merge(out, n.Content[i+1], depth); err != nil {
				return nil, err
			}
			continue
		}
		if out[key], err = t.value(n.Content[i+1], depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// key reads a mapping key: a scalar (through an alias), written as an implicit key.
func (t *yamlTree) key(k *yaml.Node) (key string, merge bool, err error) {
	if t.src.explicitKey(k) {
		return "", false, errorAt(k, "explicit keys (\"? key\") are not supported")
	}
	s := k
	if s.Kind == yaml.AliasNode {
		s = s.Alias
	}
	if s.Kind != yaml.ScalarNode {
		return "", false, errorAt(k, "keys must be scalars")
	}
	if err := t.checkTag(s); err != nil {
		return "", false, err
	}
	return s.Value, k.Kind == yaml.ScalarNode && k.Tag == "!!merge", nil
}

// merge copies the mapping or mappings of a merge key's value into out.
func (t *yamlTree) merge(out map[string]any, src *yaml.Node, depth int) error {
	flat := []*yaml.Node{src}
	if s := resolveAlias(src); s.Kind == yaml.SequenceNode {
		flat = s.Content
	}
	for i := len(flat) - 1; i >= 0; i-- {
		if resolveAlias(flat[i]).Kind != yaml.MappingNode {
			return errorAt(flat[i], "a merge key (<<) takes a mapping or a list of mappings")
		}
		v, err := t.value(flat[i], depth+1)
		if err != nil {
			return err
		}
		for k, e := range v.(map[string]any) {
			out[k] = e
		}
	}
	return nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}
