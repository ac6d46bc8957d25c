package fieldmanager

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FieldManagerMaxLength mirrors validation.FieldManagerMaxLength.
const FieldManagerMaxLength = 128

// ManagerFromUserAgent mirrors prefixFromUserAgent in handlers/create.go: what precedes the
// first "/" of the User-Agent, without unprintable characters, cut to 128 bytes. A request
// without ?fieldManager= is managed under this name ("kubectl-client-side-apply",
// "kube-controller-manager", "Go-http-client").
func ManagerFromUserAgent(ua string) string {
	first, _, _ := strings.Cut(ua, "/")
	if len(first) <= FieldManagerMaxLength && printableASCII(first) {
		return first // the usual case, taken as it is without a copy
	}
	var b strings.Builder
	for _, r := range first {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > FieldManagerMaxLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// printableASCII reports whether s is all ASCII that unicode.IsPrint keeps (space to '~').
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// ManagerOrUserAgent mirrors managerOrUserAgent: the fieldManager parameter when given.
func ManagerOrUserAgent(manager, ua string) string {
	if manager != "" {
		return manager
	}
	return ManagerFromUserAgent(ua)
}

// ValidateFieldManager mirrors ValidateFieldManager in apimachinery's meta/v1 validation:
// each problem as field.Error prints it at path "fieldManager" (too long, then each
// unprintable character). The handlers wrap them in their 400 or 422.
func ValidateFieldManager(name string) []string {
	var errs []string
	if len(name) > FieldManagerMaxLength {
		errs = append(errs, fmt.Sprintf("fieldManager: Too long: may not be more than %d bytes", FieldManagerMaxLength))
	}
	for i, r := range name {
		if !unicode.IsPrint(r) {
			errs = append(errs, fmt.Sprintf("fieldManager: Invalid value: %q: invalid character %#U (at position %d)", name, r, i))
		}
	}
	return errs
}
