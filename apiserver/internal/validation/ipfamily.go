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

// StrictIPError mirrors the strict parse of IsValidIP (StrictIPCIDRValidation, beta and on in
// v1.36): "" for an address, else the message: leading zeros, an IPv4-mapped IPv6 address,
// or not an address at all.
func StrictIPError(v string) string {
	addr, err := netip.ParseAddr(v)
	switch {
	case err != nil && sloppyIPv4(v):
		return "must not have leading 0s"
	case err != nil:
		return "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
	case addr.Is4In6():
		return "must not be an IPv4-mapped IPv6 address"
	}
	return ""
}

// IsValidIP mirrors validation.IsValidIP's messages: StrictIPError, then the canonical form
// (an IPAddress object's name must be its address as netip writes it).
func IsValidIP(v string) []string {
	if msg := StrictIPError(v); msg != "" {
		return []string{msg}
	}
	if c := netip.MustParseAddr(v).String(); c != v {
		return []string{"must be in canonical form (\"" + c + "\")"}
	}
	return nil
}

// sloppyIPv4 reports whether v is a dotted quad that only leading zeros keep netip from
// reading (netutils.ParseIPSloppy accepts it).
func sloppyIPv4(v string) bool {
	n, digits, value := 0, 0, 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == '.' {
			if digits == 0 || value > 255 {
				return false
			}
			n, digits, value = n+1, 0, 0
			continue
		}
		if v[i] < '0' || v[i] > '9' {
			return false
		}
		digits++
		value = value*10 + int(v[i]-'0')
		if digits > 3 {
			return false
		}
	}
	return n == 4
}

// ParseIPSloppy mirrors netutils.ParseIPSloppy: an address, IPv4 parts with leading zeros
// read as decimal; an IPv4-mapped address reads as its IPv4 address, as net.IP holds it.
func ParseIPSloppy(v string) (netip.Addr, bool) {
	if addr, err := netip.ParseAddr(v); err == nil {
		return addr.Unmap(), true
	}
	if !sloppyIPv4(v) {
		return netip.Addr{}, false
	}
	var b [4]byte
	part, n := 0, 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == '.' {
			b[part], part, n = byte(n), part+1, 0
			continue
		}
		n = n*10 + int(v[i]-'0')
	}
	return netip.AddrFrom4(b), true
}
