package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// The reading of one OpenAPI v3 document (kube-openapi's spec3.OpenAPI, as served at
// /openapi/v3/apis/<group>/<version>) into resolved Schema nodes.

// rawSchema holds the keywords of a schema object that decoding needs; descriptions,
// defaults and the rest are skipped by encoding/json without being stored.
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
	GVKs                 []struct {
		Group   string `json:"group"`
		Version string `json:"version"`
		Kind    string `json:"kind"`
	} `json:"x-kubernetes-group-version-kind"`
}

// Definitions is one parsed OpenAPI v3 document: its definitions, resolved, and the kinds
// they declare.
type Definitions struct {
	defs  map[string]*Schema
	kinds map[api.GroupVersionKind]*Schema
}

// ParseDefinitions reads an OpenAPI v3 document and resolves every definition of its
// components.schemas. A $ref to a definition the document lacks resolves to KindAny.
func ParseDefinitions(data []byte) (*Definitions, error) {
	var doc struct {
		Components struct {
			Schemas map[string]*rawSchema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("openapi document: %w", err)
	}
	c := compiler{raw: doc.Components.Schemas, defs: make(map[string]*Schema, len(doc.Components.Schemas))}
	d := &Definitions{defs: c.defs, kinds: map[api.GroupVersionKind]*Schema{}}
	for name := range c.raw {
		s := c.named(name)
		for _, gvk := range s.GVKs {
			// A kind declared by several definitions (DeleteOptions in every group) keeps
			// the one of the document's own group-version, chosen below, else any.
			if _, dup := d.kinds[gvk]; !dup || ownsKind(name, gvk) {
				d.kinds[gvk] = s
			}
		}
	}
	return d, nil
}

// ownsKind reports whether definition name is the kind's home: its name ends in the kind.
func ownsKind(name string, gvk api.GroupVersionKind) bool {
	return strings.HasSuffix(name, "."+gvk.Kind)
}

// ForKind finds the definition whose x-kubernetes-group-version-kind names gvk.
func (d *Definitions) ForKind(gvk api.GroupVersionKind) (*Schema, bool) {
	s, ok := d.kinds[gvk]
	return s, ok
}

// Definition finds a definition by name (io.k8s.api.core.v1.Container).
func (d *Definitions) Definition(name string) (*Schema, bool) {
	s, ok := d.defs[name]
	return s, ok
}

// compiler turns raw schemas into Schema nodes. Named definitions are created before they
// are filled, so recursive definitions (JSONSchemaProps) resolve to themselves.
type compiler struct {
	raw  map[string]*rawSchema
	defs map[string]*Schema
}

const refPrefix = "#/components/schemas/"

func (c *compiler) named(name string) *Schema {
	if s, ok := c.defs[name]; ok {
		return s
	}
	s := &Schema{Name: name}
	c.defs[name] = s
	if r := c.raw[name]; r != nil {
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
	var r rawSchema
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	return &r
}

// isStringOrNumber recognises Quantity's shape: oneOf a string and a number.
func isStringOrNumber(one []*rawSchema) bool {
	if len(one) != 2 {
		return false
	}
	a, b := one[0].Type, one[1].Type
	return (a == "string" && b == "number") || (a == "number" && b == "string")
}
