package origin

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
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

// HostAllowed reports whether a Host header names this machine in a way no web page can
// rebind: an IP literal (v4, or v6 in brackets, with or without a port), localhost or a
// *.localhost name (RFC 6761: resolvers and browsers keep them on loopback), or one of
// names, which is called only when needed (nil for none). An empty Host (HTTP/1.0) names
// nothing to rebind. A server that knows it listens on a real socket uses it against DNS
// rebinding: a page on evil.example that resolves to 127.0.0.1 arrives with Host evil.example.
func HostAllowed(hostport string, names func() []string) bool {
	if hostport == "" {
		return true
	}
	host := hostport
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		if !isPort(port) {
			return false
		}
		host = h
	} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
		host = hostport[1 : len(hostport)-1]
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		// Brackets belong to IPv6 only: "[localhost]" is not a host.
		return ip.Is6() || !strings.HasPrefix(hostport, "[")
	}
	if strings.HasPrefix(hostport, "[") {
		return false
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || (strings.HasSuffix(name, ".localhost") && !strings.HasPrefix(name, ".")) {
		return true
	}
	return name != "" && names != nil && slices.ContainsFunc(names(), func(n string) bool {
		return strings.EqualFold(strings.TrimSuffix(n, "."), name)
	})
}

// isPort reports whether p is a decimal port number.
func isPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
