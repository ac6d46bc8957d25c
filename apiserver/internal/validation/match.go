package validation

import "strings"

// Hand-written matchers for the name and label patterns of names.go, each answering what
// its regular expression (the *Fmt constant, anchored at both ends) answers. Every object
// a server creates checks its name and labels, and the regexp engine took a twentieth of a
// start-up and most of its garbage matching them; the messages still quote the patterns.

// isLowerAlnum and isAlnum are the character classes of the patterns (ASCII only).
func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
func isAlnum(c byte) bool      { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// matchDNS1123Label is dns1123LabelFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func matchDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c != '-' && !isLowerAlnum(c) {
			return false
		}
	}
	return true
}

// matchDNS1035Label is dns1035LabelFmt: [a-z]([-a-z0-9]*[a-z0-9])?
func matchDNS1035Label(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z' && matchDNS1123Label(s)
}

// matchDNS1123Subdomain is dns1123SubdomainFmt: labels joined by dots.
func matchDNS1123Subdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !matchDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// matchLabelKey is labelKeyFmt: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func matchLabelKey(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c != '-' && c != '_' && c != '.' && !isAlnum(c) {
			return false
		}
	}
	return true
}

// matchLabelValue is labelValueFmt: empty, or a label key's pattern.
func matchLabelValue(s string) bool { return s == "" || matchLabelKey(s) }

// matchConfigMapKey is configMapKeyFmt: [-._a-zA-Z0-9]+
func matchConfigMapKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '-' && c != '_' && c != '.' && !isAlnum(c) {
			return false
		}
	}
	return true
}
