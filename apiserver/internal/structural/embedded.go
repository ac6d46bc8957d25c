package structural

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Embedded resources (x-kubernetes-embedded-resource): their apiVersion, kind and metadata,
// as pkg/apiserver/schema/objectmeta checks and coerces them.

// objectMeta is the OpenAPI node of ObjectMeta, through which embedded metadata decodes.
var objectMeta = sync.OnceValue(func() *schema.Schema {
	cm, ok := schema.ForKind(api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	if !ok {
		return nil
	}
	md, _ := cm.Member("metadata")
	return md
})

// decodeMeta reads metadata as an ObjectMeta, the way GetObjectMeta's json.Unmarshal does:
// unknown members dropped (returned as paths under prefix), null members dropped, the first
// member of the wrong type an error with encoding/json's text.
func decodeMeta(md any, prefix string) (map[string]any, []string, error) {
	m, ok := md.(map[string]any)
	if !ok {
		word := map[string]string{"string": "string", "boolean": "bool", "integer": "number", "number": "number", "array": "array"}[kindOf(md)]
		return nil, nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type v1.ObjectMeta", word)
	}
	s := objectMeta()
	if s == nil {
		return m, nil, nil
	}
	cp := deepCopy(m).(map[string]any)
	res := s.Validate(cp)
	if res.Err != nil {
		return nil, nil, res.Err
	}
	var unknown []string
	for _, u := range res.Unknown {
		unknown = append(unknown, prefix+"."+u)
	}
	return cp, unknown, nil
}

// stripZero drops the members ObjectMeta's omitempty would not write back.
func stripZero(m map[string]any) {
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			delete(m, k)
		case string:
			if t == "" {
				delete(m, k)
			}
		case int64:
			if t == 0 {
				delete(m, k)
			}
		case map[string]any:
			if len(t) == 0 {
				delete(m, k)
			}
		case []any:
			if len(t) == 0 {
				delete(m, k)
			}
		}
	}
}

// Coerce mirrors objectmeta.CoerceWithOptions on a request's custom object (not dropping
// invalid fields, returning unknown paths): the metadata of each embedded resource is
// rewritten as an ObjectMeta encodes (unknown and empty members gone); a non-string
// apiVersion or kind, or metadata that does not decode, is the error.
func Coerce(obj any, s *Schema) ([]string, *api.StatusCause) {
	var unknown []string
	err := coerce("", obj, s, &unknown)
	return unknown, err
}

func coerce(path string, x any, s *Schema, unknown *[]string) *api.StatusCause {
	if s == nil {
		return nil
	}
	switch v := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			e := v[k]
			if s.EmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := e.(string); !ok {
						c := validation.Invalid(join(path, k), e, "must be a string")
						return &c
					}
				case "metadata":
					md, paths, err := decodeMeta(e, join(path, "metadata"))
					*unknown = append(*unknown, paths...)
					if err != nil {
						c := validation.Invalid(join(path, "metadata"), e, err.Error())
						return &c
					}
					stripZero(md)
					v["metadata"] = md
					e = md
				}
			}
			if c, ok := s.Properties[k]; ok {
				if err := coerce(join(path, k), e, c, unknown); err != nil {
					return err
				}
			} else if s.AdditionalProperties != nil {
				if err := coerce(path+"["+k+"]", e, s.AdditionalProperties, unknown); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, e := range v {
			if err := coerce(path+"["+strconv.Itoa(i)+"]", e, s.Items, unknown); err != nil {
				return err
			}
		}
	}
	return nil
}

// ValidateEmbedded mirrors objectmeta.Validate for a custom object (not a resource root):
// every embedded resource has a string apiVersion that parses as a group-version, a kind
// that is a DNS-1035 label in any case, and valid metadata whose names are path segments.
func ValidateEmbedded(obj any, s *Schema) []api.StatusCause {
	return embedded("", obj, s)
}

func embedded(path string, x any, s *Schema) []api.StatusCause {
	if s == nil {
		return nil
	}
	var causes []api.StatusCause
	switch v := x.(type) {
	case map[string]any:
		if s.EmbeddedResource {
			causes = append(causes, embeddedResource(path, v)...)
		}
		for _, k := range sortedKeys(v) {
			if c, ok := s.Properties[k]; ok {
				causes = append(causes, embedded(join(path, k), v[k], c)...)
			} else if s.AdditionalProperties != nil {
				causes = append(causes, embedded(path+"["+k+"]", v[k], s.AdditionalProperties)...)
			}
		}
	case []any:
		for i, e := range v {
			causes = append(causes, embedded(fmt.Sprintf("%s[%d]", path, i), e, s.Items)...)
		}
	}
	return causes
}

