package apiserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver/storage"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// CustomResourceDefinitions: apiextensions.k8s.io/v1 is a built-in kind (kinds.go) whose
// writes do what the controllers of k8s.io/apiextensions-apiserver do, at once and in the
// same write: a valid CRD is created with NamesAccepted and Established already True and
// its resource registered (crdHandler, NamingConditionController,
// EstablishingController); an update swaps the schema, columns and scale paths its objects
// are served with; a delete removes every object of the resource (each a DELETED event),
// ends its watches after those events, and takes it out of discovery and OpenAPI
// (crdFinalizer). Custom objects are decoded, pruned, defaulted and validated against the
// served version's structural schema (internal/structural).
//
// Deviations: every served version is served with the None strategy (crd_versions.go) and
// with the storage version's schema, columns and subresources. A plural that a built-in (or
// Go-registered) resource of the same group already serves is refused with 422, where the
// real server accepts the CRD and leaves it shadowed. Short names, categories, subresources
// and the storage version are read when the CRD is created: an update changes the schema,
// the columns, the scale paths and the set of served versions.

const apiextensionsGroup = "apiextensions.k8s.io"

func isCRDs(res *resource) bool {
	return res.info.builtin && res.info.Group == apiextensionsGroup && res.info.Kind == "CustomResourceDefinition"
}

// crdServing is what one established CRD serves its objects with; it is replaced whole
// when the CRD changes.
type crdServing struct {
	key     string // uid and resourceVersion of the CRD it was built from (OpenAPI cache key)
	schema  *structural.Schema
	openAPI map[string]any // the version's openAPIV3Schema, for /openapi/v3
	printer *printers.Printer
	scale   *crdScale
}

// servedVersion picks the version the resource is registered at: the storage version when
// it is served, else the first served one; -1 when none is.
func servedVersion(spec crdSpec) int {
	first := -1
	for i, v := range spec.Versions {
		if v.Served && v.Storage {
			return i
		}
		if v.Served && first < 0 {
			first = i
		}
	}
	return first
}

