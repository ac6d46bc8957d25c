package structural

import (
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The string formats custom objects are checked against: kube-openapi's strfmt.Default
// registry (pkg/validation/strfmt: default.go, time.go, date.go, duration.go, bson.go,
// kubernetes-extensions.go, with govalidator's checks), which is also the set
// apiextensions-apiserver keeps (pkg/apiserver/validation/formats.go,
// supportedVersionedFormats up to v1.34). Names are compared without dashes, as
// strfmt.DefaultNameNormalizer does: date-time is datetime.

var formatCheckers = map[string]func(string) bool{
	"bsonobjectid": isBSONObjectID,
	"uri":          func(s string) bool { _, err := url.ParseRequestURI(s); return err == nil },
	"email":        func(s string) bool { a, err := mail.ParseAddress(s); return err == nil && a.Address != "" },
	"hostname":     isHostname,
	"ipv4":         func(s string) bool { return parseIPSloppy(s) != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") },
	"cidr":         isCIDRSloppy,
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         lazyMatch(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`),
	"uuid3":        lazyMatch(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`),
	"uuid4":        lazyMatch(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`),
	"uuid5":        lazyMatch(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`),
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          func(s string) bool { return len(s) == 11 && rxSSN().MatchString(s) },
	"hexcolor":     lazyMatch(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`),
	"rgbcolor":     lazyMatch(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`),
	"byte":         lazyMatch(`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`),
	"password":     func(string) bool { return true },
	"date":         isDate,
	"duration":     isDuration,
	"datetime":     isDateTime,
	"k8sshortname": func(s string) bool { return len(s) <= 63 && rxShortName().MatchString(s) },
	"k8slongname":  func(s string) bool { return len(s) <= 253 && rxLongName().MatchString(s) },
}

// supportedFormats are the formats StripUnsupportedFormatsPostProcess keeps on a string.
var supportedFormats = func() map[string]bool {
	m := map[string]bool{}
	for k := range formatCheckers {
		m[k] = true
	}
	return m
}()

func normalizeFormat(f string) string { return strings.ReplaceAll(f, "-", "") }

// knownFormat mirrors strfmt.Default.ContainsName.
func knownFormat(f string) bool { return f != "" && formatCheckers[normalizeFormat(f)] != nil }

func validFormat(f, s string) bool {
	check := formatCheckers[normalizeFormat(f)]
	return check == nil || check(s)
}

var (
	rxSSN       = lazyRegexp(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxHostname  = lazyRegexp(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxShortName = lazyRegexp(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	rxLongName  = lazyRegexp(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	rxDateTime  = lazyRegexp(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	rxDuration  = lazyRegexp(`((\d+)\s*([A-Za-zµ]+))`)
	rxCard      = lazyRegexp(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
	rxNotDigits = lazyRegexp(`[^0-9]+`)
	rxSpaceDash = lazyRegexp(`[\s-]+`)
	rxISBN10    = lazyRegexp(`^(?:[0-9]{9}X|[0-9]{10})$`)
	rxISBN13    = lazyRegexp(`^(?:[0-9]{13})$`)
)

// lazyRegexp compiles a pattern on first use: most servers never check these formats, and
// compiling them all at start-up cost a millisecond and a half of every process start.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// lazyMatch is MatchString of a pattern compiled on first use.
func lazyMatch(pattern string) func(string) bool {
	rx := lazyRegexp(pattern)
	return func(s string) bool { return rx().MatchString(s) }
}

func isBSONObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

func isHostname(s string) bool {
	if !rxHostname().MatchString(s) || len(s) > 255 {
		return false
	}
	for _, p := range strings.Split(s, ".") {
		if len(p) > 63 {
			return false
		}
	}
	return true
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime mirrors strfmt.IsDateTime.
func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := rxDateTime().FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

var durationUnits = [][]string{{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"}, {"m", "min"},
	{"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"}}

// isDuration mirrors strfmt.ParseDuration: Go's syntax, or number-unit pairs in Scala's.
func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	for _, m := range rxDuration().FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[2]); err != nil {
			return false
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			for i, v := range variants {
				if (i == last && strings.HasPrefix(unit, v)) || strings.EqualFold(v, unit) {
					return true
				}
			}
		}
	}
	return false
}

func isCreditCard(s string) bool {
	digits := rxNotDigits().ReplaceAllString(s, "")
	if !rxCard().MatchString(digits) {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d >= 10 {
				d = d%10 + 1
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func isISBN(s string, version int) bool {
	s = rxSpaceDash().ReplaceAllString(s, "")
	sum := 0
	switch version {
	case 10:
		if !rxISBN10().MatchString(s) {
			return false
		}
		for i := 0; i < 9; i++ {
			sum += (i + 1) * int(s[i]-'0')
		}
		if s[9] == 'X' {
			sum += 100
		} else {
			sum += 10 * int(s[9]-'0')
		}
		return sum%11 == 0
	default:
		if !rxISBN13().MatchString(s) {
			return false
		}
		for i := 0; i < 12; i++ {
			sum += []int{1, 3}[i%2] * int(s[i]-'0')
		}
		return int(s[12]-'0')-(10-sum%10)%10 == 0
	}
}

// parseIPSloppy mirrors k8s.io/utils/net.ParseIPSloppy (Go's parser before 1.17): IPv4
// octets may carry leading zeros, read as decimal.
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	i := strings.LastIndexByte(s, ':')
	prefix, v4 := s[:i+1], s[i+1:]
	octets := strings.Split(v4, ".")
	if len(octets) != 4 {
		return nil
	}
	for j, o := range octets {
		if o == "" || strings.Trim(o, "0123456789") != "" {
			return nil
		}
		n, err := strconv.Atoi(o)
		if err != nil || n > 255 {
			return nil
		}
		octets[j] = strconv.Itoa(n)
	}
	return net.ParseIP(prefix + strings.Join(octets, "."))
}

func isCIDRSloppy(s string) bool {
	addr, bits, ok := strings.Cut(s, "/")
	if !ok || parseIPSloppy(addr) == nil {
		return false
	}
	ip := parseIPSloppy(addr)
	canonical := ip.String()
	if ip.To4() != nil && !strings.Contains(addr, ":") {
		canonical = ip.To4().String()
	}
	_, _, err := net.ParseCIDR(canonical + "/" + bits)
	return err == nil
}

// UnrecognizedFormats lists the formats of s and the schemas below it that the server does
// not check, walking as validation.SchemaHas does (properties sorted). It mirrors
// GetUnrecognizedFormats, from which the CRD strategy warns `unrecognized format "…"`.
func UnrecognizedFormats(s *Schema) []string {
	if s == nil {
		return nil
	}
	var out []string
	if f := s.Format; f != "" {
		ok := false
		switch s.Type {
		case "", "string":
			ok = supportedFormats[normalizeFormat(f)]
		case "integer":
			ok = f == "int32" || f == "int64"
		case "number":
			ok = f == "float" || f == "double"
		}
		if !ok {
			out = append(out, f)
		}
	}
	children := []*Schema{s.Items}
	children = append(children, s.ItemsArray...)
	children = append(children, s.AllOf...)
	children = append(children, s.AnyOf...)
	children = append(children, s.OneOf...)
	children = append(children, s.Not)
	for _, k := range sortedKeys(s.Properties) {
		children = append(children, s.Properties[k])
	}
	children = append(children, s.AdditionalProperties)
	for _, c := range children {
		out = append(out, UnrecognizedFormats(c)...)
	}
	return out
}
