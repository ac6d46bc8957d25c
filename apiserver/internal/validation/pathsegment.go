package validation

import (
	"fmt"
	"strings"
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
