package patch

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The patch metadata of every built-in kind, read from the OpenAPI v3 documents of
// kube-apiserver that package schema embeds. Upstream's handler reflects on the Go types of
// k8s.io/api (NewPatchMetaFromStruct); the documents carry the same struct tags as
// x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key, and the same fields.
//
// One thing the documents cannot say is whether a Go field is a pointer, which upstream's
// $setElementOrder lookup cares about (a pointer to a non-list is let through, any other
// non-list is refused). kube-openapi writes "default": {} for a struct field that is not a
// pointer, so a struct field without a default counts as a pointer; a scalar, or a struct
// the documents show as a string (Time, Quantity, IntOrString), counts as a plain value.
// So "$setElementOrder/<f>" for a pointer to a scalar f (terminationGracePeriodSeconds)
// that neither side has is a 500 here where upstream does nothing; no client sends it.

// oaSchema is the part of an OpenAPI v3 schema object strategic merge patch reads.
type oaSchema struct {
	Type                 string                 `json:"type"`
	Format               string                 `json:"format"`
	Ref                  string                 `json:"$ref"`
	AllOf                []*oaSchema            `json:"allOf"`
	Items                *oaSchema              `json:"items"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	Properties           map[string]*oaSchema   `json:"properties"`
	Default              json.RawMessage        `json:"default"`
	PatchStrategy        string                 `json:"x-kubernetes-patch-strategy"`
	PatchMergeKey        string                 `json:"x-kubernetes-patch-merge-key"`
	GVK                  []api.GroupVersionKind `json:"x-kubernetes-group-version-kind"`
}

// oaDocument is the shape of one embedded document.
type oaDocument struct {
	Components struct {
		Schemas map[string]*oaSchema `json:"schemas"`
	} `json:"components"`
}

const oaRefPrefix = "#/components/schemas/"

// smpIndex is every built-in kind's SMP schema, built once from all embedded documents.
type smpIndex struct {
	byGVK  map[api.GroupVersionKind]*smpSchema
	byKind map[string]*smpSchema // a kind name served by one group-version, core first
}

var (
	smpIndexOnce sync.Once
	smpIndexData *smpIndex
)

// smpSchemaFor returns the SMP schema of a built-in kind, or nil when no embedded document
// defines it (a custom resource).
func smpSchemaFor(gvk api.GroupVersionKind) *smpSchema {
	return loadSMPIndex().byGVK[gvk]
}

// smpSchemaForKind returns the SMP schema of a kind known only by name. When two
// group-versions serve the name (Event), the core group wins, then the first in path order.
func smpSchemaForKind(kind string) *smpSchema {
	return loadSMPIndex().byKind[kind]
}

func loadSMPIndex() *smpIndex {
	smpIndexOnce.Do(func() { smpIndexData = buildSMPIndex(schema.Paths(), schema.Document) })
	return smpIndexData
}

// buildSMPIndex parses the documents at paths and builds the schema of every definition
// that names a kind. Definitions are keyed by their full name, which is the same in every
// document that carries one (apps/v1 repeats core/v1's PodSpec), so the first wins. A
// document that does not parse is skipped: its kinds answer 415, as a custom kind does.
func buildSMPIndex(paths []string, document func(string) ([]byte, bool)) *smpIndex {
	defs := map[string]*oaSchema{}
	for _, p := range paths {
		data, ok := document(p)
		if !ok {
			continue
		}
		var doc oaDocument
		if err := json.Unmarshal(data, &doc); err != nil {
			continue
		}
		for name, s := range doc.Components.Schemas {
			if _, seen := defs[name]; !seen && s != nil {
				defs[name] = s
			}
		}
	}
	b := &smpBuilder{defs: defs, built: map[string]*smpSchema{}}
	idx := &smpIndex{byGVK: map[api.GroupVersionKind]*smpSchema{}, byKind: map[string]*smpSchema{}}
	kindGVK := map[string]api.GroupVersionKind{}
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		for _, gvk := range defs[name].GVK {
			if _, dup := idx.byGVK[gvk]; dup {
				continue
			}
			s := b.named(name)
			idx.byGVK[gvk] = s
			if prev, ok := kindGVK[gvk.Kind]; !ok || (prev.Group != "" && gvk.Group == "") {
				kindGVK[gvk.Kind] = gvk
				idx.byKind[gvk.Kind] = s
			}
		}
	}
	return idx
}

// smpBuilder turns definitions into smpSchemas, one per definition, so shared levels
// (ObjectMeta, PodSpec) are built once and recursive definitions end.
type smpBuilder struct {
	defs  map[string]*oaSchema
	built map[string]*smpSchema
}

// resolve follows allOf[0] and $ref to the definition they name, as upstream's
// PatchMetaFromOpenAPIV3 does; name is "" for an inline schema.
func (b *smpBuilder) resolve(s *oaSchema) (target *oaSchema, name string) {
	for range 8 { // a chain of references longer than this is not in any document
		if s == nil {
			return nil, name
		}
		switch {
		case len(s.AllOf) > 0:
			s = s.AllOf[0]
		case s.Ref != "":
			name = strings.TrimPrefix(s.Ref, oaRefPrefix)
			s = b.defs[name]
		default:
			return s, name
		}
	}
	return nil, name
}

// named builds the level of the definition name; goType is its last dotted part, the Go
// type name upstream's errors print.
func (b *smpBuilder) named(name string) *smpSchema {
	if s, ok := b.built[name]; ok {
		return s
	}
	def := b.defs[name]
	goType := name[strings.LastIndexByte(name, '.')+1:]
	s := &smpSchema{goType: goType, fields: map[string]string{}, special: map[string]smpField{}}
	b.built[name] = s // before the fields, for recursive definitions
	if def == nil {
		return s
	}
	for field, prop := range def.Properties {
		kind, f := b.field(prop)
		s.fields[field] = kind
		if f != (smpField{}) {
			s.special[field] = f
		}
	}
	return s
}

// field reads one property: its Go kind marker (see smpSchema.fields) and its patch
// metadata, with the level below it when that level is an object.
func (b *smpBuilder) field(prop *oaSchema) (string, smpField) {
	f := smpField{mergeKey: prop.PatchMergeKey}
	for _, st := range strings.Split(prop.PatchStrategy, ",") {
		switch st {
		case smpMerge, smpReplace:
			f.strategy = st // retainKeys needs nothing: the directive carries it
		}
	}
	t, name := b.resolve(prop)
	switch {
	case t == nil:
		return "", f
	case t.Type == "array":
		kind := "[]"
		item, itemName := b.resolve(t.Items)
		if item != nil && item.Type == "array" {
			kind = "[][]"
		} else if itemName != "" && isStruct(item) {
			f.sub = b.named(itemName)
		}
		return kind, f
	case t.Type == "string" && t.Format == "byte":
		return "[]", f // a Go []byte
	case hasAdditional(t):
		f.sub = smpMapLevel
		return "{}", f
	case name != "" && isStruct(t):
		f.sub = b.named(name)
		if len(prop.Default) == 0 {
			return "*", f
		}
	}
	return "", f
}

// isStruct reports whether a definition is a Go struct whose fields SMP can look up.
func isStruct(s *oaSchema) bool {
	return s != nil && (s.Type == "object" || len(s.Properties) > 0) && !hasAdditional(s)
}

// hasAdditional reports whether a schema is a map: additionalProperties set and not false.
func hasAdditional(s *oaSchema) bool {
	a := bytes.TrimSpace(s.AdditionalProperties)
	return len(a) > 0 && !bytes.Equal(a, []byte("false"))
}