// crdServingOf builds the serving state of a valid CRD's version i.
func crdServingOf(obj *api.Unstructured, spec crdSpec, i int) *crdServing {
	v := spec.Versions[i]
	tree, _ := versionSchema(obj, i)
	sch, _ := structural.Parse(tree, "")
	cols := make([]printers.Column, len(v.Columns))
	for j, c := range v.Columns {
		cols[j] = printers.Column{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
	}
	cs := &crdServing{
		key:     obj.GetUID() + "/" + obj.GetResourceVersion(),
		schema:  sch,
		openAPI: tree,
		printer: printers.ForColumns(cols),
	}
	if v.Subresources != nil {
		cs.scale = v.Subresources.Scale
	}
	return cs
}

// crdResourceInfo is the ResourceInfo a CRD registers, for version i.
func crdResourceInfo(obj *api.Unstructured, spec crdSpec, i int) ResourceInfo {
	v := spec.Versions[i]
	return ResourceInfo{
		Group: spec.Group, Version: v.Name, Resource: spec.Names.Plural, Kind: spec.Names.Kind,
		ListKind: spec.Names.ListKind, Namespaced: spec.Scope == "Namespaced",
		ShortNames: append([]string(nil), spec.Names.ShortNames...), Categories: append([]string(nil), spec.Names.Categories...),
		SingularName:        spec.Names.Singular,
		ReturnDeletedObject: true,
		crd:                 obj.GetName(),
		crdStatus:           v.Subresources != nil && v.Subresources.Status != nil,
		crdScaled:           v.Subresources != nil && v.Subresources.Scale != nil,
	}
}

// crdStatus is the status the naming and establishing controllers write on a new CRD.
func crdStatus(spec crdSpec, now api.Time) map[string]any {
	ts := now.UTC().Format("2006-01-02T15:04:05Z")
	names := map[string]any{"plural": spec.Names.Plural, "singular": spec.Names.Singular, "kind": spec.Names.Kind, "listKind": spec.Names.ListKind}
	if len(spec.Names.ShortNames) > 0 {
		names["shortNames"] = toAnySlice(spec.Names.ShortNames)
	}
	if len(spec.Names.Categories) > 0 {
		names["categories"] = toAnySlice(spec.Names.Categories)
	}
	var stored []any
	for _, v := range spec.Versions {
		if v.Storage {
			stored = append(stored, v.Name)
		}
	}
	return map[string]any{
		"acceptedNames": names,
		"conditions": []any{
			map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": ts},
			map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": ts},
		},
		"storedVersions": stored,
	}
}

func toAnySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// crdAdmit refuses a new CRD whose resource is already served in its group by something
// else than a CRD.
func (s *Server) crdAdmit(obj *api.Unstructured) error {
	spec := readCRDSpec(obj)
	s.tableMu.RLock()
	r, ok := s.resources[spec.Group+"/"+spec.Names.Plural]
	s.tableMu.RUnlock()
	if ok && r.info.crd != obj.GetName() {
		by := "the built-in resource"
		if !r.info.builtin {
			by = "the resource registered with Register,"
		}
		return api.NewInvalid(api.GroupKind{Group: apiextensionsGroup, Kind: "CustomResourceDefinition"}, obj.GetName(), []api.StatusCause{
			validation.Invalid("spec.names.plural", spec.Names.Plural, fmt.Sprintf("is already served by %s %s: this simulator refuses a CRD it would shadow", by, r.info.GroupResource()))})
	}
	if servedVersion(spec) < 0 {
		return api.NewInvalid(api.GroupKind{Group: apiextensionsGroup, Kind: "CustomResourceDefinition"}, obj.GetName(), []api.StatusCause{
			invalidRaw("spec.versions", "[]apiextensions.CustomResourceDefinitionVersion{…}", "this simulator needs at least one served version")})
	}
	return nil
}

// serveCRD registers the resource of a CRD just stored, or, for a CRD already served,
// swaps in its new schema, columns and scale paths. It runs inside the CRD's write.
func (s *Server) serveCRD(obj *api.Unstructured) {
	spec := readCRDSpec(obj)
	i := servedVersion(spec)
	if i < 0 {
		return
	}
	s.tableMu.RLock()
	r, ok := s.resources[spec.Group+"/"+spec.Names.Plural]
	s.tableMu.RUnlock()
	if !ok {
		var err error
		if r, err = s.registerResource(crdResourceInfo(obj, spec, i)); err != nil {
			return // crdAdmit has ruled this out
		}
	}
	s.tableMu.Lock()
	defer s.tableMu.Unlock()
	if r.info.crd == obj.GetName() && r.info.Version == spec.Versions[i].Name {
		r.crd.Store(crdServingOf(obj, spec, i))
		also := servedAlso(spec, i)
		for gv, list := range s.byGV {
			g, v, _ := strings.Cut(gv, "/")
			if g == r.info.Group && v != r.info.Version && slices.Contains(list, r) && !slices.Contains(also, v) {
				s.byGV[gv] = slices.DeleteFunc(slices.Clone(list), func(x *resource) bool { return x == r })
				if len(s.byGV[gv]) == 0 {
					delete(s.byGV, gv)
				}
			}
		}
		s.addVersionAliasesLocked(r, also)
	}
}

// dropCRD is the CRD finalizer and the end of its handler, inside the CRD's delete: every
// object goes, each with a DELETED event; then the resource's watches end and it leaves
// discovery.
func (s *Server) dropCRD(tx *storage.Tx, obj *api.Unstructured) {
	spec := readCRDSpec(obj)
	id := spec.Group + "/" + spec.Names.Plural
	s.tableMu.RLock()
	r, ok := s.resources[id]
	s.tableMu.RUnlock()
	if !ok || r.info.crd != obj.GetName() {
		return
	}
	namespaces := map[string]bool{}
	for _, key := range append([]string(nil), tx.Keys(r.coll)...) {
		if rec := tx.Get(r.coll, key); rec != nil {
			tx.Remove(r.coll, rec, rec.Obj.DeepCopy())
			namespaces[rec.Namespace()] = true
		}
	}
	tx.StopWatches(r.coll)
	s.tableMu.Lock()
	delete(s.resources, id)
	s.removeFromGVsLocked(r)
	s.tableMu.Unlock()
	for ns := range namespaces {
		if ns != "" {
			s.maybeFinishNamespace(tx, ns)
		}
	}
}

// decodeCustom reads the body of a custom object as the custom resource handler does: JSON
// into an Unstructured, unknown fields pruned (a warning each, or under Strict a 400), then
// the schema's defaults.
func (s *Server) decodeCustom(res *resource, cs *crdServing, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	gvk := res.info.GVK()
	obj, warnings, err := decode.Body(nil, body, gvk, fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil, nil, api.NewInternalError(fmt.Errorf("decoded a %T", obj))
	}
	u.SetGroupVersionKind(gvk)
	pruned := structural.Prune(u.Object, cs.schema)
	if len(pruned) > 0 {
		switch fieldValidation {
		case api.FieldValidationStrict:
			return nil, nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
				gvk.Kind, gvk.Version, gvk.Kind, strings.Join(pruned, ", ")))
		case api.FieldValidationIgnore:
		default:
			warnings = append(warnings, pruned...)
		}
	}
	structural.Default(u.Object, cs.schema)
	return u, warnings, nil
}

