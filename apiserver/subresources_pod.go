package apiserver

import "net/http"

// pods/ephemeralcontainers and pods/resize read the whole Pod and write their part of it
// (registry/core's rest.SubresourceUpdater): the generic get, update and patch, through
// the subresource.
func init() {
	for _, sub := range []string{"ephemeralcontainers", "resize"} {
		handlers["/pods/"+sub] = (*endpoints).servePartialUpdate
	}
}

// servePartialUpdate serves GET, PUT and PATCH of a subresource that writes a part of its
// object.
func (s *endpoints) servePartialUpdate(w http.ResponseWriter, r *http.Request, info requestInfo) {
	switch info.verb {
	case "get":
		s.serveGet(w, r, info)
	case "update":
		s.serveUpdate(w, r, info)
	case "patch":
		s.servePatch(w, r, info)
	}
}
