package structural

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Validate checks obj against s, as the custom resource validator of
// k8s.io/apiextensions-apiserver pkg/apiserver/validation (kube-openapi's SchemaValidator
// underneath) does, and returns the field causes with the real messages. metadata, apiVersion
// and kind at the root are left to the object-meta checks.
func Validate(s *Schema, obj map[string]any) []api.StatusCause {
	v := &validator{}
	if s == nil {
		return nil
	}
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			v.causes = append(v.causes, validation.Required(name, ""))
		}
	}
	for _, name := range sortedKeys(obj) {
		if name == "metadata" || name == "apiVersion" || name == "kind" {
			continue
		}
		if c := s.child(name); c != nil {
			v.value(c, obj[name], name)
		}
	}
	return v.causes
}

type validator struct{ causes []api.StatusCause }

// child is the schema of member name of an object node, or nil when nothing checks it.
func (s *Schema) child(name string) *Schema {
	if c, ok := s.Properties[name]; ok {
		return c
	}
	return s.Additional
}

// invalid is the kube-openapi error that becomes field.Invalid: the detail repeats the
// path with "in body".
func (v *validator) invalid(path string, value any, format string, args ...any) {
	v.causes = append(v.causes, validation.Invalid(path, value, path+" in body "+fmt.Sprintf(format, args...)))
}

