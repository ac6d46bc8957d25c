package apiextensions

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The static validation of a CustomResourceDefinition, after ValidateCustomResourceDefinition
// in k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation: the name is
// plural.group, the group a domain with a dot, the names DNS-1035 labels, exactly one
// storage version, a structural openAPIV3Schema per version, valid printer columns and
// scale paths, and the api-approved.kubernetes.io annotation for the community groups.

// Spec is the part of a CRD the server reads, decoded from the stored object.
type Spec struct {
	Group                 string     `json:"group"`
	Names                 Names      `json:"names"`
	Scope                 string     `json:"scope"`
	Versions              []Version  `json:"versions"`
	PreserveUnknownFields bool       `json:"preserveUnknownFields"`
	Conversion            Conversion `json:"conversion"`
}

type Names struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind"`
	ShortNames []string `json:"shortNames"`
	Categories []string `json:"categories"`
}

type Conversion struct {
	Strategy string `json:"strategy"`
}

type Version struct {
	Name         string `json:"name"`
	Served       bool   `json:"served"`
	Storage      bool   `json:"storage"`
	Subresources *struct {
		Status *struct{} `json:"status"`
		Scale  *Scale    `json:"scale"`
	} `json:"subresources"`
	Columns []struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Format      string `json:"format"`
		Description string `json:"description"`
		Priority    int32  `json:"priority"`
		JSONPath    string `json:"jsonPath"`
	} `json:"additionalPrinterColumns"`
	SelectableFields []struct {
		JSONPath string `json:"jsonPath"`
	} `json:"selectableFields"`
}

type Scale struct {
	SpecReplicasPath   string `json:"specReplicasPath"`
	StatusReplicasPath string `json:"statusReplicasPath"`
	LabelSelectorPath  string `json:"labelSelectorPath"`
}

// ReadSpec decodes the spec of a stored CRD (the schema decoder has checked its types).
func ReadSpec(obj *api.Unstructured) Spec {
	var spec Spec
	if raw, ok := obj.Object["spec"]; ok {
		data, _ := json.Marshal(raw)
		_ = json.Unmarshal(data, &spec)
	}
	return spec
}

// VersionSchema returns the openAPIV3Schema tree of version i, as stored (numbers int64).
func VersionSchema(obj *api.Unstructured, i int) (map[string]any, bool) {
	versions, _ := nestedVersions(obj)
	if i >= len(versions) {
		return nil, false
	}
	v, _ := versions[i].(map[string]any)
	sch, _ := v["schema"].(map[string]any)
	m, ok := sch["openAPIV3Schema"].(map[string]any)
	return m, ok
}

var printerColumnTypes = []string{"boolean", "date", "integer", "number", "string"}
var printerColumnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}

