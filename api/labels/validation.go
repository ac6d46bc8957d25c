package labels

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The limits and rule texts below are wire behaviour: the real server puts them into its 400
// responses, and our simulated server must answer with the same words.
const (
	maxNameLength      = 63  // label value, and the name part of a key
	maxSubdomainLength = 253 // the optional prefix of a key

	nameRegex      = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	valueRegex     = "(" + nameRegex + ")?"
	dnsLabelRegex  = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	subdomainRegex = dnsLabelRegex + "(\\." + dnsLabelRegex + ")*"

	nameRule      = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	valueRule     = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

// ruleText explains a character rule with examples and the regex it stands for. The real
// server separates examples with ",  or " (two blanks); we keep that so texts compare equal.
func ruleText(rule, regex string, examples ...string) string {
	var b strings.Builder
	b.WriteString(rule)
	b.WriteString(" (e.g. ")
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + ex + "', ")
	}
	b.WriteString("regex used for validation is '" + regex + "')")
	return b.String()
}

func tooLong(n int) string { return "must be no more than " + strconv.Itoa(n) + " bytes" }

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isName reports whether s matches nameRegex. A hand-written scan instead of regexp keeps
// Parse free of regexp state and cheap on the hot LIST/WATCH path.
func isName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isSubdomain reports whether s matches subdomainRegex: dot-separated lowercase DNS labels.
func isSubdomain(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			lowerAlnum := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
			edge := i == 0 || i == len(part)-1
			if !lowerAlnum && (edge || c != '-') {
				return false
			}
		}
	}
	return true
}

// keyProblems lists every way key fails to be a qualified name, in the real server's order.
func keyProblems(key string) []string {
	var probs []string
	name := key
	switch strings.Count(key, "/") {
	case 0:
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(key, "/")
		if prefix == "" {
			probs = append(probs, "prefix part must be non-empty")
			break
		}
		if len(prefix) > maxSubdomainLength {
			probs = append(probs, "prefix part "+tooLong(maxSubdomainLength))
		}
		if !isSubdomain(prefix) {
			probs = append(probs, "prefix part "+ruleText(subdomainRule, subdomainRegex, "example.com"))
		}
	default:
		// More than one '/': the name part is meaningless, so one summary is enough.
		return []string{"a valid label key " + ruleText(nameRule, nameRegex, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		probs = append(probs, "name part must be non-empty")
	} else if len(name) > maxNameLength {
		probs = append(probs, "name part "+tooLong(maxNameLength))
	}
	if !isName(name) {
		probs = append(probs, "name part "+ruleText(nameRule, nameRegex, "MyName", "my.name", "123-abc"))
	}
	return probs
}

// valueProblems lists every way v fails to be a label value.
func valueProblems(v string) []string {
	var probs []string
	if len(v) > maxNameLength {
		probs = append(probs, tooLong(maxNameLength))
	}
	if v != "" && !isName(v) {
		probs = append(probs, ruleText(valueRule, valueRegex, "MyValue", "my_value", "12345"))
	}
	return probs
}

// validateKey returns nil or an "Invalid value" error for key at path.
func validateKey(key, path string) error {
	if probs := keyProblems(key); len(probs) > 0 {
		return invalidValue(path, key, strings.Join(probs, "; "))
	}
	return nil
}

// validateValue returns nil or an "Invalid value" error for value at path.
func validateValue(value, path string) error {
	if probs := valueProblems(value); len(probs) > 0 {
		return invalidValue(path, value, strings.Join(probs, "; "))
	}
	return nil
}

// fieldError is one complaint about one part of a requirement, printed as
// `<path>: <kind>: <bad value>: <detail>` in the shape the real server uses.
type fieldError struct {
	path, kind, bad, detail string
}

func (e *fieldError) Error() string {
	return e.path + ": " + e.kind + ": " + e.bad + ": " + e.detail
}

// quoteBad renders a rejected value: strings with Go quoting, anything else as JSON (a list of
// values prints as ["a","b"]), which is how the real server renders them.
func quoteBad(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "<unprintable>"
	}
	return string(b)
}

func invalidValue(path string, bad any, detail string) error {
	return &fieldError{path: path, kind: "Invalid value", bad: quoteBad(bad), detail: detail}
}

func unsupportedOperator(op Operator) error {
	quoted := make([]string, len(allOperators))
	for i, o := range allOperators {
		quoted[i] = strconv.Quote(string(o))
	}
	return &fieldError{path: "operator", kind: "Unsupported value", bad: quoteBad(op),
		detail: "supported values: " + strings.Join(quoted, ", ")}
}

// errorList joins several complaints into one error: a single one prints as itself, several
// print once each as "[a, b]".
type errorList []error

func (l errorList) Error() string {
	seen := make(map[string]bool, len(l))
	var msgs []string
	for _, e := range l {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap lets errors.Is and errors.As look at each complaint.
func (l errorList) Unwrap() []error { return l }

func joinErrors(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errorList(errs)
}