func embeddedResource(path string, m map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	for _, k := range []string{"apiVersion", "kind"} {
		if _, ok := m[k]; !ok {
			causes = append(causes, validation.Required(join(path, k), ""))
		}
	}
	if v, ok := m["apiVersion"]; ok {
		p := join(path, "apiVersion")
		s, isString := v.(string)
		switch {
		case !isString:
			causes = append(causes, validation.Invalid(p, v, "must be a string"))
		case s == "":
			causes = append(causes, validation.Invalid(p, s, "must not be empty"))
		case strings.Count(s, "/") > 1:
			causes = append(causes, validation.Invalid(p, s, "unexpected GroupVersion string: "+s))
		}
	}
	if v, ok := m["kind"]; ok {
		p := join(path, "kind")
		s, isString := v.(string)
		switch {
		case !isString:
			causes = append(causes, validation.Invalid(p, v, "must be a string"))
		case s == "":
			causes = append(causes, validation.Invalid(p, s, "must not be empty"))
		default:
			if errs := validation.IsDNS1035Label(strings.ToLower(s)); len(errs) > 0 {
				causes = append(causes, validation.Invalid(p, s, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
			}
		}
	}
	if v, ok := m["metadata"]; ok {
		p := join(path, "metadata")
		md, _, err := decodeMeta(v, p)
		if err != nil {
			causes = append(causes, validation.Invalid(p, v, err.Error()))
		} else {
			causes = append(causes, embeddedMetaCauses(md, p)...)
		}
	}
	return causes
}

// embeddedMetaCauses mirrors ValidateObjectMeta with the names of path segments
// (validatePathSegment): a missing name stands in as "fakename".
func embeddedMetaCauses(md map[string]any, p string) []api.StatusCause {
	var causes []api.StatusCause
	str := func(k string) string { s, _ := md[k].(string); return s }
	if gn := str("generateName"); gn != "" {
		for _, msg := range pathSegmentErrors(gn, true) {
			causes = append(causes, validation.Invalid(p+".generateName", gn, msg))
		}
	}
	if name := str("name"); name != "" {
		for _, msg := range pathSegmentErrors(name, false) {
			causes = append(causes, validation.Invalid(p+".name", name, msg))
		}
	}
	if ns := str("namespace"); ns != "" {
		for _, msg := range validation.IsDNS1123Label(ns) {
			causes = append(causes, validation.Invalid(p+".namespace", ns, msg))
		}
	}
	if g, ok := md["generation"].(int64); ok && g < 0 {
		causes = append(causes, validation.Invalid(p+".generation", g, "must be greater than or equal to 0"))
	}
	causes = append(causes, validation.LabelCauses(stringMap(md["labels"]), p+".labels")...)
	causes = append(causes, validation.AnnotationCauses(stringMap(md["annotations"]), p+".annotations")...)
	for _, f := range stringList(md["finalizers"]) {
		for _, msg := range validation.IsQualifiedName(f) {
			causes = append(causes, validation.Invalid(p+".finalizers", f, msg))
		}
	}
	return causes
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	out := make(map[string]string, len(m))
	for k, e := range m {
		out[k], _ = e.(string)
	}
	return out
}

// pathSegmentErrors mirrors content.IsPathSegmentName (and, for a prefix,
// IsPathSegmentPrefix).
func pathSegmentErrors(name string, prefix bool) []string {
	if !prefix && (name == "." || name == "..") {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// CoerceObjectMeta mirrors what the custom resource decoder does to an object's own
// metadata (GetObjectMetaWithOptions, then SetObjectMeta): it is rewritten as an ObjectMeta
// encodes, unknown members returned as paths ("metadata.bogus"); metadata that does not
// decode is the error, with encoding/json's text.
func CoerceObjectMeta(obj map[string]any) ([]string, error) {
	md, ok := obj["metadata"]
	if !ok {
		return nil, nil
	}
	m, unknown, err := decodeMeta(md, "metadata")
	if err != nil {
		return nil, err
	}
	stripZero(m)
	obj["metadata"] = m
	return unknown, nil
}
