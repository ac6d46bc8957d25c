package networking

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// cidrWarnings mirrors GetWarningsForCIDR of k8s.io/apimachinery pkg/util/validation: a
// CIDR with bits set after the prefix is ambiguous; one the strict parser refuses (leading
// zeros) or an IPv4-mapped IPv6 one is non-standard; an IPv6 one not in RFC 5952 form
// should be. A value that does not parse at all is validation's business: no warning.
func cidrWarnings(path, value string) []string {
	ip, ipnet, err := net.ParseCIDR(sloppyIPv4(value))
	if err != nil {
		return nil
	}
	var warnings []string
	if !ip.Equal(ipnet.IP) {
		_, bits := ipnet.Mask.Size()
		warnings = append(warnings, fmt.Sprintf("%s: CIDR value %q is ambiguous in this context (should be %q or %q?)",
			path, value, ipnet.String(), fmt.Sprintf("%s/%d", ip.String(), bits)))
	}
	prefix, _ := netip.ParsePrefix(value)
	addr := prefix.Addr()
	if !prefix.IsValid() || addr.Is4In6() {
		warnings = append(warnings, fmt.Sprintf("%s: non-standard CIDR value %q is invalid: use %q", path, value, ipnet.String()))
	}
	if len(warnings) == 0 && addr.Is6() && prefix.String() != value {
		warnings = append(warnings, fmt.Sprintf("%s: IPv6 CIDR value %q should be in RFC 5952 canonical format (%q)", path, value, prefix.String()))
	}
	return warnings
}

// sloppyIPv4 drops the leading zeros of a dotted IPv4 address's parts, which the legacy
// parser (ParseCIDRSloppy) reads as decimal and Go's net package refuses.
func sloppyIPv4(value string) string {
	addr, bits, ok := strings.Cut(value, "/")
	parts := strings.Split(addr, ".")
	if !ok || len(parts) != 4 || strings.Contains(addr, ":") {
		return value
	}
	for i, p := range parts {
		if t := strings.TrimLeft(p, "0"); len(p) > 1 {
			if t == "" {
				t = "0"
			}
			parts[i] = t
		}
	}
	return strings.Join(parts, ".") + "/" + bits
}
