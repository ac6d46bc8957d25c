package authz

import (
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api/fields"
)

// Attributes mirror authorizer.AttributesRecord: what is asked, and by whom.
type Attributes struct {
	User            *User
	Verb            string
	ResourceRequest bool
	// Path is the URL path of a non-resource request.
	Path string
	// APIGroup, APIVersion, Namespace, Resource, Subresource and Name describe a resource
	// request.
	APIGroup, APIVersion, Namespace, Resource, Subresource, Name string
}

// RequestAttributes mirrors RequestInfoFactory.NewRequestInfo (with the /api and /apis
// prefixes of kube-apiserver) and GetAuthorizerAttributes: point 1 of the package contract.
func RequestAttributes(r *http.Request, u *User) Attributes {
	a := Attributes{User: u, Path: r.URL.Path, Verb: strings.ToLower(r.Method)}
	parts := splitPath(r.URL.Path)
	if len(parts) < 3 || (parts[0] != "api" && parts[0] != "apis") {
		return a
	}
	prefix := parts[0]
	parts = parts[1:]
	if prefix == "apis" {
		if len(parts) < 3 {
			return a
		}
		a.APIGroup, parts = parts[0], parts[1:]
	}
	a.ResourceRequest = true
	a.APIVersion, parts = parts[0], parts[1:]
	if parts[0] == "watch" || parts[0] == "proxy" {
		if len(parts) < 2 {
			return a
		}
		a.Verb, parts = parts[0], parts[1:]
	} else {
		a.Verb = methodVerbs[r.Method]
	}
	if parts[0] == "namespaces" {
		if len(parts) > 1 {
			a.Namespace = parts[1]
			if len(parts) > 2 && parts[2] != "status" && parts[2] != "finalize" {
				parts = parts[2:]
			}
		}
	}
	switch {
	case len(parts) >= 3 && a.Verb != "proxy":
		a.Subresource = parts[2]
		fallthrough
	case len(parts) >= 2:
		a.Name = parts[1]
		fallthrough
	default:
		a.Resource = parts[0]
	}
	q := r.URL.Query()
	if a.Name == "" && a.Verb == "get" {
		a.Verb = "list"
		if isWatch(q["watch"]) {
			a.Verb = "watch"
		}
		if fs := q.Get("fieldSelector"); fs != "" {
			if sel, err := fields.ParseSelector(fs); err == nil {
				if name, ok := sel.RequiresExactMatch("metadata.name"); ok && pathSegmentName(name) {
					a.Name = name
				}
			}
		}
	}
	if a.Name == "" && a.Verb == "delete" {
		a.Verb = "deletecollection"
	}
	return a
}

// methodVerbs maps a method to the verb of a request whose path does not name one.
var methodVerbs = map[string]string{
	http.MethodPost: "create", http.MethodGet: "get", http.MethodHead: "get",
	http.MethodPut: "update", http.MethodPatch: "patch", http.MethodDelete: "delete",
}

// isWatch reads the watch parameter as the list options' boolean conversion does.
func isWatch(v []string) bool {
	if len(v) == 0 {
		return false
	}
	s := strings.ToLower(v[0])
	return s != "false" && s != "0"
}

// pathSegmentName reports whether name could be a path segment (content.IsPathSegmentName).
func pathSegmentName(name string) bool {
	return name != "." && name != ".." && !strings.ContainsAny(name, "/%")
}

func splitPath(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}
