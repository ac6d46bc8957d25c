package apiextensions

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The static validation of a CustomResourceDefinition: ValidateCustomResourceDefinition and
// ValidateCustomResourceDefinitionUpdate of k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation, on the CRD as the internal version sees it (view).

var (
	printerColumnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// Causes mirrors ValidateCustomResourceDefinition: the causes of a new CRD (after its
// defaults and PrepareForCreate), in the real order.
func Causes(obj *api.Unstructured) []api.StatusCause {
	v := newView(obj)
	var causes []api.StatusCause
	if want := v.spec.Names.Plural + "." + v.spec.Group; obj.GetName() != want {
		causes = append(causes, validation.Invalid("metadata.name", obj.GetName(), `must be spec.names.plural+"."+spec.group`))
	}
	causes = append(causes, specCauses(v)...)
	causes = append(causes, statusCauses(obj, v)...)
	causes = append(causes, apiApprovalCauses(v.spec.Group, obj.GetAnnotations())...)
	if v.spec.PreserveUnknownFields {
		causes = append(causes, validation.Invalid("spec.preserveUnknownFields", true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	return causes
}

// UpdateCauses mirrors what ValidateCustomResourceDefinitionUpdate adds to the create's
// checks: group and plural never change, scope and kind not once the CRD is Established.
func UpdateCauses(obj, old *api.Unstructured) []api.StatusCause {
	now, was := ReadSpec(obj), ReadSpec(old)
	type field struct{ path, now, before string }
	var fields []field
	if conditionTrue(old, "Established") {
		fields = append(fields, field{"spec.scope", now.Scope, was.Scope}, field{"spec.names.kind", now.Names.Kind, was.Names.Kind})
	}
	fields = append(fields, field{"spec.group", now.Group, was.Group}, field{"spec.names.plural", now.Names.Plural, was.Names.Plural})
	var causes []api.StatusCause
	for _, f := range fields {
		if f.now != f.before {
			causes = append(causes, validation.Invalid(f.path, f.now, "field is immutable"))
		}
	}
	return causes
}

// conditionTrue reports a CRD status condition of that type with status True.
func conditionTrue(obj *api.Unstructured, typ string) bool {
	st, _ := obj.Object["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			return m["status"] == "True"
		}
	}
	return false
}

// specCauses mirrors validateCustomResourceDefinitionSpec.
func specCauses(v view) []api.StatusCause {
	spec := v.spec
	var causes []api.StatusCause
	add := func(c ...api.StatusCause) { causes = append(causes, c...) }
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
	if !v.schemaHoisted || len(v.raw) > 0 && v.schemaOf(0) == nil {
		for i := range v.raw {
			if v.schemaOf(i) == nil {
				add(validation.Required(fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), ""))
			}
		}
	}
	storage, seen, unique := 0, map[string]bool{}, true
	for i, ver := range spec.Versions {
		path := fmt.Sprintf("spec.versions[%d]", i)
		if ver.Storage {
			storage++
		}
		unique = unique && !seen[ver.Name]
		seen[ver.Name] = true
		if errs := validation.IsDNS1035Label(ver.Name); len(errs) > 0 {
			add(validation.Invalid(path+".name", ver.Name, strings.Join(errs, ",")))
		}
		for _, e := range deprecationWarningErrors(ver.Deprecated, ver.DeprecationWarning) {
			add(validation.Invalid(path+".deprecationWarning", *ver.DeprecationWarning, e))
		}
		if !v.schemaHoisted {
			add(schemaCauses(v, i, path+".schema.openAPIV3Schema")...)
		}
		if !v.subresourcesHoisted {
			add(subresourceCauses(ver.Subresources, path+".subresources")...)
		}
		if !v.columnsHoisted {
			add(columnCauses(ver.Columns, path+".additionalPrinterColumns")...)
		}
	}
	if !unique {
		add(validation.InvalidRaw("spec.versions", v.internalVersions(), "must contain unique version names"))
	}
	if storage != 1 {
		add(validation.InvalidRaw("spec.versions", v.internalVersions(), "must have exactly one version marked as storage version"))
	}
	if len(spec.Versions) > 0 {
		if errs := validation.IsDNS1035Label(spec.Versions[0].Name); len(errs) > 0 {
			add(validation.Invalid("spec.version", spec.Versions[0].Name, strings.Join(errs, ",")))
		}
	}
	for _, n := range []struct{ name, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular}, {"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if n.value == "" {
			add(validation.Required("spec.names."+n.name, ""))
		}
	}
	add(namesCauses(spec.Names, "spec.names")...)
	if v.schemaHoisted && len(v.raw) > 0 {
		add(schemaCauses(v, -1, "spec.validation.openAPIV3Schema")...)
	}
	if v.subresourcesHoisted && len(spec.Versions) > 0 {
		add(subresourceCauses(spec.Versions[0].Subresources, "spec.subresources")...)
	}
	if v.columnsHoisted && len(spec.Versions) > 0 {
		add(columnCauses(spec.Versions[0].Columns, "spec.additionalPrinterColumns")...)
	}
	if spec.Strategy() != "None" && spec.PreserveUnknownFields {
		add(validation.Invalid("spec.conversion.strategy", spec.Strategy(), "must be None if spec.preserveUnknownFields is true"))
	}
	add(conversionCauses(spec.Conversion)...)
	return causes
}

// schemaCauses checks the schema of version i (-1: the one all versions share).
func schemaCauses(v view, i int, path string) []api.StatusCause {
	idx := i
	if idx < 0 {
		idx = 0
	}
	tree := v.schemaOf(idx)
	if tree == nil {
		return nil
	}
	_, causes := structural.Check(tree, path, structural.CheckOptions{StatusSubresource: v.statusEnabled(i)})
	return causes
}

// deprecationWarningErrors mirrors validateDeprecationWarning.
func deprecationWarningErrors(deprecated bool, w *string) []string {
	if !deprecated && w != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if w == nil {
		return nil
	}
	var errs []string
	if len(*w) > 256 {
		errs = append(errs, "must be <= 256 characters long")
	}
	if len(*w) == 0 {
		errs = append(errs, "must not be an empty string")
	}
	for i, r := range *w {
		if !unicode.IsPrint(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*w) {
		errs = append(errs, "must only contain printable UTF-8 characters")
	}
	return errs
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
		if errs := validation.IsDNS1035Label(s); len(errs) > 0 {
			causes = append(causes, validation.Invalid(fmt.Sprintf("%s.shortNames[%d]", path, i), s, strings.Join(errs, ",")))
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		causes = append(causes, validation.Invalid(path+".listKind", n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		if errs := validation.IsDNS1035Label(c); len(errs) > 0 {
			causes = append(causes, validation.Invalid(fmt.Sprintf("%s.categories[%d]", path, i), c, strings.Join(errs, ",")))
		}
	}
	return causes
}

// columnCauses mirrors ValidateCustomResourceColumnDefinition. The real server requires only
// that a path starts with "."; one its JSONPath parser refuses is accepted, and its table
// then stops before that column.
func columnCauses(cols []Column, path string) []api.StatusCause {
	var causes []api.StatusCause
	for j, c := range cols {
		cp := fmt.Sprintf("%s[%d]", path, j)
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
			causes = append(causes, validation.Required(cp+".JSONPath", ""))
		} else {
			causes = append(causes, simpleJSONPathCauses(c.JSONPath, cp+".JSONPath")...)
		}
	}
	return causes
}

// simpleJSONPathCauses mirrors validateSimpleJSONPath.
func simpleJSONPathCauses(s, path string) []api.StatusCause {
	switch {
	case s == "":
		return []api.StatusCause{validation.Invalid(path, s, "must not be empty")}
	case s[0] != '.':
		return []api.StatusCause{validation.Invalid(path, s, "must be a simple json path starting with .")}
	}
	return nil
}

// subresourceCauses mirrors ValidateCustomResourceDefinitionSubresources.
func subresourceCauses(sub *Subresources, path string) []api.StatusCause {
	if sub == nil || sub.Scale == nil {
		return nil
	}
	var causes []api.StatusCause
	sc := sub.Scale
	check := func(p, field, under string, prefixes ...string) {
		fp := path + ".scale." + field
		if p == "" {
			causes = append(causes, validation.Required(fp, ""))
			return
		}
		if c := simpleJSONPathCauses(p, fp); len(c) > 0 {
			causes = append(causes, c...)
			return
		}
		for _, pre := range prefixes {
			if strings.HasPrefix(p, pre) {
				return
			}
		}
		causes = append(causes, validation.Invalid(fp, p, "should be a json path under "+under))
	}
	check(sc.SpecReplicasPath, "specReplicasPath", ".spec", ".spec.")
	check(sc.StatusReplicasPath, "statusReplicasPath", ".status", ".status.")
	if p := sc.LabelSelectorPath; p != nil && *p != "" {
		check(*p, "labelSelectorPath", "either .spec or .status", ".spec.", ".status.")
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

// statusCauses mirrors ValidateCustomResourceDefinitionStatus and
// ValidateCustomResourceDefinitionStoredVersions.
func statusCauses(obj *api.Unstructured, v view) []api.StatusCause {
	st, _ := obj.Object["status"].(map[string]any)
	var accepted Names
	if an, ok := st["acceptedNames"].(map[string]any); ok {
		accepted.Plural, _ = an["plural"].(string)
		accepted.Singular, _ = an["singular"].(string)
		accepted.Kind, _ = an["kind"].(string)
		accepted.ListKind, _ = an["listKind"].(string)
		accepted.ShortNames = toStrings(an["shortNames"])
		accepted.Categories = toStrings(an["categories"])
	}
	causes := namesCauses(accepted, "status.acceptedNames")
	stored := toStrings(st["storedVersions"])
	storedValue := toAnySlice(stored)
	if stored == nil {
		storedValue = nil
	}
	if len(stored) == 0 {
		return append(causes, validation.Invalid("status.storedVersions", storedValue, "must have at least one stored version"))
	}
	index := map[string]int{}
	for i, s := range stored {
		index[s] = i
	}
	for _, ver := range v.spec.Versions {
		_, ok := index[ver.Name]
		if ver.Storage && !ok {
			causes = append(causes, validation.Invalid("status.storedVersions", storedValue, "must have the storage version "+ver.Name))
		}
		delete(index, ver.Name)
	}
	for _, s := range stored {
		if i, ok := index[s]; ok {
			causes = append(causes, validation.Invalid(fmt.Sprintf("status.storedVersions[%d]", i), s,
				fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", s)))
		}
	}
	return causes
}

func toStrings(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

const apiApprovedAnnotation = "api-approved.kubernetes.io"

// isProtectedGroup mirrors apihelpers.IsProtectedCommunityGroup.
func isProtectedGroup(group string) bool {
	return group == "k8s.io" || strings.HasSuffix(group, ".k8s.io") || group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io")
}

// approvalState mirrors apihelpers.GetAPIApprovalState.
func approvalState(annotations map[string]string) (state, reason string) {
	a := annotations[apiApprovedAnnotation]
	u, err := url.ParseRequestURI(a)
	switch {
	case a == "":
		return "Missing", fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", apiApprovedAnnotation)
	case strings.HasPrefix(a, "unapproved"):
		return "Bypassed", fmt.Sprintf("not approved: %q", a)
	case err == nil && u.Host != "" && u.Scheme != "":
		return "Approved", "approved in " + a
	}
	return "Invalid", fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", apiApprovedAnnotation)
}

// apiApprovalCauses mirrors validateAPIApproval: a CRD in a group under k8s.io or
// kubernetes.io needs the api-approved.kubernetes.io annotation, a URL or "unapproved…";
func apiApprovalCauses(group string, annotations map[string]string) []api.StatusCause {
	if !isProtectedGroup(group) {
		return nil
	}
	state, reason := approvalState(annotations)
	path := "metadata.annotations[" + apiApprovedAnnotation + "]"
	switch state {
	case "Missing":
		return []api.StatusCause{validation.Required(path, reason)}
	case "Invalid":
		return []api.StatusCause{validation.Invalid(path, annotations[apiApprovedAnnotation], reason)}
	}
	return nil
}

func toAnySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