// typeName is the JSON type kube-openapi reports for a value.
func typeName(x any) string {
	switch n := x.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int:
		return "integer"
	case float64:
		if n == math.Trunc(n) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func (v *validator) value(s *Schema, x any, path string) {
	if x == nil {
		if !s.Nullable && s.Type != "" {
			v.typeInvalid(path, x, s.Type)
		}
		return
	}
	got := typeName(x)
	switch {
	case s.IntOrString:
		if got != "integer" && got != "string" {
			v.causes = append(v.causes, validation.Invalid(path, x, path+" in body must be of type integer,string: "+strconv.Quote(got)))
			return
		}
	case s.Type == "":
	case s.Type == "number" && got == "integer":
	case s.Type != got:
		v.typeInvalid(path, x, s.Type)
		return
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, x) {
		values := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			if str, ok := e.(string); ok {
				values[i] = str
			} else {
				b, _ := json.Marshal(e)
				values[i] = string(b)
			}
		}
		v.causes = append(v.causes, validation.NotSupported(path, x, values))
	}
	switch val := x.(type) {
	case string:
		v.str(s, val, path)
	case int64, int, float64:
		v.num(s, x, path)
	case []any:
		if s.MaxItems != nil && int64(len(val)) > *s.MaxItems {
			v.causes = append(v.causes, api.StatusCause{Type: api.CauseTypeTooMany, Field: path,
				Message: fmt.Sprintf("Too many: %d: must have at most %d %s", len(val), *s.MaxItems, plural(*s.MaxItems, "item"))})
		}
		if s.MinItems != nil && int64(len(val)) < *s.MinItems {
			v.invalid(path, int64(len(val)), "should have at least %d items", *s.MinItems)
		}
		if s.Items != nil {
			for i, e := range val {
				v.value(s.Items, e, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case map[string]any:
		if s.EmbeddedResource {
			v.embedded(val, path)
		}
		for _, name := range s.Required {
			if _, ok := val[name]; !ok {
				v.causes = append(v.causes, validation.Required(path+"."+name, ""))
			}
		}
		for _, name := range sortedKeys(val) {
			if s.EmbeddedResource && (name == "metadata" || name == "apiVersion" || name == "kind") {
				continue
			}
			if c := s.child(name); c != nil {
				v.value(c, val[name], path+"."+name)
			}
		}
	}
}

// embedded mirrors validateEmbeddedResource (pkg/apiserver/schema/objectmeta): an embedded
// object needs a string apiVersion and a kind that is a DNS-1035 label in any case.
func (v *validator) embedded(m map[string]any, path string) {
	for _, name := range []string{"apiVersion", "kind"} {
		x, found := m[name]
		str, isString := x.(string)
		switch {
		case !found:
			v.causes = append(v.causes, validation.Required(path+"."+name, ""))
		case !isString:
			v.causes = append(v.causes, validation.Invalid(path+"."+name, x, "must be a string"))
		case str == "":
			v.causes = append(v.causes, validation.Invalid(path+"."+name, str, "must not be empty"))
		case name == "kind":
			if errs := validation.IsDNS1035Label(strings.ToLower(str)); len(errs) > 0 {
				v.causes = append(v.causes, validation.Invalid(path+".kind", str, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
			}
		case strings.Count(str, "/") > 1:
			v.causes = append(v.causes, validation.Invalid(path+".apiVersion", str, "unexpected GroupVersion string: "+str))
		}
	}
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (v *validator) typeInvalid(path string, x any, want string) {
	// The value kube-openapi reports is the JSON type found, not the value itself.
	v.invalid(path, typeName(x), "must be of type %s: %q", want, typeName(x))
}

func (v *validator) str(s *Schema, val, path string) {
	n := int64(utf8.RuneCountInString(val))
	if s.MaxLength != nil && n > *s.MaxLength {
		v.causes = append(v.causes, validation.TooLong(path, int(*s.MaxLength)))
	}
	if s.MinLength != nil && n < *s.MinLength {
		v.invalid(path, val, "should be at least %d chars long", *s.MinLength)
	}
	if s.Pattern != nil && !s.Pattern.MatchString(val) {
		v.invalid(path, val, "should match '%s'", s.PatternText)
	}
	if s.Format != "" && !formatOK(s.Format, val) {
		v.invalid(path, val, "must be of type %s: %q", s.Format, val)
	}
}

func (v *validator) num(s *Schema, x any, path string) {
	f := toFloat(x)
	if m := s.Maximum; m != nil {
		if s.ExclusiveMaximum && f >= *m {
			v.invalid(path, x, "should be less than %v", *m)
		} else if !s.ExclusiveMaximum && f > *m {
			v.invalid(path, x, "should be less than or equal to %v", *m)
		}
	}
	if m := s.Minimum; m != nil {
		if s.ExclusiveMinimum && f <= *m {
			v.invalid(path, x, "should be greater than %v", *m)
		} else if !s.ExclusiveMinimum && f < *m {
			v.invalid(path, x, "should be greater than or equal to %v", *m)
		}
	}
}

func toFloat(x any) float64 {
	switch n := x.(type) {
	case int64:
		return float64(n)
	case int:
		return float64(n)
	case float64:
		return n
	}
	return 0
}

func inEnum(enum []any, x any) bool {
	for _, e := range enum {
		if reflect.DeepEqual(e, x) || (isNumber(e) && isNumber(x) && toFloat(e) == toFloat(x)) {
			return true
		}
	}
	return false
}

func isNumber(x any) bool {
	switch x.(type) {
	case int64, int, float64:
		return true
	}
	return false
}

// formatOK checks the string formats the apiextensions validator registers (a subset of
// kube-openapi's strfmt): unknown formats pass, as they do upstream.
func formatOK(format, val string) bool {
	switch format {
	case "date-time", "datetime":
		_, err := time.Parse(time.RFC3339Nano, val)
		return err == nil
	case "date":
		_, err := time.Parse("2006-01-02", val)
		return err == nil
	case "int32":
		_, err := strconv.ParseInt(val, 10, 32)
		return err == nil
	case "int64":
		_, err := strconv.ParseInt(val, 10, 64)
		return err == nil
	case "byte":
		return isBase64(val)
	case "uuid":
		return len(val) == 36 && strings.Count(val, "-") == 4
	}
	return true
}

func isBase64(val string) bool {
	if len(val)%4 != 0 {
		return false
	}
	for _, r := range strings.TrimRight(val, "=") {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/') {
			return false
		}
	}
	return true
}
