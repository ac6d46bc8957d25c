package typed

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// rawSchema holds the keywords of an OpenAPI v3 schema the conversion reads.
type rawSchema struct {
	Ref                  string                `json:"$ref"`
	Type                 string                `json:"type"`
	Format               string                `json:"format"`
	Properties           map[string]*rawSchema `json:"properties"`
	Items                *rawSchema            `json:"items"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	AllOf                []*rawSchema          `json:"allOf"`
	Default              json.RawMessage       `json:"default"`
	PreserveUnknown      *bool                 `json:"x-kubernetes-preserve-unknown-fields"`
	ListType             *string               `json:"x-kubernetes-list-type"`
	ListMapKeys          []string              `json:"x-kubernetes-list-map-keys"`
	MapType              *string               `json:"x-kubernetes-map-type"`
	PatchStrategy        *string               `json:"x-kubernetes-patch-strategy"`
	PatchMergeKey        *string               `json:"x-kubernetes-patch-merge-key"`
	GVKs                 []struct {
		Group   string `json:"group"`
		Version string `json:"version"`
		Kind    string `json:"kind"`
	} `json:"x-kubernetes-group-version-kind"`
}

const (
	quantityName     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionName = "io.k8s.apimachinery.pkg.runtime.RawExtension"
)

// Model mirrors the smd Schema schemaconv.ToSchemaFromOpenAPI builds from a set of named
// definitions: each definition converts to an Atom once, on first use, and is shared.
type Model struct {
	mu       sync.Mutex
	raw      map[string]*rawSchema
	atoms    map[string]*Atom
	preserve bool
	errs     []string
}

// NewModel reads definitions (the components.schemas of an OpenAPI v3 document, or any map
// of definition name to schema). preserveUnknown mirrors the converter's flag: every object
// then keeps unknown members.
func NewModel(definitions map[string]json.RawMessage, preserveUnknown bool) (*Model, error) {
	m := &Model{raw: make(map[string]*rawSchema, len(definitions)), atoms: map[string]*Atom{}, preserve: preserveUnknown}
	for name, data := range definitions {
		var r rawSchema
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("definition %s: %w", name, err)
		}
		m.raw[name] = &r
	}
	return m, nil
}

// NewModelFromDocument mirrors NewTypeConverter over a spec3 document: it reads the components.schemas of an OpenAPI v3 document.
func NewModelFromDocument(doc []byte) (*Model, error) {
	var d struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("openapi document: %w", err)
	}
	return NewModel(d.Components.Schemas, false)
}

// Named mirrors Schema.Resolve of a named TypeRef: the type of a definition, converting it on first use.
func (m *Model) Named(name string) (*Atom, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.raw[name]; !ok {
		return nil, fmt.Errorf("schema error: no type found matching: %v", name)
	}
	a := m.named(name)
	if len(m.errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(m.errs, "\n"))
	}
	return a, nil
}

// ForKind mirrors the GVK index of managedfields' gvkParser: the definition that declares gvk in x-kubernetes-group-version-kind; one
// whose name ends in the kind wins over others that list it (DeleteOptions in every group).
func (m *Model) ForKind(group, version, kind string) (*Atom, error) {
	var found string
	for name, r := range m.raw {
		for _, g := range r.GVKs {
			if g.Group == group && g.Version == version && g.Kind == kind {
				if found == "" || strings.HasSuffix(name, "."+kind) {
					found = name
				}
			}
		}
	}
	if found == "" {
		return nil, fmt.Errorf("no schema declares %s/%s, Kind=%s", group, version, kind)
	}
	return m.Named(found)
}

func (m *Model) named(name string) *Atom {
	if a, ok := m.atoms[name]; ok {
		return a
	}
	a := &Atom{}
	m.atoms[name] = a
	switch name {
	case quantityName:
		a.Scalar = Untyped
		return a
	case rawExtensionName:
		*a = *untypedAtomic
		return a
	}
	r := m.raw[name]
	if r == nil || r.Ref != "" {
		*a = *deduced
		return a
	}
	*a = m.convert(r, m.preserve, name)
	return a
}

func (m *Model) errorf(where, format string, args ...any) {
	m.errs = append(m.errs, where+": "+fmt.Sprintf(format, args...))
}

// convert mirrors convert.parseSchema; preserve is the flag in effect for this node.
func (m *Model) convert(r *rawSchema, preserve bool, where string) Atom {
	if r.PreserveUnknown != nil && *r.PreserveUnknown {
		preserve = true
	}
	switch r.Type {
	case "":
		return Atom{Scalar: Untyped, List: m.list(r, preserve, where), Map: m.object(r, preserve, where)}
	case "object":
		return Atom{Map: m.object(r, preserve, where)}
	case "array":
		return Atom{List: m.list(r, preserve, where)}
	case "integer", "number":
		return Atom{Scalar: Numeric}
	case "boolean":
		return Atom{Scalar: Boolean}
	case "string":
		if r.Format == "" || r.Format == "byte" {
			return Atom{Scalar: String}
		}
		return Atom{Scalar: Untyped}
	}
	m.errorf(where, "unrecognized type: '%v'", r.Type)
	return Atom{Scalar: Untyped}
}

// ref mirrors makeOpenAPIRef: a $ref (plain or in a one-element allOf) is the shared named
// type, with the map relationship the referring schema sets; anything else converts inline.
func (m *Model) ref(r *rawSchema, preserve bool, where string) *Atom {
	ref := r.Ref
	if ref == "" && len(r.AllOf) == 1 && r.AllOf[0].Ref != "" {
		ref = r.AllOf[0].Ref
	}
	if i := strings.LastIndexByte(ref, '/'); ref != "" && i < len(ref)-1 {
		a := m.named(ref[i+1:])
		rel, ok, err := mapRelationship(r)
		if err != nil {
			m.errorf(where, "%v", err)
		}
		if !ok {
			return a
		}
		return overridden(a, rel)
	}
	inline := m.convert(r, preserve, "inlined in "+where)
	return &inline
}

// overridden mirrors Schema.Resolve with an element relationship: a copy of the named type
// whose map (or else list) has rel.
func overridden(a *Atom, rel Relationship) *Atom {
	out := *a
	switch {
	case a.Map != nil:
		mp := *a.Map
		mp.Rel = rel
		out.Map = &mp
	case a.List != nil:
		l := *a.List
		l.Rel = rel
		out.List = &l
	default:
		return a
	}
	return &out
}

// mapRelationship mirrors getMapElementRelationship.
func mapRelationship(r *rawSchema) (Relationship, bool, error) {
	if r.MapType == nil {
		return Granular, false, nil
	}
	switch *r.MapType {
	case "atomic":
		return Atomic, true, nil
	case "granular":
		return Granular, true, nil
	}
	return Granular, false, fmt.Errorf("unknown map type %v", *r.MapType)
}

// object mirrors parseObject.
func (m *Model) object(r *rawSchema, preserve bool, where string) *Map {
	mp := &Map{}
	if len(r.Properties) > 0 {
		mp.Fields = make(map[string]*Atom, len(r.Properties))
	}
	for name, p := range r.Properties {
		mp.Fields[name] = m.ref(p, preserve, where)
		if len(p.Default) > 0 && string(p.Default) != "null" {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				if mp.Defaults == nil {
					mp.Defaults = map[string]any{}
				}
				mp.Defaults[name] = d
			}
		}
	}
	ap := r.AdditionalProperties
	switch {
	case len(ap) == 0:
		if preserve || len(r.Properties) == 0 {
			mp.Elem = deduced
		}
	case ap[0] == '{':
		var s rawSchema
		if err := json.Unmarshal(ap, &s); err != nil {
			m.errorf(where, "additionalProperties: %v", err)
		} else {
			mp.Elem = m.ref(&s, preserve, where)
		}
	case string(ap) == "true":
		mp.Elem = deduced
	}
	rel, _, err := mapRelationship(r)
	if err != nil {
		m.errorf(where, "%v", err)
	}
	mp.Rel = rel
	return mp
}

// list mirrors parseList and getListElementRelationship.
func (m *Model) list(r *rawSchema, preserve bool, where string) *List {
	l := &List{Rel: Atomic}
	switch {
	case r.ListType != nil:
		switch *r.ListType {
		case "atomic":
		case "set":
			l.Rel = Associative
		case "map":
			l.Rel = Associative
			if r.ListMapKeys == nil {
				m.errorf(where, "missing map keys")
			}
			l.Keys = r.ListMapKeys
		default:
			m.errorf(where, "unknown list type %v", *r.ListType)
		}
	case r.PatchStrategy != nil:
		switch *r.PatchStrategy {
		case "merge", "merge,retainKeys":
			l.Rel = Associative
			if r.PatchMergeKey != nil {
				l.Keys = []string{*r.PatchMergeKey}
			}
		case "retainKeys":
		default:
			m.errorf(where, "unknown patch strategy %v", *r.PatchStrategy)
		}
	}
	switch {
	case r.Items != nil:
		l.Elem = m.ref(r.Items, preserve, where)
	default:
		if r.Type != "" {
			m.errorf(where, "`items` must be specified on arrays")
		}
		l.Elem = untypedAtomic
	}
	return l
}
