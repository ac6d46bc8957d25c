package cel

import "sort"

// Schema is the part of a structural schema node that CEL needs: the integration in the
// CRD validation converts its own schema nodes to this.
type Schema struct {
	Type                 string // object, array, string, integer, number, boolean or ""
	Format               string
	Properties           map[string]*Schema
	Required             []string
	AdditionalProperties *Schema
	Items                *Schema
	MaxLength            *int64
	MaxItems             *int64
	MaxProperties        *int64
	Enum                 []any
	Default              any
	Nullable             bool
	XIntOrString         bool
	XPreserveUnknown     bool
	XEmbeddedResource    bool
	XListType            string
	XListMapKeys         []string
}

// SchemaFromJSON reads an OpenAPI v3 schema as decoded JSON (a CRD's openAPIV3Schema).
func SchemaFromJSON(m map[string]any) *Schema {
	if m == nil {
		return nil
	}
	s := &Schema{}
	s.Type, _ = m["type"].(string)
	s.Format, _ = m["format"].(string)
	if p, ok := m["properties"].(map[string]any); ok {
		s.Properties = map[string]*Schema{}
		for k, v := range p {
			if vm, ok := v.(map[string]any); ok {
				s.Properties[k] = SchemaFromJSON(vm)
			}
		}
	}
	if r, ok := m["required"].([]any); ok {
		for _, x := range r {
			if str, ok := x.(string); ok {
				s.Required = append(s.Required, str)
			}
		}
	}
	if a, ok := m["additionalProperties"].(map[string]any); ok {
		s.AdditionalProperties = SchemaFromJSON(a)
	}
	if i, ok := m["items"].(map[string]any); ok {
		s.Items = SchemaFromJSON(i)
	}
	s.MaxLength, s.MaxItems, s.MaxProperties = jsonInt(m["maxLength"]), jsonInt(m["maxItems"]), jsonInt(m["maxProperties"])
	s.Enum, _ = m["enum"].([]any)
	s.Default = m["default"]
	s.Nullable, _ = m["nullable"].(bool)
	s.XIntOrString, _ = m["x-kubernetes-int-or-string"].(bool)
	s.XPreserveUnknown, _ = m["x-kubernetes-preserve-unknown-fields"].(bool)
	s.XEmbeddedResource, _ = m["x-kubernetes-embedded-resource"].(bool)
	s.XListType, _ = m["x-kubernetes-list-type"].(string)
	if k, ok := m["x-kubernetes-list-map-keys"].([]any); ok {
		for _, x := range k {
			if str, ok := x.(string); ok {
				s.XListMapKeys = append(s.XListMapKeys, str)
			}
		}
	}
	return s
}

func jsonInt(v any) *int64 {
	switch x := v.(type) {
	case float64:
		i := int64(x)
		return &i
	case int64:
		return &x
	case int:
		i := int64(x)
		return &i
	}
	return nil
}

// Limits of Kubernetes' cel package (k8s.io/apiserver/pkg/cel/limits.go, apis/cel).
const (
	maxRequestSizeBytes = 3 * 1024 * 1024
	maxDurationSizeJSON = 32
	maxDatetimeSizeJSON = 32
	minDurationSizeJSON = 3
	jsonDateSize        = 12
	minDatetimeSizeJSON = 21
	minStringSize       = 2
	minBoolSize         = 4
	minNumberSize       = 1
)

