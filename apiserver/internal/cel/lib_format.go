package cel

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

func init() { libraries = append(libraries, formatLib) }

// NamedFormat is Kubernetes' kubernetes.NamedFormat: a named string check.
type NamedFormat struct {
	Name         string
	validate     func(string) []string
	MaxRegexSize int
}

// FormatType is kubernetes.NamedFormat.
var FormatType = OpaqueType("kubernetes.NamedFormat")

func (f NamedFormat) celType() *Type     { return FormatType }
func (f NamedFormat) String() string     { return f.Name }
func (f NamedFormat) equal(o Value) bool { g, ok := o.(NamedFormat); return ok && f.Name == g.Name }

// The patterns compile on first use, not at every process start.
var (
	uuidPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	})
	base64Pattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`)
	})
	timePattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	})
)

const dateTimePatternLen = len(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime is kube-openapi's strfmt.IsDateTime.
func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := timePattern().FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

func prefixed(f func(string) []string) func(string) []string {
	return func(s string) []string { return f(validation.MaskTrailingDash(s)) }
}

// namedFormats are the formats of Kubernetes' format library, by their CEL name.
var namedFormats = map[string]NamedFormat{
	"dns1123Label":           {"DNS1123Label", validation.IsDNS1123Label, 30},
	"dns1123Subdomain":       {"DNS1123Subdomain", validation.IsDNS1123Subdomain, 60},
	"dns1035Label":           {"DNS1035Label", validation.IsDNS1035Label, 30},
	"qualifiedName":          {"QualifiedName", validation.IsQualifiedName, 60},
	"dns1123LabelPrefix":     {"DNS1123LabelPrefix", prefixed(validation.IsDNS1123Label), 30},
	"dns1123SubdomainPrefix": {"DNS1123SubdomainPrefix", prefixed(validation.IsDNS1123Subdomain), 60},
	"dns1035LabelPrefix":     {"DNS1035LabelPrefix", prefixed(validation.IsDNS1035Label), 30},
	"labelValue":             {"LabelValue", validation.IsValidLabelValue, 40},
	"uri": {"URI", func(s string) []string {
		if _, err := url.ParseRequestURI(s); err != nil {
			return []string{err.Error()}
		}
		return nil
	}, 1103},
	"uuid": {"uuid", func(s string) []string {
		if !uuidPattern().MatchString(s) {
			return []string{"does not match the UUID format"}
		}
		return nil
	}, len(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)},
	"byte": {"byte", func(s string) []string {
		if !base64Pattern().MatchString(s) {
			return []string{"invalid base64"}
		}
		return nil
	}, 84},
	"date": {"date", func(s string) []string {
		if !isDate(s) {
			return []string{"invalid date"}
		}
		return nil
	}, dateTimePatternLen},
	"datetime": {"datetime", func(s string) []string {
		if !isDateTime(s) {
			return []string{"invalid datetime"}
		}
		return nil
	}, dateTimePatternLen},
}

var _ = base64.StdEncoding

// formatLib is Kubernetes' format library: format.<name>() and format.named(name), and
// validate(), which returns the messages of a failed check or none.
func formatLib(l *library) {
	l.member("validate", "format-validate", OptionalType(ListType(StringType)), ts(FormatType, StringType), func(f, s Value) Value {
		msgs := f.(NamedFormat).validate(s.(string))
		if len(msgs) == 0 {
			return optNone
		}
		return Optional{V: stringList(msgs), Ok: true}
	})
	l.global("format.named", "format-named", OptionalType(FormatType), ts(StringType), func(v Value) Value {
		f, ok := namedFormats[v.(string)]
		if !ok {
			return optNone
		}
		return Optional{V: f, Ok: true}
	})
	for name, f := range namedFormats {
		f := f
		l.global("format."+name, "format."+name, FormatType, nil, func([]Value) Value { return f })
	}
}
