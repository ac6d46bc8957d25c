package validation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// parseKind splits "Deployment.apps" into kind and group; a core kind has no dot.
func parseKind(kind string) api.GroupKind {
	k, g, _ := strings.Cut(kind, ".")
	return api.GroupKind{Group: g, Kind: k}
}

// ValidateObjectMeta mirrors ValidateObjectMetaAccessor in apimachinery pkg/api/validation,
// run by the real create and update strategies. kind names the object in the message ("Pod",
// or "Deployment.apps" for a group kind). Names must be DNS-1123 subdomains, or labels when
// nameIsDNSLabel (namespaces, docs/behaviour/wire.md NS5); namespaced says whether metadata.namespace is
// required (true) or forbidden (false). It checks, in upstream order: generateName, name
// (E12–E15), namespace, generation, labels (E16, keys sorted), annotations (keys, then the
// 256 KiB total of E11) and finalizer names. Call it after the name has been generated from
// generateName, as the real server does. Failures are one 422 Invalid *api.Status with a
// cause per problem; nil means valid.
func ValidateObjectMeta(kind string, obj api.MetaObject, nameIsDNSLabel bool, namespaced bool) error {
	nameFn := func(v string) []string { return isDNS1123Subdomain(v, "characters") }
	if nameIsDNSLabel {
		nameFn = isDNS1123Label
	}
	return ValidateObjectMetaWith(kind, obj, nameFn, namespaced)
}

// ValidateObjectMetaWith is ValidateObjectMeta with the kind's own name rule: nameFn returns
// the problems of a name (PathSegmentName for a kind whose validation has none).
func ValidateObjectMetaWith(kind string, obj api.MetaObject, nameFn func(string) []string, namespaced bool) error {
	if obj == nil {
		return api.NewInternalError(fmt.Errorf("ValidateObjectMeta: nil object of kind %s", kind))
	}
	var causes []api.StatusCause
	if gn := obj.GetGenerateName(); gn != "" {
		for _, m := range nameFn(maskTrailingDash(gn)) {
			causes = append(causes, Invalid("metadata.generateName", gn, m))
		}
	}
	if name := obj.GetName(); name == "" {
		causes = append(causes, Required("metadata.name", "name or generateName is required"))
	} else {
		for _, m := range nameFn(name) {
			causes = append(causes, Invalid("metadata.name", name, m))
		}
	}
	ns := obj.GetNamespace()
	switch {
	case namespaced && ns == "":
		causes = append(causes, Required("metadata.namespace", ""))
	case namespaced:
		for _, m := range isDNS1123Label(ns) {
			causes = append(causes, Invalid("metadata.namespace", ns, m))
		}
	case ns != "":
		causes = append(causes, Forbidden("metadata.namespace", "not allowed on this type"))
	}
	if g := obj.GetGeneration(); g < 0 {
		causes = append(causes, Invalid("metadata.generation", g, "must be greater than or equal to 0"))
	}
	causes = append(causes, validateLabels(obj.GetLabels(), "metadata.labels")...)
	causes = append(causes, validateAnnotations(obj.GetAnnotations(), "metadata.annotations")...)
	for _, f := range obj.GetFinalizers() {
		for _, m := range isQualifiedName(f) {
			causes = append(causes, Invalid("metadata.finalizers", f, m))
		}
	}
	if len(causes) == 0 {
		return nil
	}
	return api.NewInvalid(parseKind(kind), obj.GetName(), causes)
}

// validateLabels mirrors v1validation.ValidateLabels. Upstream walks the map in random
// order; we sort the keys so that the message is stable.
func validateLabels(labels map[string]string, path string) []api.StatusCause {
	var causes []api.StatusCause
	for _, k := range sortedStringKeys(labels) {
		for _, m := range isQualifiedName(k) {
			causes = append(causes, Invalid(path, k, m))
		}
		for _, m := range isLabelValue(labels[k]) {
			causes = append(causes, Invalid(path, labels[k], m))
		}
	}
	return causes
}

// validateAnnotations mirrors apimachinery ValidateAnnotations: keys are qualified names
// (checked in lower case) and keys plus values total at most 256 KiB.
func validateAnnotations(annotations map[string]string, path string) []api.StatusCause {
	var causes []api.StatusCause
	total := 0
	for _, k := range sortedStringKeys(annotations) {
		for _, m := range isQualifiedName(strings.ToLower(k)) {
			causes = append(causes, Invalid(path, k, m))
		}
		total += len(k) + len(annotations[k])
	}
	if total > totalAnnotationSizeLimit {
		causes = append(causes, TooLong(path, totalAnnotationSizeLimit))
	}
	return causes
}

func sortedStringKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// PathSegmentName mirrors path.IsValidPathSegmentName, the only name rule the generic
// registry applies: a name that can be one segment of a URL path.
func PathSegmentName(name string) []string {
	var out []string
	if name == "." || name == ".." {
		out = append(out, fmt.Sprintf("may not be '%s'", name))
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			out = append(out, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return out
}
