package structural

import (
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Rule is one x-kubernetes-validations entry. It mirrors apiextensions v1 ValidationRule.
type Rule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string // FieldValueInvalid (the default), …Forbidden, …Required, …Duplicate
	FieldPath         string
	OptionalOldSelf   *bool
}

// RuleCompiler is the seam of the CEL interpreter: it is what pkg/apiserver/schema/cel
// (Compile and NewValidator) does for apiextensions-apiserver. With none installed (Rules
// is nil) a CRD's rules are kept, checked for what needs no compiler (CheckRules), and
// never evaluated.
type RuleCompiler interface {
	// Compile compiles every rule of the schema rooted at root, a structural schema that
	// passed ValidateStructural; a rule's self is the value of the node that carries it.
	// It returns the causes a CRD write gets (compile errors, estimated cost over the
	// limits, oldSelf where it cannot be correlated), with field paths under path, and
	// the program that checks objects, nil when root has no rules.
	Compile(root *Schema, path string) (RuleProgram, []api.StatusCause)
}

// RuleProgram evaluates the compiled rules of one CRD version's schema, as
// cel.Validator.Validate: obj is the custom object (or, for a default, the value), old the
// stored one on an update (nil on a create). The causes carry the real messages
// (`spec: Invalid value: "object": <message>`).
type RuleProgram interface {
	Validate(obj, old any) []api.StatusCause
}

// Rules is the installed CEL interpreter (the apiserver installs schemacel.Compiler).
var Rules RuleCompiler

// RuleTrace says where a CRD's rules log the interpreter's stages: Logger (nil is silent)
// gets one Debug hop per stage, with the CRD's name and resourceVersion as key and rv when
// the rules are compiled, and the custom object's when they run.
type RuleTrace struct {
	Logger  *slog.Logger
	Key, RV string
}

// TracedRuleCompiler is a RuleCompiler whose compilation, and the program it returns, log
// to a RuleTrace (schemacel.Compiler is one).
type TracedRuleCompiler interface {
	CompileTraced(root *Schema, path string, t RuleTrace) (RuleProgram, []api.StatusCause)
}

func parseRules(v any) []Rule {
	l, _ := v.([]any)
	var out []Rule
	for _, e := range l {
		m, _ := e.(map[string]any)
		if m == nil {
			continue
		}
		r := Rule{}
		r.Rule, _ = m["rule"].(string)
		r.Message, _ = m["message"].(string)
		r.MessageExpression, _ = m["messageExpression"].(string)
		r.FieldPath, _ = m["fieldPath"].(string)
		if s, ok := m["reason"].(string); ok {
			r.Reason = &s
		}
		if b, ok := m["optionalOldSelf"].(bool); ok {
			r.OptionalOldSelf = &b
		}
		out = append(out, r)
	}
	return out
}

var supportedReasons = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}

var newlines = regexp.MustCompile(`[\n\r]+`)

// checkRules mirrors the rule checks of ValidateCustomResourceDefinitionOpenAPISchema that
// need no compiler: a rule, a one-line message, a non-empty messageExpression, a known
// reason and a fieldPath that names a field of s.
func checkRules(s *Schema, path string) []api.StatusCause {
	var causes []api.StatusCause
	for i, r := range s.Validations {
		p := fmt.Sprintf("%s.x-kubernetes-validations[%d]", path, i)
		rule, msg := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			causes = append(causes, validation.Required(p+".rule", "rule is not specified"))
		case r.Message != "" && msg == "":
			causes = append(causes, validation.Invalid(p+".message", r.Message, "must be non-empty if specified"))
		case newlines.MatchString(msg):
			causes = append(causes, validation.Invalid(p+".message", r.Message, "must not contain line breaks"))
		case newlines.MatchString(rule) && msg == "":
			causes = append(causes, validation.Required(p+".message", "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			causes = append(causes, validation.Required(p+".messageExpression", "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !contains(supportedReasons, *r.Reason) {
			causes = append(causes, validation.NotSupported(p+".reason", *r.Reason, supportedReasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			causes = append(causes, validation.Invalid(p+".fieldPath", r.FieldPath, "must be non-empty if specified"))
		}
		if newlines.MatchString(r.FieldPath) {
			causes = append(causes, validation.Invalid(p+".fieldPath", r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" {
			if _, _, err := ValidFieldPath(r.FieldPath, s); err != nil {
				causes = append(causes, validation.Invalid(p+".fieldPath", r.FieldPath, "must be a valid path"))
			}
		}
	}
	return causes
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ValidFieldPath resolves a rule's fieldPath (".a.b", ".m['key.with.dots']") against s and
// returns the field path it names ("a.b", "m[key.with.dots]") and the schema there. It
// mirrors cel.ValidFieldPath in pkg/apiserver/schema/cel: members of properties by name,
// of additionalProperties by key, no list indices.
func ValidFieldPath(jsonPath string, s *Schema) (string, *Schema, error) {
	toks, err := fieldPathTokens(jsonPath)
	if err != nil {
		return "", nil, err
	}
	var out strings.Builder
	step := func(name string) error {
		switch {
		case s == nil:
			return errors.New("does not refer to a valid field")
		case s.Properties != nil:
			c, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			if out.Len() > 0 {
				out.WriteByte('.')
			}
			out.WriteString(name)
			s = c
		case s.AdditionalProperties != nil:
			out.WriteString("[" + name + "]")
			s = s.AdditionalProperties
		default:
			return errors.New("does not refer to a valid field")
		}
		return nil
	}
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if i+2 >= len(toks) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			q := toks[i+1]
			if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
				return "", nil, fmt.Errorf("expected single quoted string but got %s", q)
			}
			if err := step(unescapeQuote(q[1 : len(q)-1])); err != nil {
				return "", nil, err
			}
			if toks[i+2] != "]" {
				return "", nil, fmt.Errorf("expected ] but got %s", toks[i+2])
			}
			i += 2
		case ".":
			if i+1 >= len(toks) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			if err := step(toks[i+1]); err != nil {
				return "", nil, err
			}
			i++
		default:
			return "", nil, fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return out.String(), s, nil
}

// fieldPathTokens splits a field path at '.', '[' and ']' (each its own token), keeping a
// single-quoted string whole.
func fieldPathTokens(p string) ([]string, error) {
	var toks []string
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '\'':
			j := i + 1
			for j < len(p) && (p[j] != '\'' || p[j-1] == '\\') {
				j++
			}
			if j >= len(p) {
				toks = append(toks, p[i:])
				return toks, nil
			}
			toks = append(toks, p[i:j+1])
			i = j + 1
		case c == '.' || c == '[' || c == ']':
			toks = append(toks, p[i:i+1])
			i++
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' && p[j] != ']' {
				j++
			}
			toks = append(toks, p[i:j])
			i = j
		}
	}
	return toks, nil
}

var quoteEscapes = map[byte]string{'a': "\a", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v", '\'': "'", '\\': "\\"}

func unescapeQuote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if r, ok := quoteEscapes[s[i+1]]; ok {
				b.WriteString(r)
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
