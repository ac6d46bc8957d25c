package apiserver

import "net/http"

// serveStoredSubresource serves a further subresource that reads and writes part of the
// stored object through the generic store, as a REST storage wrapping the kind's own
// genericregistry.Store with another update strategy does (certificatesigningrequests/
// approval, whose strategy is the kind's rest.SubresourceStrategy). GET answers the whole
// object, PUT and PATCH write what the subresource's strategy lets through.
func serveStoredSubresource(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	switch info.verb {
	case "get":
		s.serveGet(w, r, info)
	case "update":
		s.serveUpdate(w, r, info)
	case "patch":
		s.servePatch(w, r, info)
	}
}
