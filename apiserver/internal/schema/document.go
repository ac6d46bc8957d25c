package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
)

// The reading of one OpenAPI v3 document (kube-openapi's spec3.OpenAPI, as served at
// /openapi/v3/apis/<group>/<version>) into resolved Schema nodes. Reading a document only
// indexes it: where each definition's bytes are and which kinds each declares. A kind's
// definition, and what it references, is decoded and resolved on its first lookup: the
// server's start-up needs a few small kinds of a few documents, not every definition of
// them (core/v1 alone is 430 kB).

// rawSchema holds the keywords of a schema object that decoding needs; descriptions,
// defaults and the rest are passed over unread. decodeRaw fills it; the tags say which
// keyword each field holds, as encoding/json would read it.
type rawSchema struct {
	Ref                  string                `json:"$ref"`
	Type                 string                `json:"type"`
	Format               string                `json:"format"`
	Properties           map[string]*rawSchema `json:"properties"`
	Required             []string              `json:"required"`
	Items                *rawSchema            `json:"items"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"` // a schema or a bool
	AllOf                []*rawSchema          `json:"allOf"`
	OneOf                []*rawSchema          `json:"oneOf"`
	AnyOf                []*rawSchema          `json:"anyOf"`
	PreserveUnknown      bool                  `json:"x-kubernetes-preserve-unknown-fields"`
	IntOrString          bool                  `json:"x-kubernetes-int-or-string"`
	GVKs                 []rawGVK              `json:"x-kubernetes-group-version-kind"`
}

// rawGVK is one entry of x-kubernetes-group-version-kind.
type rawGVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// Definitions is one OpenAPI v3 document: its definitions, resolved on first use, and the
// kinds they declare. It is safe for concurrent use; the nodes it returns never change.
type Definitions struct {
	kinds map[api.GroupVersionKind]*kindSlot // fixed once indexed

	mu sync.Mutex // held while resolving: a node is complete before any caller sees it
	c  compiler
}

// kindSlot is a kind's definition: its name, and its node once resolved.
type kindSlot struct {
	name string
	node atomic.Pointer[Schema]
}

// ParseDefinitions reads an OpenAPI v3 document and resolves every definition of its
// components.schemas. A $ref to a definition the document lacks resolves to KindAny.
// It checks the whole document first, so that text that is not JSON, or a keyword of the
// wrong type in any definition, is an error here rather than a surprise on first use.
func ParseDefinitions(data []byte) (*Definitions, error) {
	if !json.Valid(data) {
		var v any
		return nil, fmt.Errorf("openapi document: %w", json.Unmarshal(data, &v))
	}
	d, err := indexDefinitions(data)
	if err != nil {
		return nil, err
	}
	for name, at := range d.c.spans {
		if _, _, err := decodeRawOrNull(d.c.read(at), 0); err != nil {
			return nil, fmt.Errorf("openapi document: definition %s: %w", name, err)
		}
	}
	return d, nil
}

// newDefinitions is an empty index, for about n definitions, whose definitions read reads.
func newDefinitions(read func(span) []byte, n int) *Definitions {
	return &Definitions{kinds: map[api.GroupVersionKind]*kindSlot{},
		c: compiler{read: read, spans: make(map[string]span, n), defs: map[string]*Schema{}}}
}

// add indexes definition name, at, and a kind it declares, in document order.
func (d *Definitions) add(name string, at span, gvks []rawGVK) {
	d.c.spans[name] = at
	for _, g := range gvks {
		gvk := api.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind}
		// A kind declared by several definitions (DeleteOptions in every group) keeps the
		// one of the document's own group-version, chosen below, else the first.
		if k, dup := d.kinds[gvk]; !dup {
			d.kinds[gvk] = &kindSlot{name: name}
		} else if ownsKind(name, gvk) {
			k.name = name
		}
	}
}

