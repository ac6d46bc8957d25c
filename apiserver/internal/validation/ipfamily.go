package validation

import "net/netip"

// IPFamilyOf names the IP family of an address as a Service's ipFamilies spells it: "IPv4"
// (an IPv4-mapped IPv6 address included), "IPv6", or "" when ip is not an address.
func IPFamilyOf(ip string) string {
	addr, err := netip.ParseAddr(ip)
	switch {
	case err != nil:
		return ""
	case addr.Unmap().Is4():
		return "IPv4"
	}
	return "IPv6"
}
