package patch

import (
	"fmt"
	"strings"
)

// The patch metadata strategic merge patch needs, per object level. Upstream reads it by
// reflection from the Go types of k8s.io/api (the struct tags patchStrategy and
// patchMergeKey, and the fields themselves); here strategic_openapi.go builds it from the
// OpenAPI documents of the same types.

// smpSchema describes one level of an object. A nil *smpSchema is a level nothing
// describes: every field uses the default strategy and any name is accepted.
type smpSchema struct {
	// goType is the Go struct upstream reflects on at this level; its lookup errors name it.
	goType string
	// isMap marks a level whose Go type is a map (labels, data, nodeSelector, …), where
	// upstream's field lookups fail.
	isMap bool
	// fields holds every JSON field of the struct and its Go kind: "[]" a slice, "[][]" a
	// slice of slices, "*" a pointer, "{}" a map, "" anything else. Nil when unknown.
	fields map[string]string
	// special holds the fields that do not use the default strategy (objects merge, lists
	// are replaced), or whose level is described further.
	special map[string]smpField
}

// smpField is one field's patch metadata: strategy "merge" or "replace" (or "" for the
// default), the merge key of a list of objects, and the schema of its object or elements.
type smpField struct {
	strategy string
	mergeKey string
	sub      *smpSchema
}

func (s *smpSchema) lookup(key string) smpField {
	if s == nil {
		return smpField{}
	}
	return s.special[key]
}

// checkListField reports what upstream's LookupPatchMetadataForSlice reports for a
// "$setElementOrder/<key>" whose key is not a list field of this level: the lookup comes
// before any merging, so the directive is refused even when neither side has the list.
// Upstream matches a field name exactly or, failing that, case-insensitively, as
// encoding/json does.
func (s *smpSchema) checkListField(key string) error {
	switch {
	case s == nil:
		return nil
	case s.isMap:
		return fmt.Errorf("merging an object in json but data type is not struct, instead is: map")
	case s.fields == nil:
		return nil
	}
	kind, ok := s.fields[key]
	if !ok {
		for name, k := range s.fields {
			if strings.EqualFold(name, key) {
				kind, ok = k, true
				break
			}
		}
	}
	switch {
	case !ok:
		return fmt.Errorf("unable to find api field in struct %s for the json field %q", s.goType, key)
	case kind == "[][]":
		return fmt.Errorf("unexpected slice of slice")
	case kind == "[]" || kind == "*":
		return nil
	}
	// Upstream prints the kind of the enclosing struct, not of the field: always "struct".
	return fmt.Errorf("expected slice or array type, but got: struct")
}

// smpMapLevel is the level below a map field.
var smpMapLevel = &smpSchema{isMap: true}
