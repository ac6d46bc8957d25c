package clientcmd

import (
	"fmt"
	"strings"
)

// flowOrScalar reads a node that is not a block collection: a flow collection, an alias, a
// quoted, plain or block scalar. n is the indentation of the block it belongs to.
func (p *yamlParser) flowOrScalar(n int) (*yamlNode, error) {
	line := p.line
	switch c := p.at(0); {
	case c == '[' || c == '{':
		return p.flowCollection()
	case c == '*':
		return p.alias()
	case c == '|' || c == '>':
		text, err := p.blockScalar(n)
		return &yamlNode{kind: scalarNode, text: text, line: line}, err
	case c == '"' || c == '\'':
		text, err := p.quoted()
		return &yamlNode{kind: scalarNode, text: text, line: line}, err
	}
	if c := p.at(0); c == '?' && isSpaceOrEnd(p.at(1)) {
		return nil, p.errorf("explicit keys (\"? key\") are not supported")
	}
	text, err := p.plainScalar(n, false)
	return &yamlNode{kind: scalarNode, text: text, plain: true, line: line}, err
}

func (p *yamlParser) alias() (*yamlNode, error) {
	name := p.name()
	node, ok := p.anchors[name]
	if !ok {
		return nil, p.errorf("unknown anchor %q referenced", name)
	}
	return node, nil
}

// flowSkip skips blanks, line breaks and comments inside a flow collection.
func (p *yamlParser) flowSkip() error {
	for {
		switch c := p.at(0); {
		case isBlank(c):
			p.pos++
		case c == '\n':
			p.newline()
			if p.atDocumentMarker() {
				return p.errorf("a flow collection is not closed before the document marker")
			}
		case c == '#' && (p.pos == p.lineBeg || isBlank(p.src[p.pos-1])):
			for !isBreakOrEnd(p.at(0)) {
				p.pos++
			}
		default:
			return nil
		}
	}
}

// flowCollection reads [a, b] or {k: v, …}, nested and over several lines. A flow sequence
// entry "k: v" is a one-pair mapping, and a flow mapping key without ":" has a null value.
func (p *yamlParser) flowCollection() (*yamlNode, error) {
	if p.depth++; p.depth > maxYAMLDepth {
		return nil, p.errorf("nesting deeper than %d levels", maxYAMLDepth)
	}
	defer func() { p.depth-- }()
	open := p.at(0)
	closeChar, kind := byte(']'), sequenceNode
	if open == '{' {
		closeChar, kind = '}', mappingNode
	}
	node := &yamlNode{kind: kind, line: p.line}
	p.pos++
	for {
		if err := p.flowSkip(); err != nil {
			return nil, err
		}
		switch c := p.at(0); {
		case c == 0:
			return nil, p.errorf("a flow collection starting on line %d is not closed", node.line)
		case c == closeChar:
			p.pos++
			return node, nil
		case c == '?' && isSpaceOrEnd(p.at(1)):
			return nil, p.errorf("explicit keys (\"? key\") are not supported")
		}
		keyLine := p.line
		key, err := p.flowNode()
		if err != nil {
			return nil, err
		}
		if err := p.flowSkip(); err != nil {
			return nil, err
		}
		// After a quoted key (JSON style) the ':' may follow without a blank.
		if p.at(0) == ':' && (isSpaceOrEnd(p.at(1)) || strings.IndexByte(",[]{}", p.at(1)) >= 0 || !key.plain) {
			p.pos++
			if err := p.flowSkip(); err != nil {
				return nil, err
			}
			val := &yamlNode{kind: scalarNode, plain: true, line: p.line}
			if c := p.at(0); c != ',' && c != closeChar {
				if val, err = p.flowNode(); err != nil {
					return nil, err
				}
			}
			if err := p.flowPair(node, key, val, keyLine); err != nil {
				return nil, err
			}
		} else if kind == mappingNode {
			if err := p.flowPair(node, key, &yamlNode{kind: scalarNode, plain: true, line: keyLine}, keyLine); err != nil {
				return nil, err
			}
		} else {
			node.items = append(node.items, key)
		}
		if err := p.flowSkip(); err != nil {
			return nil, err
		}
		switch p.at(0) {
		case ',':
			p.pos++
		case closeChar:
		case 0:
			return nil, p.errorf("a flow collection starting on line %d is not closed", node.line)
		default:
			return nil, p.errorf("expected , or %c in a flow collection, got %q", closeChar, p.at(0))
		}
	}
}