// withTypeAndObjectMeta adds kind, apiVersion and metadata.name/generateName to the
// schema of an embedded resource or resource root, as Kubernetes' WithTypeAndObjectMeta.
func (s *Schema) withTypeAndObjectMeta() *Schema {
	if s.Properties != nil {
		k, a, md := s.Properties["kind"], s.Properties["apiVersion"], s.Properties["metadata"]
		if k != nil && k.Type == "string" && a != nil && a.Type == "string" && md != nil && md.Type == "object" &&
			md.Properties != nil && md.Properties["name"] != nil && md.Properties["name"].Type == "string" &&
			md.Properties["generateName"] != nil && md.Properties["generateName"].Type == "string" {
			return s
		}
	}
	c := *s
	c.Properties = map[string]*Schema{}
	for k, v := range s.Properties {
		c.Properties[k] = v
	}
	c.Properties["kind"] = &Schema{Type: "string"}
	c.Properties["apiVersion"] = &Schema{Type: "string"}
	c.Properties["metadata"] = &Schema{Type: "object", Properties: map[string]*Schema{
		"name": {Type: "string"}, "generateName": {Type: "string"},
	}}
	return &c
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

func simple(t *Type, minSize, maxElems int64) *Type {
	c := *t
	c.MinSerializedSize, c.MaxElements = minSize, maxElems
	return &c
}

// declType converts a schema node to its CEL type, mirroring Kubernetes' SchemaDeclType:
// sizes come from maxLength, maxItems and maxProperties, or are estimated from the largest
// request. It returns nil for a node CEL cannot see.
func declType(s *Schema, resourceRoot bool) *Type {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		if s.MaxLength != nil {
			return simple(DynType, 1, zeroIfNegative(*s.MaxLength)*4)
		}
		return simple(DynType, 1, maxRequestSizeBytes-2)
	}
	if resourceRoot {
		s = s.withTypeAndObjectMeta()
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		it := declType(s.Items, s.Items.XEmbeddedResource)
		if it == nil {
			return nil
		}
		var maxItems int64
		if s.MaxItems != nil {
			maxItems = zeroIfNegative(*s.MaxItems)
		} else {
			maxItems = (maxRequestSizeBytes - 2) / (it.MinSerializedSize + 1)
		}
		l := ListType(it)
		l.MaxElements, l.MinSerializedSize = maxItems, 2
		return l
	case "object":
		if s.AdditionalProperties != nil {
			vt := declType(s.AdditionalProperties, s.AdditionalProperties.XEmbeddedResource)
			if vt == nil {
				return nil
			}
			var maxProps int64
			if s.MaxProperties != nil {
				maxProps = zeroIfNegative(*s.MaxProperties)
			} else {
				maxProps = (maxRequestSizeBytes - 2) / (vt.MinSerializedSize + 6)
			}
			m := MapType(simple(StringType, minStringSize, 0), vt)
			m.MaxElements, m.MinSerializedSize = maxProps, 2
			return m
		}
		fields := map[string]*Type{}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		minSize := int64(2)
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			prop := s.Properties[name]
			ft := declType(prop, prop.XEmbeddedResource)
			if ft == nil {
				continue
			}
			if esc, ok := Escape(name); ok {
				fields[esc] = ft
			}
			if required[name] && prop.Default == nil {
				minSize += int64(len(name)) + ft.MinSerializedSize + 4
			}
		}
		o := ObjectType("object", fields)
		o.MinSerializedSize = minSize
		return o
	case "string":
		switch s.Format {
		case "byte":
			maxLen := int64(maxRequestSizeBytes - 2)
			if s.MaxLength != nil {
				maxLen = zeroIfNegative(*s.MaxLength)
			}
			return simple(BytesType, minStringSize, maxLen)
		case "duration":
			return simple(DurationType, minDurationSizeJSON, maxDurationSizeJSON)
		case "date":
			return simple(TimestampType, jsonDateSize, jsonDateSize)
		case "date-time":
			return simple(TimestampType, minDatetimeSizeJSON, maxDatetimeSizeJSON)
		}
		var maxLen int64
		switch {
		case s.MaxLength != nil:
			maxLen = zeroIfNegative(*s.MaxLength) * 4
		case len(s.Enum) > 0:
			for _, e := range s.Enum {
				if str, ok := e.(string); ok && int64(len(str)) > maxLen {
					maxLen = int64(len(str))
				}
			}
		default:
			maxLen = maxRequestSizeBytes - 2
		}
		return simple(StringType, minStringSize, maxLen)
	case "boolean":
		return simple(BoolType, minBoolSize, 0)
	case "number":
		return simple(DoubleType, minNumberSize, 0)
	case "integer":
		return simple(IntType, minNumberSize, 0)
	}
	return nil
}

// assignTypeNames names object types after their path from the root, as Kubernetes'
// MaybeAssignTypeName does (root, root.spec, root.spec.items.@idx, …).
func assignTypeNames(t *Type, name string) *Type {
	switch t.Kind {
	case ObjectKind:
		c := *t
		if t.Name != "object" {
			name = t.Name
		}
		c.Name = name
		c.Fields = map[string]*Type{}
		for f, ft := range t.Fields {
			c.Fields[f] = assignTypeNames(ft, name+"."+f)
		}
		return &c
	case MapKind:
		c := *t
		c.Params = []*Type{t.Params[0], assignTypeNames(t.Params[1], name+".@elem")}
		return &c
	case ListKind:
		c := *t
		c.Params = []*Type{assignTypeNames(t.Params[0], name+".@idx")}
		return &c
	}
	return t
}
