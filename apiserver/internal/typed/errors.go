package typed

import (
	"fmt"
	"strings"
)

// ValidationError mirrors typed.ValidationError: a message at a path.
type ValidationError struct {
	Path    string
	Message string
}

// Error mirrors ValidationError.Error.
func (e ValidationError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Message)
}

// ValidationErrors mirrors typed.ValidationErrors.
type ValidationErrors []ValidationError

// Error mirrors ValidationErrors.Error: one error alone, several under "errors:".
func (errs ValidationErrors) Error() string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	lines := []string{"errors:"}
	for _, e := range errs {
		lines = append(lines, "  "+e.Error())
	}
	return strings.Join(lines, "\n")
}

func errorf(format string, args ...any) ValidationErrors {
	return ValidationErrors{{Message: fmt.Sprintf(format, args...)}}
}

// withPrefix mirrors WithLazyPrefix.
func (errs ValidationErrors) withPrefix(prefix func() string) ValidationErrors {
	if len(errs) == 0 {
		return errs
	}
	p := prefix()
	for i := range errs {
		errs[i].Path = p + errs[i].Path
	}
	return errs
}

// describe prints a value the way upstream's %v of a value.Value reads in its messages.
func describe(v any) string {
	return fmt.Sprintf("%v", v)
}
