package cel

import (
	"fmt"
	"net/netip"
)

func init() { libraries = append(libraries, ipLib, cidrLib) }

// IP is Kubernetes' net.IP value.
type IP struct{ Addr netip.Addr }

// CIDR is Kubernetes' net.CIDR value.
type CIDR struct{ Prefix netip.Prefix }

// The types of the IP and CIDR libraries.
var (
	IPType   = OpaqueType("net.IP")
	CIDRType = OpaqueType("net.CIDR")
)

func (i IP) celType() *Type       { return IPType }
func (i IP) String() string       { return i.Addr.String() }
func (i IP) equal(o Value) bool   { p, ok := o.(IP); return ok && i.Addr == p.Addr }
func (c CIDR) celType() *Type     { return CIDRType }
func (c CIDR) String() string     { return c.Prefix.String() }
func (c CIDR) equal(o Value) bool { p, ok := o.(CIDR); return ok && c.Prefix == p.Prefix }

func parseIPAddr(raw string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", raw, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", raw)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return addr, nil
}

func parseCIDR(raw string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return p, nil
}

func stringToIP(v Value) Value {
	a, err := parseIPAddr(v.(string))
	if err != nil {
		return errorf("%v", err)
	}
	return IP{a}
}

func stringToCIDR(v Value) Value {
	p, err := parseCIDR(v.(string))
	if err != nil {
		return errorf("network address parse error during conversion from string: %v", err)
	}
	return CIDR{p}
}

// ipLib is Kubernetes' IP library.
func ipLib(l *library) {
	S, B := StringType, BoolType
	l.global("ip", "string_to_ip", IPType, ts(S), stringToIP)
	l.member("family", "ip_family", IntType, ts(IPType), func(v Value) Value {
		a := v.(IP).Addr
		switch {
		case a.Is4():
			return int64(4)
		case a.Is6():
			return int64(6)
		}
		return errorf("IP address %q is not an IPv4 or IPv6 address", a.String())
	})
	l.global("ip.isCanonical", "ip_is_canonical", B, ts(S), func(v Value) Value {
		a, err := parseIPAddr(v.(string))
		if err != nil {
			return errorf("%v", err)
		}
		return a.String() == v.(string)
	})
	pred := func(name, id string, f func(netip.Addr) bool) {
		l.member(name, id, B, ts(IPType), func(v Value) Value { return f(v.(IP).Addr) })
	}
	pred("isUnspecified", "ip_is_unspecified", netip.Addr.IsUnspecified)
	pred("isLoopback", "ip_is_loopback", netip.Addr.IsLoopback)
	pred("isLinkLocalMulticast", "ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast)
	pred("isLinkLocalUnicast", "ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast)
	pred("isGlobalUnicast", "ip_is_global_unicast", netip.Addr.IsGlobalUnicast)
	l.global("isIP", "is_ip", B, ts(S), func(v Value) Value {
		_, err := parseIPAddr(v.(string))
		return err == nil
	})
	l.global("string", "ip_to_string", S, ts(IPType), func(v Value) Value { return v.(IP).Addr.String() })
}

// cidrLib is Kubernetes' CIDR library.
func cidrLib(l *library) {
	S, B := StringType, BoolType
	containsIP := func(c, ip Value) Value {
		a, ok := ip.(IP)
		if !ok {
			return errNoSuchOverload
		}
		return c.(CIDR).Prefix.Contains(a.Addr)
	}
	containsCIDR := func(c, o Value) Value {
		other, ok := o.(CIDR)
		if !ok {
			if e, isErr := o.(*Err); isErr {
				return e
			}
			return errNoSuchOverload
		}
		p := c.(CIDR).Prefix
		return p.Overlaps(other.Prefix) && p.Bits() <= other.Prefix.Bits()
	}
	l.global("cidr", "string_to_cidr", CIDRType, ts(S), stringToCIDR)
	l.member("containsIP", "cidr_contains_ip_string", B, ts(CIDRType, S), func(c, s Value) Value { return containsIP(c, stringToIP(s)) })
	l.member("containsIP", "cidr_contains_ip_ip", B, ts(CIDRType, IPType), containsIP)
	l.member("containsCIDR", "cidr_contains_cidr_string", B, ts(CIDRType, S), func(c, s Value) Value { return containsCIDR(c, stringToCIDR(s)) })
	l.member("containsCIDR", "cidr_contains_cidr", B, ts(CIDRType, CIDRType), containsCIDR)
	l.member("ip", "cidr_ip", IPType, ts(CIDRType), func(v Value) Value { return IP{v.(CIDR).Prefix.Addr()} })
	l.member("prefixLength", "cidr_prefix_length", IntType, ts(CIDRType), func(v Value) Value { return int64(v.(CIDR).Prefix.Bits()) })
	l.member("masked", "cidr_masked", CIDRType, ts(CIDRType), func(v Value) Value { return CIDR{v.(CIDR).Prefix.Masked()} })
	l.global("isCIDR", "is_cidr", B, ts(S), func(v Value) Value {
		_, err := parseCIDR(v.(string))
		return err == nil
	})
	l.global("string", "cidr_to_string", S, ts(CIDRType), func(v Value) Value { return v.(CIDR).Prefix.String() })
}
