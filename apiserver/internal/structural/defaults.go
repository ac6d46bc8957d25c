package structural

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// ValidateDefaults mirrors structuraldefaulting.ValidateDefaults
// (pkg/apiserver/schema/defaulting/validation.go) with requirePrunedDefaults: every default,
// at the root, in properties and in items (additionalProperties' are not checked, as
// upstream), must survive pruning by its own schema ("must not have unknown fields"), have
// well-formed embedded metadata, and pass its own schema's value validation, with the
// validator ToKubeOpenAPI builds (formats as written). A default inside an embedded
// resource's metadata must make valid metadata. The rules of x-kubernetes-validations are
// the RuleCompiler's to check.
func ValidateDefaults(s *Schema, path string) []api.StatusCause {
	if s == nil {
		return nil
	}
	root := *s
	root.EmbeddedResource = true
	var causes []api.StatusCause
	validateDefaults(path, &root, &root, false, &causes)
	return causes
}

func validateDefaults(path string, s, root *Schema, insideMeta bool, causes *[]api.StatusCause) {
	if s == nil {
		return
	}
	if s.EmbeddedResource {
		insideMeta = false
		root = s
	}
	if s.HasDefault {
		dp := path + ".default"
		v := Validator{Schema: s, Defaults: true}
		if insideMeta {
			// A default under metadata must still make an ObjectMeta and valid metadata.
			if md, ok := s.Default.(map[string]any); ok && s == root.Properties["metadata"] {
				if _, _, err := decodeMeta(md, "metadata"); err != nil {
					*causes = append(*causes, validation.Invalid(dp, s.Default, "must result in valid metadata: "+err.Error()))
					return
				}
			}
			*causes = append(*causes, v.Validate(dp, s.Default)...)
		} else {
			pruned := deepCopy(s.Default)
			Prune(pruned, s, s.EmbeddedResource)
			if !reflect.DeepEqual(pruned, s.Default) {
				*causes = append(*causes, validation.Invalid(dp, s.Default, "must not have unknown fields"))
			}
			cp := deepCopy(s.Default)
			if _, err := Coerce(cp, s); err != nil {
				e := *err
				e.Field = join(dp, e.Field)
				*causes = append(*causes, e)
			} else if ec := embeddedWithRoot(dp, s.Default, s); len(ec) > 0 {
				*causes = append(*causes, ec...)
			} else {
				*causes = append(*causes, v.Validate(dp, s.Default)...)
			}
		}
	}
	validateDefaults(path+".items", s.Items, root, insideMeta, causes)
	for _, k := range sortedKeys(s.Properties) {
		sub := insideMeta
		if s.EmbeddedResource && metaFields[k] {
			sub = true
		}
		validateDefaults(prop(path, k), s.Properties[k], root, sub, causes)
	}
}

// embeddedWithRoot is ValidateEmbedded of a value whose own schema may be an embedded
// resource (objectmeta.Validate with isResourceRoot set to the node's flag).
func embeddedWithRoot(path string, x any, s *Schema) []api.StatusCause {
	return embedded(path, x, s)
}
