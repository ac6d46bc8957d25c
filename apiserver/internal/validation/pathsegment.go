package validation

import (
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// IsPathSegmentName mirrors path.IsValidPathSegmentName in k8s.io/apimachinery: the rule of
// the names that only need to fit in one URL path segment (RBAC roles and bindings, whose
// bootstrap names hold colons, such as system:basic-user).
func IsPathSegmentName(name string) []string {
	for _, bad := range []string{".", ".."} {
		if name == bad {
			return []string{fmt.Sprintf("may not be '%s'", bad)}
		}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// ValidateObjectMetaNamed is ValidateObjectMeta with the kind's own name rule in place of the
// DNS ones, as ValidateObjectMeta takes a ValidateNameFunc upstream; nameFn checks both the
// name and the generateName prefix.
func ValidateObjectMetaNamed(kind string, obj api.MetaObject, nameFn func(string) []string, namespaced bool) error {
	return validateObjectMeta(kind, obj, nameFn, namespaced)
}