// customCauses validates a custom object against its served schema.
func customCauses(res *resource, obj *api.Unstructured) []api.StatusCause {
	cs := res.crd.Load()
	if cs == nil {
		return nil
	}
	return structural.Validate(cs.schema, obj.Object)
}

// columnPath splits a scale path (".spec.replicas") into member names.
func columnPath(p string) []string {
	parts, err := printers.ParseColumnPath(p)
	if err != nil {
		return nil
	}
	return parts
}

// customScaleOf is the Scale view of a custom object, read at the CRD's scale paths.
func customScaleOf(sc *crdScale, obj *api.Unstructured) (replicas, statusReplicas int64, selector string) {
	if p := columnPath(sc.SpecReplicasPath); p != nil {
		replicas, _ = nestedInt(obj.Object, p...)
	}
	if p := columnPath(sc.StatusReplicasPath); p != nil {
		statusReplicas, _ = nestedInt(obj.Object, p...)
	}
	if p := columnPath(sc.LabelSelectorPath); p != nil {
		selector, _, _ = api.NestedString(obj.Object, p...)
	}
	return replicas, statusReplicas, selector
}

// crdOpenAPISchema is the schema /openapi/v3 publishes for a custom resource: the CRD's,
// with apiVersion, kind and metadata added and the kind's group-version-kind, as the
// builder of pkg/controller/openapi does.
func crdOpenAPISchema(ri ResourceInfo, cs *crdServing) json.RawMessage {
	sch := map[string]any{}
	for k, v := range cs.openAPI {
		sch[k] = v
	}
	props := map[string]any{}
	if p, ok := sch["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object."}
	props["kind"] = map[string]any{"type": "string", "description": "Kind is a string value representing the REST resource this object represents."}
	props["metadata"] = map[string]any{"type": "object", "description": "Standard object's metadata.", "x-kubernetes-preserve-unknown-fields": true}
	sch["properties"] = props
	sch["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": ri.Group, "version": ri.Version, "kind": ri.Kind}}
	data, err := json.Marshal(sch)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return data
}

// crdSchemas returns the OpenAPI schema of each custom resource of a group-version, by
// resource name.
func (s *Server) crdSchemas(group, version string) map[string]json.RawMessage {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	out := map[string]json.RawMessage{}
	for _, r := range s.byGV[group+"/"+version] {
		if cs := r.crd.Load(); cs != nil {
			ri := r.info
			ri.Version = version // another served version publishes the same schema
			out[r.info.Resource] = crdOpenAPISchema(ri, cs)
		}
	}
	return out
}

// crdCacheKey is what a group-version's OpenAPI document depends on beyond its resource
// names: the CRDs it was built from.
func (s *Server) crdCacheKey(group, version string) string {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	var b strings.Builder
	for _, r := range s.byGV[group+"/"+version] {
		if cs := r.crd.Load(); cs != nil {
			b.WriteString("|" + cs.key)
		}
	}
	return b.String()
}

// printerFor is the table layout of a resource: a custom resource's columns, else the
// built-in printer (printers.For).
func printerFor(res *resource) *printers.Printer {
	if cs := res.crd.Load(); cs != nil {
		return cs.printer
	}
	return printers.For(res.info.Group, res.info.Kind, res.info.builtin)
}
