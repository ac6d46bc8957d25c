package validation

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

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

	// totalAnnotationSizeLimit mirrors TotalAnnotationSizeLimitB (256 KiB, docs/behaviour/wire.md E11).
	totalAnnotationSizeLimit = 256 * 1024
	// maxConfigMapSize mirrors core.MaxSecretSize, the ConfigMap data limit (1 MiB, E10).
	maxConfigMapSize = 1024 * 1024
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
	if !matchDNS1123Label(v) {
		if matchDNS1123Subdomain(v) {
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
	if !matchDNS1123Subdomain(v) {
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
	if !matchLabelKey(name) {
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
	if !matchLabelValue(v) {
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

// nameSuffixAlphabet mirrors the alphabet of utilrand.String in apimachinery: consonants and
// digits without vowels or look-alikes, so generated names spell no words.
const nameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// GenerateNameSuffix mirrors the random part of names.SimpleNameGenerator in
// apiserver/pkg/storage/names: 5 characters from nameSuffixAlphabet. The real generator also
// cuts the generateName prefix to 58 bytes first, so that the result fits a 63-character
// label; callers do that (base[:58] when longer).
func GenerateNameSuffix() string {
	var b [5]byte
	for i := range b {
		b[i] = nameSuffixAlphabet[rand.IntN(len(nameSuffixAlphabet))]
	}
	return string(b[:])
}

// IsNamespaceName reports whether ns is a valid namespace name (an RFC 1123 label), the
// check ValidateObjectMeta makes of metadata.namespace.
func IsNamespaceName(ns string) bool { return len(isDNS1123Label(ns)) == 0 }
