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
