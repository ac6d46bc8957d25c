package schema

import "encoding/json"

// decodeRaw reads the schema object that begins at or after i into a rawSchema, as
// json.Unmarshal does into its tagged fields (null leaves a field unset; a pointer, map or
// slice becomes nil), and returns the index past it. Keys match exactly, as kube-openapi
// writes them; every other keyword is passed over unread.
func decodeRaw(d []byte, i int) (*rawSchema, int, error) {
	r := &rawSchema{}
	end, err := eachMember(d, i, func(key []byte, v int) (int, error) {
		var err error
		switch string(key) {
		case "$ref":
			return decodeString(d, v, &r.Ref)
		case "type":
			return decodeString(d, v, &r.Type)
		case "format":
			return decodeString(d, v, &r.Format)
		case "properties":
			if isNull(d, v) {
				r.Properties = nil
				return skipValue(d, v)
			}
			if r.Properties == nil {
				r.Properties = map[string]*rawSchema{}
			}
			return eachMember(d, v, func(name []byte, v int) (int, error) {
				var p *rawSchema
				p, v, err = decodeRawOrNull(d, v)
				r.Properties[string(name)] = p
				return v, err
			})
		case "required":
			r.Required, v, err = decodeStrings(d, v)
			return v, err
		case "items":
			r.Items, v, err = decodeRawOrNull(d, v)
			return v, err
		case "additionalProperties":
			end, err := skipValue(d, v)
			if err != nil {
				return 0, err
			}
			r.AdditionalProperties = json.RawMessage(d[v:end])
			return end, nil
		case "allOf":
			r.AllOf, v, err = decodeRaws(d, v)
			return v, err
		case "oneOf":
			r.OneOf, v, err = decodeRaws(d, v)
			return v, err
		case "anyOf":
			r.AnyOf, v, err = decodeRaws(d, v)
			return v, err
		case "x-kubernetes-preserve-unknown-fields":
			return decodeBool(d, v, &r.PreserveUnknown)
		case "x-kubernetes-int-or-string":
			return decodeBool(d, v, &r.IntOrString)
		case "x-kubernetes-group-version-kind":
			r.GVKs, v, err = decodeGVKs(d, v)
			return v, err
		}
		return skipValue(d, v)
	})
	return r, end, err
}

// decodeRawOrNull is decodeRaw for a value that may be null (then nil).
func decodeRawOrNull(d []byte, i int) (*rawSchema, int, error) {
	if isNull(d, i) {
		end, err := skipValue(d, i)
		return nil, end, err
	}
	return decodeRaw(d, i)
}

// decodeRaws reads an array of schemas, or null.
func decodeRaws(d []byte, i int) ([]*rawSchema, int, error) {
	if isNull(d, i) {
		end, err := skipValue(d, i)
		return nil, end, err
	}
	out := []*rawSchema{}
	end, err := eachElement(d, i, func(v int) (int, error) {
		r, end, err := decodeRawOrNull(d, v)
		out = append(out, r)
		return end, err
	})
	return out, end, err
}

// decodeString reads a string, or null (which leaves dst as it is).
func decodeString(d []byte, i int, dst *string) (int, error) {
	if isNull(d, i) {
		return skipValue(d, i)
	}
	s, end, err := readString(d, i)
	if err == nil {
		*dst = intern(s)
	}
	return end, err
}

// intern returns the value of a keyword most schemas repeat without allocating it anew.
func intern(b []byte) string {
	switch string(b) {
	case "object":
		return "object"
	case "string":
		return "string"
	case "array":
		return "array"
	case "integer":
		return "integer"
	case "boolean":
		return "boolean"
	case "number":
		return "number"
	case "int32":
		return "int32"
	case "int64":
		return "int64"
	case "date-time":
		return "date-time"
	case "byte":
		return "byte"
	case "double":
		return "double"
	}
	return string(b)
}

// decodeStrings reads an array of strings, or null.
func decodeStrings(d []byte, i int) ([]string, int, error) {
	if isNull(d, i) {
		end, err := skipValue(d, i)
		return nil, end, err
	}
	out := []string{}
	end, err := eachElement(d, i, func(v int) (int, error) {
		var s string
		end, err := decodeString(d, v, &s)
		out = append(out, s)
		return end, err
	})
	return out, end, err
}

// decodeBool reads true, false or null (which leaves dst as it is).
func decodeBool(d []byte, i int, dst *bool) (int, error) {
	end, err := skipValue(d, i)
	if err != nil {
		return 0, err
	}
	switch string(d[i:end]) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	case "null":
	default:
		return 0, errSyntax
	}
	return end, nil
}

// decodeGVKs reads x-kubernetes-group-version-kind: an array of {group, version, kind}.
func decodeGVKs(d []byte, i int) ([]rawGVK, int, error) {
	if isNull(d, i) {
		end, err := skipValue(d, i)
		return nil, end, err
	}
	out := []rawGVK{}
	end, err := eachElement(d, i, func(v int) (int, error) {
		var g rawGVK
		if isNull(d, v) {
			out = append(out, g)
			return skipValue(d, v)
		}
		end, err := eachMember(d, v, func(key []byte, v int) (int, error) {
			switch string(key) {
			case "group":
				return decodeString(d, v, &g.Group)
			case "version":
				return decodeString(d, v, &g.Version)
			case "kind":
				return decodeString(d, v, &g.Kind)
			}
			return skipValue(d, v)
		})
		out = append(out, g)
		return end, err
	})
	return out, end, err
}
