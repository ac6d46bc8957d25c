package rest

import (
	"regexp"
	"slices"

	"github.com/informer-lab/informer-lab/api"
)

// RequiredCausesExcept is RequiredCauses without the presence causes of the paths skip
// matches: members a Go type holds as plain values, whose absence is their zero value to
// the real validation, which judges it by its own rules (an empty name is an invalid DNS
// label, a zero count is not greater than zero) or accepts it.
func RequiredCausesExcept(gvk api.GroupVersionKind, obj *api.Unstructured, causes []api.StatusCause, skip *regexp.Regexp) []api.StatusCause {
	for _, c := range RequiredCauses(gvk, obj, nil, "") {
		if skip.MatchString(c.Field) || slices.ContainsFunc(causes, func(d api.StatusCause) bool { return d.Field == c.Field }) {
			continue
		}
		causes = append(causes, c)
	}
	return causes
}
