package apiserver

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
)

// How a resource path becomes a request: parsePath splits it (U2–U6), classify picks the
// verb from the method and the path's shape, and a method the path does not serve is 405.

// parsePath splits the part after the group-version (U2–U6).
func parsePath(served []*resource, rest string) (requestInfo, error) {
	var info requestInfo
	parts := strings.Split(rest, "/")
	if parts[0] == "watch" {
		info.legacyWatch = true
		parts = parts[1:]
	}
	var resName string
	switch {
	case len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize":
		info.namespace, info.hasNamespace, resName = parts[1], true, parts[2]
		parts = parts[3:]
	case len(parts) >= 1:
		resName = parts[0]
		parts = parts[1:]
	}
	if len(parts) > 2 && parts[1] == "proxy" {
		info.subpath = strings.Join(parts[2:], "/") // the proxied path, for the proxy subresources
		parts = parts[:2]
	}
	if len(parts) > 2 || resName == "" {
		return info, registry.NotFoundResource()
	}
	if len(parts) >= 1 {
		info.name = parts[0]
	}
	if len(parts) == 2 {
		info.subresource = parts[1]
	}
	for _, r := range served {
		if r.Info.Resource == resName {
			info.res = r
		}
	}
	switch {
	case info.res == nil,
		info.hasNamespace && !info.res.Info.Namespaced,
		info.name == "" && info.subresource != "",
		info.subresource != "" && !servesSubresource(info.res, info.subresource),
		info.legacyWatch && info.subresource != "",
		// A namespaced resource is addressed by name only inside its namespace.
		info.res.Info.Namespaced && !info.hasNamespace && info.name != "",
		info.hasNamespace && info.namespace == "":
		if info.res != nil && !info.res.Builtin && info.name != "" && info.subresource != "" &&
			!info.legacyWatch && info.hasNamespace == info.res.Info.Namespaced && (!info.hasNamespace || info.namespace != "") {
			// A custom resource's subresource its CRD does not enable: apiextensions-apiserver's
			// crdHandler answers NotFound for the object's name (as if the object were missing),
			// which is what a controller's UpdateStatus sees under a CRD without subresources.
			return info, api.NewNotFound(api.GroupResource{Group: info.res.Info.Group, Resource: info.res.Info.Resource}, info.name)
		}
		return info, registry.NotFoundResource()
	}
	return info, nil
}

// errPlainNotFound is classify's answer for a path no handler owns: the mux's plain
// "404 page not found", not a Status.
var errPlainNotFound = errors.New("404 page not found")

// classify picks the verb from the method and the path shape; a method the path does not
// serve is 405 (U3, E46).
func (s *endpoints) classify(info *requestInfo, r *http.Request) error {
	collection := info.name == ""
	allNamespaces := info.res.Info.Namespaced && !info.hasNamespace
	m := r.Method
	if sr, ok := info.res.Subresource(info.subresource); ok {
		// A further subresource serves the verbs it declares, by method alone.
		if v := subresourceVerbs[m]; slices.Contains(sr.Verbs, v) {
			info.verb = v
			return nil
		}
		return api.NewMethodNotAllowed()
	}
	switch {
	case info.legacyWatch && m == http.MethodGet:
		info.verb = "watch"
	case info.legacyWatch:
	case collection && m == http.MethodGet:
		info.verb = "list"
		if isTrue(r.URL.Query(), "watch") {
			info.verb = "watch"
		}
	case collection && m == http.MethodPost && !allNamespaces:
		info.verb = "create"
	case collection && m == http.MethodDelete && !allNamespaces && !(info.res.Builtin && info.res.Info.Kind == "Namespace"):
		info.verb = "deletecollection"
	case info.subresource == "finalize" && m != http.MethodPut:
		// The namespace finalize subresource takes PUT only, as the real one.
	case !collection && m == http.MethodGet:
		info.verb = "get" // U7: ?watch on an item is ignored
	case !collection && m == http.MethodPut:
		info.verb = "update"
	case !collection && m == http.MethodPatch:
		info.verb = "patch"
	case !collection && m == http.MethodDelete && info.subresource == "":
		info.verb = "delete"
	}
	if !collection && info.subresource == "" && !servesItems(info.res) {
		// A REST storage without Getter, Updater, Patcher or Deleter has no item path.
		return registry.NotFoundResource()
	}
	if info.verb == "" && info.res.CRDName != "" && info.subresource == "" {
		// apiextensions-apiserver's own handler answers a custom resource's paths: a write
		// method on the namespace's collection lacks a name, and the all-namespaces path
		// serves list and watch only, as the mux's plain 404.
		switch {
		case allNamespaces:
			return errPlainNotFound
		case m == http.MethodPut || m == http.MethodPatch:
			return api.NewBadRequest("name must be provided")
		}
	}
	if info.verb == "" || info.subresource == "" && !info.res.Serves(info.verb) {
		return api.NewMethodNotAllowed()
	}
	return nil
}

// servesItems reports whether the resource serves any verb on one object.
func servesItems(res *resource) bool {
	return res.Serves("get") || res.Serves("update") || res.Serves("patch") || res.Serves("delete")
}

// subresourceVerbs maps a method to the verb of a further subresource (rest.Subresource).
var subresourceVerbs = map[string]string{
	http.MethodGet: "get", http.MethodPost: "create", http.MethodPut: "update",
	http.MethodPatch: "patch", http.MethodDelete: "delete",
}