// Causes returns the validation causes of a CRD, in the order the real validation finds
// them.
func Causes(obj *api.Unstructured) []api.StatusCause {
	spec := ReadSpec(obj)
	var causes []api.StatusCause
	add := func(c ...api.StatusCause) { causes = append(causes, c...) }
	if want := spec.Names.Plural + "." + spec.Group; obj.GetName() != want {
		add(validation.Invalid("metadata.name", obj.GetName(), `must be spec.names.plural+"."+spec.group`))
	}
	switch {
	case spec.Group == "":
		add(validation.Required("spec.group", ""))
	case len(validation.IsDNS1123Subdomain(spec.Group)) > 0:
		add(validation.Invalid("spec.group", spec.Group, strings.Join(validation.IsDNS1123Subdomain(spec.Group), ",")))
	case !strings.Contains(spec.Group, "."):
		add(validation.Invalid("spec.group", spec.Group, "should be a domain with at least one dot"))
	}
	switch spec.Scope {
	case "":
		add(validation.Required("spec.scope", ""))
	case "Cluster", "Namespaced":
	default:
		add(validation.NotSupported("spec.scope", spec.Scope, []string{"Cluster", "Namespaced"}))
	}
	storage, seen, unique := 0, map[string]bool{}, true
	for i, v := range spec.Versions {
		path := fmt.Sprintf("spec.versions[%d]", i)
		if v.Storage {
			storage++
		}
		unique = unique && !seen[v.Name]
		seen[v.Name] = true
		if errs := validation.IsDNS1035Label(v.Name); len(errs) > 0 {
			add(validation.Invalid(path+".name", v.Name, strings.Join(errs, ",")))
		}
		add(versionCauses(obj, i, v, path)...)
	}
	// The real message prints the whole versions slice with %#v; we elide its members.
	versionsValue := "[]apiextensions.CustomResourceDefinitionVersion{…}"
	if len(spec.Versions) == 0 {
		versionsValue = "[]apiextensions.CustomResourceDefinitionVersion(nil)"
	}
	if !unique {
		add(validation.InvalidRaw("spec.versions", versionsValue, "must contain unique version names"))
	}
	if storage != 1 {
		add(validation.InvalidRaw("spec.versions", versionsValue, "must have exactly one version marked as storage version"))
	}
	for _, n := range []struct{ name, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular}, {"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if n.value == "" {
			add(validation.Required("spec.names."+n.name, ""))
		}
	}
	add(namesCauses(spec.Names, "spec.names")...)
	if spec.Conversion.Strategy != "" && spec.Conversion.Strategy != "None" {
		add(validation.NotSupported("spec.conversion.strategy", spec.Conversion.Strategy, []string{"None"}))
	}
	if spec.PreserveUnknownFields {
		add(validation.Invalid("spec.preserveUnknownFields", true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	add(apiApprovalCauses(spec.Group, obj.GetAnnotations())...)
	return causes
}

// namesCauses mirrors ValidateCustomResourceDefinitionNames.
func namesCauses(n Names, path string) []api.StatusCause {
	var causes []api.StatusCause
	label := func(field, value, prefix string, lower bool) {
		v := value
		if lower {
			v = strings.ToLower(value)
		}
		if errs := validation.IsDNS1035Label(v); value != "" && len(errs) > 0 {
			causes = append(causes, validation.Invalid(path+"."+field, value, prefix+strings.Join(errs, ",")))
		}
	}
	label("plural", n.Plural, "", false)
	label("singular", n.Singular, "", false)
	label("kind", n.Kind, "may have mixed case, but should otherwise match: ", true)
	label("listKind", n.ListKind, "may have mixed case, but should otherwise match: ", true)
	for i, s := range n.ShortNames {
		label(fmt.Sprintf("shortNames[%d]", i), s, "", false)
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		causes = append(causes, validation.Invalid(path+".listKind", n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		label(fmt.Sprintf("categories[%d]", i), c, "", false)
	}
	return causes
}

// versionCauses checks one version: a structural schema (required: this simulator, as
// the real server for v1 CRDs, serves no schemaless version), printer columns, scale paths.
func versionCauses(obj *api.Unstructured, i int, v Version, path string) []api.StatusCause {
	var causes []api.StatusCause
	if m, ok := VersionSchema(obj, i); !ok {
		causes = append(causes, validation.Required(path+".schema.openAPIV3Schema", ""))
	} else {
		_, sc := structural.Parse(m, path+".schema.openAPIV3Schema")
		causes = append(causes, sc...)
	}
	for j, c := range v.Columns {
		cp := fmt.Sprintf("%s.additionalPrinterColumns[%d]", path, j)
		if c.Name == "" {
			causes = append(causes, validation.Required(cp+".name", ""))
		}
		switch {
		case c.Type == "":
			causes = append(causes, validation.Required(cp+".type", "must be one of "+strings.Join(printerColumnTypes, ",")))
		case !contains(printerColumnTypes, c.Type):
			causes = append(causes, validation.Invalid(cp+".type", c.Type, "must be one of "+strings.Join(printerColumnTypes, ",")))
		}
		if c.Format != "" && !contains(printerColumnFormats, c.Format) {
			causes = append(causes, validation.Invalid(cp+".format", c.Format, "must be one of "+strings.Join(printerColumnFormats, ",")))
		}
		if c.JSONPath == "" {
			causes = append(causes, validation.Required(cp+".jsonPath", ""))
		} else if _, err := printers.ParseColumnPath(c.JSONPath); err != nil {
			causes = append(causes, validation.Invalid(cp+".jsonPath", c.JSONPath, "must be a simple json path: this simulator evaluates dotted member paths only"))
		}
	}
	if v.Subresources != nil && v.Subresources.Scale != nil {
		sp := path + ".subresources.scale"
		sc := v.Subresources.Scale
		if !strings.HasPrefix(sc.SpecReplicasPath, ".spec.") {
			causes = append(causes, validation.Invalid(sp+".specReplicasPath", sc.SpecReplicasPath, "should be a json path under .spec"))
		}
		if !strings.HasPrefix(sc.StatusReplicasPath, ".status.") {
			causes = append(causes, validation.Invalid(sp+".statusReplicasPath", sc.StatusReplicasPath, "should be a json path under .status"))
		}
		if p := sc.LabelSelectorPath; p != "" && !strings.HasPrefix(p, ".spec.") && !strings.HasPrefix(p, ".status.") {
			causes = append(causes, validation.Invalid(sp+".labelSelectorPath", p, "should be a json path under either .spec or .status"))
		}
	}
	return causes
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// UpdateCauses mirrors validateCustomResourceDefinitionSpecUpdate: the group and the
// plural name the resource, so they never change; once the CRD is Established (here, always)
// neither do its scope and kind.
func UpdateCauses(obj, old *api.Unstructured) []api.StatusCause {
	spec, was := ReadSpec(obj), ReadSpec(old)
	var causes []api.StatusCause
	for _, f := range []struct{ path, now, before string }{
		{"spec.scope", spec.Scope, was.Scope}, {"spec.names.kind", spec.Names.Kind, was.Names.Kind},
		{"spec.group", spec.Group, was.Group}, {"spec.names.plural", spec.Names.Plural, was.Names.Plural},
	} {
		if f.now != f.before {
			causes = append(causes, validation.Invalid(f.path, f.now, "field is immutable"))
		}
	}
	return causes
}

const apiApprovedAnnotation = "api-approved.kubernetes.io"

// apiApprovalCauses mirrors validateAPIApproval: a CRD in a group under k8s.io or
// kubernetes.io needs the api-approved.kubernetes.io annotation, a URL or "unapproved…".
func apiApprovalCauses(group string, annotations map[string]string) []api.StatusCause {
	protected := group == "k8s.io" || strings.HasSuffix(group, ".k8s.io") ||
		group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io")
	if !protected {
		return nil
	}
	path := "metadata.annotations[" + apiApprovedAnnotation + "]"
	a := annotations[apiApprovedAnnotation]
	switch u, err := url.ParseRequestURI(a); {
	case a == "":
		return []api.StatusCause{validation.Required(path, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", apiApprovedAnnotation))}
	case strings.HasPrefix(a, "unapproved"), err == nil && u.Host != "" && u.Scheme != "":
		return nil
	}
	return []api.StatusCause{validation.Invalid(path, a, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", apiApprovedAnnotation))}
}

func nestedVersions(obj *api.Unstructured) ([]any, bool) {
	spec, _ := obj.Object["spec"].(map[string]any)
	l, ok := spec["versions"].([]any)
	return l, ok
}
