package apiserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// This file mirrors the metadata validation of apimachinery pkg/api/validation
// (ValidateObjectMetaAccessor), the name and label rules of pkg/util/validation and
// pkg/api/validate/content, and the ConfigMap size rule of the core validation. Every text
// is the real one, so that a 422 from the simulator reads like a real server's (wire spec
// S3, E10–E16).

// Field error constructors. Each returns the StatusCause that field.Error becomes inside an
// Invalid Status: Message is the error body without the field path.

// fieldRequired mirrors field.Required.
func fieldRequired(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueRequired, Field: path, Message: withDetail("Required value", detail)}
}

// fieldInvalid mirrors field.Invalid.
func fieldInvalid(path string, value any, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: path,
		Message: withDetail("Invalid value: "+badValue(value), detail)}
}

// fieldForbidden mirrors field.Forbidden.
func fieldForbidden(path, detail string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeForbidden, Field: path, Message: withDetail("Forbidden", detail)}
}

// fieldNotSupported mirrors field.NotSupported: the value and the quoted list of valid ones.
func fieldNotSupported(path string, value any, valid []string) api.StatusCause {
	detail := ""
	if len(valid) > 0 {
		q := make([]string, len(valid))
		for i, v := range valid {
			q[i] = strconv.Quote(v)
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return api.StatusCause{Type: api.CauseTypeFieldValueNotSupported, Field: path,
		Message: withDetail("Unsupported value: "+badValue(value), detail)}
}

// fieldTooLong mirrors field.TooLong with a limit in bytes.
func fieldTooLong(path string, maxBytes int) api.StatusCause {
	unit := "bytes"
	if maxBytes == 1 {
		unit = "byte"
	}
	return api.StatusCause{Type: api.CauseTypeTooLong, Field: path,
		Message: fmt.Sprintf("Too long: may not be more than %d %s", maxBytes, unit)}
}

func withDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}

// badValue prints a bad value as field.Error.ErrorBody does: strings quoted, numbers and
// booleans plain, anything else as JSON.
func badValue(v any) string {
	switch t := v.(type) {
	case string:
		return strconv.Quote(t)
	case int, int32, int64, float32, float64, bool:
		return fmt.Sprint(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// Name and label rules, with the real texts.
const (
	dns1123LabelFmt        = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt    = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123LabelMaxLength  = 63
	dns1123SubdomainMaxLen = 253

	labelKeyFmt        = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyErrMsg     = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelKeyMaxLength  = 63
	labelValueFmt      = "(" + labelKeyFmt + ")?"
	labelValueErrMsg   = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMaxLen   = 63
	configMapKeyFmt    = `[-._a-zA-Z0-9]+`
	configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"

	// totalAnnotationSizeLimit mirrors TotalAnnotationSizeLimitB (256 KiB, wire spec E11).
	totalAnnotationSizeLimit = 256 * 1024
	// maxConfigMapSize mirrors core.MaxSecretSize, the ConfigMap data limit (1 MiB, E10).
	maxConfigMapSize = 1024 * 1024
)

var (
	dns1123LabelRegexp     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	labelKeyRegexp         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
	configMapKeyRegexp     = regexp.MustCompile("^" + configMapKeyFmt + "$")
)

// regexError mirrors validation.RegexError, including its double space between examples.
func regexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	var b strings.Builder
	b.WriteString(msg + " (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

// isDNS1123Label mirrors validation.IsDNS1123Label (lengths in characters).
func isDNS1123Label(v string) []string {
	var errs []string
	if len(v) > dns1123LabelMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d characters", dns1123LabelMaxLength))
	}
	if !dns1123LabelRegexp.MatchString(v) {
		if dns1123SubdomainRegexp.MatchString(v) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// isDNS1123Subdomain mirrors validation.IsDNS1123Subdomain; unit is "characters" for
// object names and "bytes" for label key prefixes, as the two upstream copies differ.
func isDNS1123Subdomain(v, unit string) []string {
	var errs []string
	if len(v) > dns1123SubdomainMaxLen {
		errs = append(errs, fmt.Sprintf("must be no more than %d %s", dns1123SubdomainMaxLen, unit))
	}
	if !dns1123SubdomainRegexp.MatchString(v) {
		errs = append(errs, regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// isQualifiedName mirrors content.IsLabelKey: an optional DNS-subdomain prefix, a slash and
// a name of at most 63 bytes.
func isQualifiedName(v string) []string {
	var errs []string
	parts := strings.Split(v, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range isDNS1123Subdomain(prefix, "bytes") {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a valid label key " + regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > labelKeyMaxLength {
		errs = append(errs, fmt.Sprintf("name part must be no more than %d bytes", labelKeyMaxLength))
	}
	if !labelKeyRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// isLabelValue mirrors content.IsLabelValue.
func isLabelValue(v string) []string {
	var errs []string
	if len(v) > labelValueMaxLen {
		errs = append(errs, fmt.Sprintf("must be no more than %d bytes", labelValueMaxLen))
	}
	if !labelValueRegexp.MatchString(v) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// maskTrailingDash mirrors the upstream helper of the same name: a generateName prefix may
// end in '-' because characters follow it. Upstream replaces the last two characters by
// "a"; we do the same so the same prefixes pass.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// parseKind splits "Deployment.apps" into kind and group; a core kind has no dot.
func parseKind(kind string) api.GroupKind {
	k, g, _ := strings.Cut(kind, ".")
	return api.GroupKind{Group: g, Kind: k}
}

// validateObjectMeta mirrors ValidateObjectMetaAccessor in apimachinery pkg/api/validation,
// run by the real create and update strategies. kind names the object in the message ("Pod",
// or "Deployment.apps" for a group kind). Names must be DNS-1123 subdomains, or labels when
// nameIsDNSLabel (namespaces, wire spec NS5); namespaced says whether metadata.namespace is
// required (true) or forbidden (false). It checks, in upstream order: generateName, name
// (E12–E15), namespace, generation, labels (E16, keys sorted), annotations (keys, then the
// 256 KiB total of E11) and finalizer names. Call it after the name has been generated from
// generateName, as the real server does. Failures are one 422 Invalid *api.Status with a
// cause per problem; nil means valid.
func validateObjectMeta(kind string, obj api.MetaObject, nameIsDNSLabel bool, namespaced bool) error {
	if obj == nil {
		return api.NewInternalError(fmt.Errorf("validateObjectMeta: nil object of kind %s", kind))
	}
	nameFn := func(v string) []string { return isDNS1123Subdomain(v, "characters") }
	if nameIsDNSLabel {
		nameFn = isDNS1123Label
	}
	var causes []api.StatusCause
	if gn := obj.GetGenerateName(); gn != "" {
		for _, m := range nameFn(maskTrailingDash(gn)) {
			causes = append(causes, fieldInvalid("metadata.generateName", gn, m))
		}
	}
	if name := obj.GetName(); name == "" {
		causes = append(causes, fieldRequired("metadata.name", "name or generateName is required"))
	} else {
		for _, m := range nameFn(name) {
			causes = append(causes, fieldInvalid("metadata.name", name, m))
		}
	}
	ns := obj.GetNamespace()
	switch {
	case namespaced && ns == "":
		causes = append(causes, fieldRequired("metadata.namespace", ""))
	case namespaced:
		for _, m := range isDNS1123Label(ns) {
			causes = append(causes, fieldInvalid("metadata.namespace", ns, m))
		}
	case ns != "":
		causes = append(causes, fieldForbidden("metadata.namespace", "not allowed on this type"))
	}
	if g := obj.GetGeneration(); g < 0 {
		causes = append(causes, fieldInvalid("metadata.generation", g, "must be greater than or equal to 0"))
	}
	causes = append(causes, validateLabels(obj.GetLabels(), "metadata.labels")...)
	causes = append(causes, validateAnnotations(obj.GetAnnotations(), "metadata.annotations")...)
	for _, f := range obj.GetFinalizers() {
		for _, m := range isQualifiedName(f) {
			causes = append(causes, fieldInvalid("metadata.finalizers", f, m))
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
			causes = append(causes, fieldInvalid(path, k, m))
		}
		for _, m := range isLabelValue(labels[k]) {
			causes = append(causes, fieldInvalid(path, labels[k], m))
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
			causes = append(causes, fieldInvalid(path, k, m))
		}
		total += len(k) + len(annotations[k])
	}
	if total > totalAnnotationSizeLimit {
		causes = append(causes, fieldTooLong(path, totalAnnotationSizeLimit))
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

// validateConfigMapSize mirrors the data checks of ValidateConfigMap in the core
// validation: every key of data and binaryData must be a valid config key and appear in only
// one of them, and the values together may not pass 1 MiB (wire spec E10: `ConfigMap "<n>"
// is invalid: []: Too long: may not be more than 1048576 bytes`). nil means valid.
func validateConfigMapSize(cm *api.ConfigMap) error {
	if cm == nil {
		return nil
	}
	var causes []api.StatusCause
	total := 0
	for _, k := range sortedStringKeys(cm.Data) {
		causes = append(causes, configMapKeyCauses("data", k)...)
		if _, dup := cm.BinaryData[k]; dup {
			causes = append(causes, fieldInvalid("data["+k+"]", k, "duplicate of key present in binaryData"))
		}
		total += len(cm.Data[k])
	}
	for _, k := range sortedStringKeys(cm.BinaryData) {
		causes = append(causes, configMapKeyCauses("binaryData", k)...)
		total += len(cm.BinaryData[k])
	}
	if total > maxConfigMapSize {
		// Upstream reports this on the empty path, which prints as "[]".
		causes = append(causes, fieldTooLong("[]", maxConfigMapSize))
	}
	if len(causes) == 0 {
		return nil
	}
	return api.NewInvalid(api.GroupKind{Kind: "ConfigMap"}, cm.Name, causes)
}

// configMapKeyCauses mirrors validation.IsConfigMapKey for one key of bag.
func configMapKeyCauses(bag, key string) []api.StatusCause {
	var msgs []string
	if len(key) > dns1123SubdomainMaxLen {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d characters", dns1123SubdomainMaxLen))
	}
	if !configMapKeyRegexp.MatchString(key) {
		msgs = append(msgs, regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case key == ".":
		msgs = append(msgs, "must not be '.'")
	case key == "..":
		msgs = append(msgs, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		msgs = append(msgs, "must not start with '..'")
	}
	causes := make([]api.StatusCause, len(msgs))
	for i, m := range msgs {
		causes[i] = fieldInvalid(bag+"["+key+"]", key, m)
	}
	return causes
}

// nameSuffixAlphabet mirrors the alphabet of utilrand.String in apimachinery: consonants and
// digits without vowels or look-alikes, so generated names spell no words.
const nameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// generateNameSuffix mirrors the random part of names.SimpleNameGenerator in
// apiserver/pkg/storage/names: 5 characters from nameSuffixAlphabet. The real generator also
// cuts the generateName prefix to 58 bytes first, so that the result fits a 63-character
// label; callers do that (base[:58] when longer).
func generateNameSuffix() string {
	var b [5]byte
	for i := range b {
		b[i] = nameSuffixAlphabet[rand.IntN(len(nameSuffixAlphabet))]
	}
	return string(b[:])
}