// indexDefinitions finds each definition of components.schemas and the kinds it declares,
// decoding nothing else. data must stay unchanged: definitions are decoded from it later.
func indexDefinitions(data []byte) (*Definitions, error) {
	d := newDefinitions(func(at span) []byte { return data[at.off : at.off+at.n] }, bytes.Count(data, []byte{'\n'}))
	eachDefinition := func(key []byte, v int) (int, error) {
		name := string(key)
		if isNull(data, v) {
			end, err := skipValue(data, v)
			d.add(name, span{v, end - v}, nil)
			return end, err
		}
		var gvks []rawGVK
		end, err := eachMember(data, v, func(key []byte, v int) (int, error) {
			if string(key) != "x-kubernetes-group-version-kind" {
				return skipValue(data, v)
			}
			var end int
			var err error
			gvks, end, err = decodeGVKs(data, v)
			return end, err
		})
		d.add(name, span{v, end - v}, gvks)
		return end, err
	}
	_, err := eachMember(data, 0, func(key []byte, v int) (int, error) {
		if string(key) != "components" || isNull(data, v) {
			return skipValue(data, v)
		}
		return eachMember(data, v, func(key []byte, v int) (int, error) {
			if string(key) != "schemas" || isNull(data, v) {
				return skipValue(data, v)
			}
			return eachMember(data, v, eachDefinition)
		})
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// ownsKind reports whether definition name is the kind's home: its name ends in the kind.
func ownsKind(name string, gvk api.GroupVersionKind) bool {
	return strings.HasSuffix(name, "."+gvk.Kind)
}

// ForKind finds the definition whose x-kubernetes-group-version-kind names gvk.
func (d *Definitions) ForKind(gvk api.GroupVersionKind) (*Schema, bool) {
	k := d.kinds[gvk]
	if k == nil {
		return nil, false
	}
	if s := k.node.Load(); s != nil {
		return s, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.c.named(k.name)
	k.node.Store(s)
	return s, true
}

// Definition finds a definition of the document by name (io.k8s.api.core.v1.Container).
func (d *Definitions) Definition(name string) (*Schema, bool) {
	if _, ok := d.c.spans[name]; !ok {
		return nil, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.c.named(name), true
}

// compiler turns raw schemas into Schema nodes. Named definitions are created before they
// are filled, so recursive definitions (JSONSchemaProps) resolve to themselves. A
// definition is decoded from the document's bytes when first named.
type compiler struct {
	read  func(span) []byte // the bytes of a definition's value
	spans map[string]span   // definition name → where its value is in the document
	defs  map[string]*Schema
}

// span is where a definition's value is in its document: n bytes from offset off.
type span struct{ off, n int }

// raw decodes definition name, nil when the document lacks it.
func (c *compiler) raw(name string) *rawSchema {
	at, ok := c.spans[name]
	if !ok {
		return nil
	}
	// The document was checked when read (ParseDefinitions; the embedded ones by their
	// test), so a definition that does not decode cannot happen: it would read as absent.
	r, _, err := decodeRawOrNull(c.read(at), 0)
	if err != nil {
		return nil
	}
	return r
}

const refPrefix = "#/components/schemas/"

func (c *compiler) named(name string) *Schema {
	if s, ok := c.defs[name]; ok {
		return s
	}
	s := &Schema{Name: name}
	c.defs[name] = s
	if r := c.raw(name); r != nil {
		c.fill(s, r, name)
	}
	return s
}

// refOf is the definition a schema only points to: a plain $ref, or the allOf with a single
// $ref that kube-openapi writes when a property carries a description or default.
func refOf(r *rawSchema) string {
	ref := r.Ref
	if ref == "" && len(r.AllOf) == 1 && r.Type == "" && len(r.Properties) == 0 {
		ref = r.AllOf[0].Ref
	}
	return strings.TrimPrefix(ref, refPrefix)
}

// inline compiles a schema that is not itself a definition; owner is the enclosing
// definition's name.
func (c *compiler) inline(r *rawSchema, owner string) *Schema {
	if r == nil {
		return &Schema{Kind: KindAny}
	}
	if ref := refOf(r); ref != "" {
		return c.named(ref)
	}
	s := &Schema{}
	c.fill(s, r, owner)
	return s
}

func (c *compiler) fill(s *Schema, r *rawSchema, owner string) {
	for _, g := range r.GVKs {
		s.GVKs = append(s.GVKs, api.GroupVersionKind{Group: g.Group, Version: g.Version, Kind: g.Kind})
	}
	s.Format = r.Format
	s.PreserveUnknownFields = r.PreserveUnknown
	if ref := refOf(r); ref != "" && ref != s.Name { // a definition that only points on
		*s = *c.named(ref)
		return
	}
	switch {
	case r.Format == "int-or-string" || r.IntOrString:
		s.Kind = KindIntOrString
		return
	case s.Name == quantityName || isStringOrNumber(r.OneOf):
		s.Kind = KindQuantity
		return
	}
	typ := r.Type
	if typ == "" && len(r.Properties) > 0 {
		typ = "object"
	}
	switch typ {
	case "object":
		values := additional(r.AdditionalProperties)
		switch {
		case len(r.Properties) > 0:
			s.Kind = KindObject
			s.Properties = make(map[string]*Property, len(r.Properties))
			for name, p := range r.Properties {
				s.Properties[name] = &Property{Name: name, Schema: c.inline(p, owner), Via: via(s.Name, name)}
			}
			s.Required = r.Required
			if values != nil {
				s.Values = c.inline(values, owner)
			}
		case values != nil:
			s.Kind = KindMap
			s.Values = c.inline(values, owner)
			s.resourceList = s.Values.Kind == KindQuantity && strings.HasPrefix(owner, "io.k8s.api.core.v1.")
		case s.Name != "":
			s.Kind = KindAny // RawExtension, FieldsV1: Go types that decode themselves
		default:
			s.Kind = KindFreeObject
		}
	case "array":
		s.Kind = KindArray
		s.Items = c.inline(r.Items, owner)
	case "string":
		s.Kind = KindString
	case "integer":
		s.Kind = KindInteger
	case "number":
		s.Kind = KindNumber
	case "boolean":
		s.Kind = KindBoolean
	default:
		s.Kind = KindAny
	}
}

// additional is the schema of additionalProperties, nil when absent or a bool: true
// (anything goes) is what an absent keyword means for decoding.
func additional(raw json.RawMessage) *rawSchema {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	r, _, err := decodeRaw(raw, 0)
	if err != nil {
		return nil
	}
	return r
}

// isStringOrNumber recognises Quantity's shape: oneOf a string and a number.
func isStringOrNumber(one []*rawSchema) bool {
	if len(one) != 2 {
		return false
	}
	a, b := one[0].Type, one[1].Type
	return (a == "string" && b == "number") || (a == "number" && b == "string")
}
