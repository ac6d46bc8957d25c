package apiextensions

import (
	"log/slog"
	"regexp"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// Serving is what one CRD serves its objects with, built from the CRD as stored and
// replaced whole when it changes: each served version's schema, columns and subresources
// (crdInfo of the custom resource handler), and the converter between versions.
type Serving struct {
	Key       string // uid and resourceVersion of the CRD it was built from (OpenAPI cache key)
	Spec      Spec
	Storage   string // the storage version
	Home      string // the version the resource is registered at: the storage version if served
	Versions  map[string]*VersionServing
	Converter *Converter
	// Published is what the OpenAPI documents say of each served version, by name: the
	// version's own schema, subresources and selectable fields (kube-apiserver publishes
	// each version as its CRD declares it).
	Published map[string]PublishedVersion
	// PreserveUnknownFields is spec.preserveUnknownFields.
	PreserveUnknownFields bool
}

// PublishedVersion is one served version of a CRD as its OpenAPI documents describe it.
type PublishedVersion struct {
	Schema           map[string]any // the version's openAPIV3Schema (a copy); nil without one
	Status, Scale    bool
	SelectableFields []string // jsonPaths
}

// VersionServing is one served version.
type VersionServing struct {
	Name    string
	Schema  *structural.Schema
	Status  *structural.Schema // properties[status], the status subresource's schema
	Rules   structural.RuleProgram
	OpenAPI map[string]any // the version's openAPIV3Schema, for /openapi/v3
	Printer *printers.Printer
	Scale   *Scale
	// HasStatus and HasScale: the version's subresources.
	HasStatus, HasScale bool
	Deprecated          bool
	DeprecationWarning  *string
}

// Version returns the serving of version v, or of the home version when v is not served.
func (s *Serving) Version(v string) *VersionServing {
	if vs, ok := s.Versions[v]; ok {
		return vs
	}
	return s.Versions[s.Home]
}

// HomeVersion picks the version the resource is registered at: the storage version when
// it is served, else the first served one; -1 when none is.
func HomeVersion(spec Spec) int {
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

// ServingOf builds the serving state of a valid CRD.
func ServingOf(obj *api.Unstructured) *Serving { return ServingOfLogged(obj, nil) }

// ServingOfLogged is ServingOf with the CEL interpreter's stages logged to log: the rules
// compiled here (key and rv the CRD's) and, later, every evaluation of them.
func ServingOfLogged(obj *api.Unstructured, log *slog.Logger) *Serving {
	spec := ReadSpec(obj)
	cs := &Serving{
		Key:       obj.GetUID() + "/" + obj.GetResourceVersion(),
		Spec:      spec,
		Storage:   spec.StorageVersion(),
		Versions:  map[string]*VersionServing{},
		Converter: NewConverter(spec),
	}
	if h := HomeVersion(spec); h >= 0 {
		cs.Home = spec.Versions[h].Name
	}
	for i, v := range spec.Versions {
		if !v.Served {
			continue
		}
		tree, _ := VersionSchema(obj, i)
		vs := &VersionServing{Name: v.Name, OpenAPI: tree, Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning}
		if tree != nil {
			vs.Schema = structural.Parse(tree)
			vs.Status = vs.Schema.Properties["status"]
			vs.Rules = compileRules(vs.Schema, obj, log)
		}
		cols := make([]printers.Column, len(v.Columns))
		for j, c := range v.Columns {
			cols[j] = printers.Column{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
		}
		vs.Printer = printers.ForColumns(cols)
		if sub := v.Subresources; sub != nil {
			vs.HasStatus = sub.Status != nil
			vs.HasScale = sub.Scale != nil
			vs.Scale = sub.Scale
		}
		cs.Versions[v.Name] = vs
	}
	cs.PreserveUnknownFields = spec.PreserveUnknownFields
	cs.Published = map[string]PublishedVersion{}
	for j, sv := range spec.Versions {
		if !sv.Served {
			continue
		}
		pv := PublishedVersion{}
		if m, ok := VersionSchema(obj, j); ok {
			pv.Schema, _ = api.DeepCopyJSONValue(m).(map[string]any)
		}
		if sv.Subresources != nil {
			pv.Status, pv.Scale = sv.Subresources.Status != nil, sv.Subresources.Scale != nil
		}
		for _, f := range sv.SelectableFields {
			pv.SelectableFields = append(pv.SelectableFields, f.JSONPath)
		}
		cs.Published[sv.Name] = pv
	}
	return cs
}

// compileRules compiles a version's rules with the installed interpreter, traced when a
// logger is given and the interpreter can trace.
func compileRules(s *structural.Schema, crd *api.Unstructured, log *slog.Logger) structural.RuleProgram {
	if structural.Rules == nil {
		return nil
	}
	if tc, ok := structural.Rules.(structural.TracedRuleCompiler); ok && log != nil {
		p, _ := tc.CompileTraced(s, "", structural.RuleTrace{Logger: log, Key: crd.GetName(), RV: crd.GetResourceVersion()})
		return p
	}
	p, _ := structural.Rules.Compile(s, "")
	return p
}

// DeprecationWarningText is the Warning a request at a deprecated version gets: the
// version's deprecationWarning, else "<group>/<version> <Kind> is deprecated".
func (s *Serving) DeprecationWarningText(version string) string {
	vs, ok := s.Versions[version]
	if !ok || !vs.Deprecated {
		return ""
	}
	if vs.DeprecationWarning != nil {
		return *vs.DeprecationWarning
	}
	msg := s.Spec.Group + "/" + version + " " + s.Spec.Names.Kind + " is deprecated"
	newer := ""
	for _, v := range s.Spec.Versions {
		if v.Served && !v.Deprecated && CompareKubeAwareVersions(version, v.Name) < 0 && (newer == "" || CompareKubeAwareVersions(v.Name, newer) > 0) {
			newer = v.Name
		}
	}
	if newer != "" {
		msg += "; use " + s.Spec.Group + "/" + newer + " " + s.Spec.Names.Kind
	}
	return msg
}

var kubeVersion = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// CompareKubeAwareVersions mirrors version.CompareKubeAwareVersionStrings: GA above beta
// above alpha, then the major and minor numbers; names of another shape sort below, by
// reverse text.
func CompareKubeAwareVersions(a, b string) int {
	if a == b {
		return 0
	}
	parse := func(v string) (major, typ, minor int, ok bool) {
		m := kubeVersion.FindStringSubmatch(v)
		if m == nil {
			return 0, 0, 0, false
		}
		typ = map[string]int{"alpha": 0, "beta": 1, "": 2}[m[2]]
		major, _ = strconv.Atoi(m[1])
		if m[3] != "" {
			minor, _ = strconv.Atoi(m[3])
		}
		return major, typ, minor, true
	}
	am, at, an, aok := parse(a)
	bm, bt, bn, bok := parse(b)
	switch {
	case !aok && !bok:
		return strings.Compare(b, a)
	case !aok:
		return -1
	case !bok:
		return 1
	case at != bt:
		return at - bt
	case am != bm:
		return am - bm
	}
	return an - bn
}