// flowPair adds key: val to a flow mapping, or a one-pair mapping to a flow sequence.
func (p *yamlParser) flowPair(node, key, val *yamlNode, line int) error {
	if key.kind != scalarNode {
		return p.errorf("keys must be scalars")
	}
	if node.kind == sequenceNode {
		pair := &yamlNode{kind: mappingNode, line: line}
		node.items = append(node.items, pair)
		node = pair
	}
	if key.plain && key.text == "<<" {
		return node.merge(val)
	}
	node.set(key.text, val)
	return nil
}

// flowNode reads one node inside a flow collection.
func (p *yamlParser) flowNode() (*yamlNode, error) {
	anchor, tag, err := p.properties()
	if err != nil {
		return nil, err
	}
	if err := p.flowSkip(); err != nil {
		return nil, err
	}
	line := p.line
	var node *yamlNode
	switch c := p.at(0); {
	case c == '[' || c == '{':
		node, err = p.flowCollection()
	case c == '*':
		node, err = p.alias()
	case c == '"' || c == '\'':
		var text string
		text, err = p.quoted()
		node = &yamlNode{kind: scalarNode, text: text, line: line}
	case c == ',' || c == ']' || c == '}' || c == ':' && isSpaceOrEnd(p.at(1)):
		node = &yamlNode{kind: scalarNode, plain: true, line: line} // an empty node
	default:
		var text string
		text, err = p.plainScalar(-1, true)
		node = &yamlNode{kind: scalarNode, text: text, plain: true, line: line}
	}
	if err != nil {
		return nil, err
	}
	return p.applyProperties(node, anchor, tag)
}

// properties reads an anchor (&name) and a tag (!tag), in either order, before a node.
func (p *yamlParser) properties() (anchor, tag string, err error) {
	for {
		switch p.at(0) {
		case '&':
			if anchor != "" {
				return "", "", p.errorf("a node may have one anchor")
			}
			if anchor = p.name(); anchor == "" {
				return "", "", p.errorf("an anchor needs a name")
			}
		case '!':
			if tag != "" {
				return "", "", p.errorf("a node may have one tag")
			}
			start := p.pos
			for !isSpaceOrEnd(p.at(0)) && !strings.ContainsRune(",[]{}", rune(p.at(0))) {
				p.pos++
			}
			tag = p.src[start:p.pos]
			switch tag {
			case "!", "!!str", "!!map", "!!seq":
			default:
				return "", "", p.errorf("tag %s is not supported (only !!str, !!map and !!seq are)", tag)
			}
		default:
			return anchor, tag, nil
		}
		p.skipBlanks()
	}
}

// name reads the name after & or *: everything up to a blank or a flow indicator.
func (p *yamlParser) name() string {
	p.pos++
	start := p.pos
	for !isSpaceOrEnd(p.at(0)) && !strings.ContainsRune(",[]{}", rune(p.at(0))) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// applyProperties registers an anchor and checks a tag against the node.
func (p *yamlParser) applyProperties(node *yamlNode, anchor, tag string) (*yamlNode, error) {
	switch {
	case tag == "!!map" && node.kind != mappingNode, tag == "!!seq" && node.kind != sequenceNode,
		(tag == "!!str" || tag == "!") && node.kind != scalarNode:
		return nil, fmt.Errorf("yaml: line %d: a %s node cannot hold this value", node.line, tag)
	case tag == "!!str" || tag == "!":
		cp := *node
		cp.plain = false
		node = &cp
	}
	if anchor != "" {
		p.anchors[anchor] = node // registered once complete: an alias inside it is unknown
	}
	return node, nil
}
