package validation

import "fmt"

const (
	dns1035LabelFmt    = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
)

// IsDNS1035Label mirrors validation.IsDNS1035Label in k8s.io/apimachinery: the rule of a
// custom resource's plural, singular, short names and version names.
func IsDNS1035Label(v string) []string {
	var errs []string
	if len(v) > dns1123LabelMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d characters", dns1123LabelMaxLength))
	}
	if !matchDNS1035Label(v) {
		errs = append(errs, regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsDNS1123Subdomain mirrors validation.IsDNS1123Subdomain in k8s.io/apimachinery: the rule
// of an API group name and of most object names.
func IsDNS1123Subdomain(v string) []string { return isDNS1123Subdomain(v, "characters") }

// IsDNS1123Label mirrors validation.IsDNS1123Label in k8s.io/apimachinery.
func IsDNS1123Label(v string) []string { return isDNS1123Label(v) }

// IsValidLabelValue mirrors validation.IsValidLabelValue in k8s.io/apimachinery.
func IsValidLabelValue(v string) []string { return isLabelValue(v) }

// MaskTrailingDash mirrors the helper of apimachinery's NameIs* functions for generateName
// prefixes, which may end in '-'.
func MaskTrailingDash(name string) string { return maskTrailingDash(name) }

// DNS1123SubdomainInBytes is IsDNS1123Subdomain with its length limit stated in bytes, as
// the declarative validation of some kinds (ReplicationControllers) states it.
func DNS1123SubdomainInBytes(v string) []string { return isDNS1123Subdomain(v, "bytes") }

// IsLabelValue mirrors validation.IsValidLabelValue.
func IsLabelValue(v string) []string { return isLabelValue(v) }
