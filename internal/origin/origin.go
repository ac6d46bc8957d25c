// Package origin is the same-origin check the dashboard and the simulated apiserver share
// against web pages of other sites. A browser names the page behind a request in the Origin
// header: on every cross-origin request and every POST, and on the simple requests (a form,
// a text/plain or untyped fetch) it sends without asking the server first. Clients that are
// not browsers (kubectl, client-go, curl) send none.
package origin

import (
	"net/http"
	"net/url"
	"strings"
)

// Same reports whether r may be served as far as the origin of a page goes: it carries no
// Origin header, or one whose host (with port) is the request's own Host. Another port or
// another name of the same machine is another origin, as browsers count it; so is the
// opaque origin "null" of sandboxed frames and file: pages.
func Same(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	// Host names are case-insensitive; browsers send both in lower case anyway.
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}
