package apiserver

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// validateDelete is the check a kind's REST storage makes before deleting one object by
// name (the system PriorityClasses). A collection delete goes to the generic store and so
// skips it, as on the real server.
func validateDelete(res *resource, name string) error {
	if dv, ok := res.Strategy.(rest.DeleteValidator); ok {
		return dv.ValidateDelete(name)
	}
	return nil
}
