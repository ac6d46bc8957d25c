package core

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"sync"
)

// DefaultServiceCIDR is kubeadm's default service range.
const DefaultServiceCIDR = "10.96.0.0/12"

// The allocator's errors, with upstream's texts; they end up inside the Status that
// AllocateService returns.
var (
	// ErrFull mirrors ipallocator.ErrFull.
	ErrFull = errors.New("range is full")
	// ErrAllocated mirrors ipallocator.ErrAllocated.
	ErrAllocated = errors.New("provided IP is already allocated")
	// ErrMismatchedNetwork mirrors ipallocator.ErrMismatchedNetwork, which the range
	// allocator of v1.36 answers for an address outside every service range.
	ErrMismatchedNetwork = errors.New("the provided network does not match the current range")
)

// ErrNotInRange mirrors ipallocator.ErrNotInRange: an address inside the prefix that may
// not be handed out (the network address, or the IPv4 broadcast address).
type ErrNotInRange struct {
	IP         string
	ValidRange string
}

// Error mirrors ErrNotInRange.Error.
func (e *ErrNotInRange) Error() string {
	return fmt.Sprintf("the provided IP (%s) is not in the valid range. The range of valid IPs is %s", e.IP, e.ValidRange)
}

// ClusterIPAllocator hands out the cluster IPs of one single-stack service range. It
// mirrors the Allocator of pkg/registry/core/service/ipallocator/ipallocator.go, with a
// map for the IPAddress objects upstream stores. As upstream it splits the range:
// dynamic allocation takes from the upper part first, so the lower part stays free for
// static addresses. Where upstream starts at a random address, we go in order, so a test
// knows which address comes next. Safe for concurrent use.
type ClusterIPAllocator struct {
	prefix netip.Prefix
	family string
	first  netip.Addr // the lowest address handed out
	last   netip.Addr // the highest
	offset netip.Addr // the first address of the upper, dynamic part
	total  uint64     // addresses from first to last

	mu     sync.Mutex
	taken  map[netip.Addr]struct{}
	cursor netip.Addr // where the next dynamic search starts
}

// NewClusterIPAllocator mirrors NewIPAllocator for a CIDR such as DefaultServiceCIDR. The
// first address (.1) is taken at once: it belongs to the "kubernetes" Service, whose IP
// KubernetesServiceIP gives.
func NewClusterIPAllocator(cidr string) (*ClusterIPAllocator, error) {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil, fmt.Errorf("invalid service CIDR %q: %w", cidr, err)
	}
	p = p.Masked()
	hostBits := p.Addr().BitLen() - p.Bits()
	if p.Addr().Is6() && p.Bits() < 64 {
		return nil, fmt.Errorf("shortest allowed prefix length for service CIDR is 64, got %d", p.Bits())
	}
	// Too small to hold the network address, .1 and something to hand out.
	if hostBits < 2 {
		return nil, fmt.Errorf("service CIDR %s is too small", p)
	}
	a := &ClusterIPAllocator{prefix: p, family: "IPv4", taken: map[netip.Addr]struct{}{}}
	if p.Addr().Is6() {
		a.family = "IPv6"
	}
	a.first = p.Addr().Next()
	a.last = lastAddr(p)
	size := uint64(math.MaxUint64)
	if hostBits < 64 {
		size = uint64(1) << hostBits
	}
	a.total = size - 1 // all but the network address
	if a.family == "IPv4" {
		a.total-- // and the broadcast address
		a.last = a.last.Prev()
	}
	a.offset = a.first
	for range rangeOffset(size) {
		a.offset = a.offset.Next()
	}
	a.cursor = a.offset
	a.taken[a.first] = struct{}{}
	return a, nil
}

// rangeOffset mirrors calculateRangeOffset: the size of the lower, static part is a
// sixteenth of the range, at least 16 and at most 256 addresses; none below 17 addresses.
func rangeOffset(size uint64) int {
	const lo, hi, step = 16, 256, 16
	if size <= lo {
		return 0
	}
	return int(min(max(size/step, lo), hi))
}

// lastAddr is the highest address of p, its broadcast address for IPv4.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := range b {
		bitsHere := min(max(p.Bits()-8*i, 0), 8)
		b[i] |= byte(0xff >> bitsHere)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// CIDR mirrors Allocator.CIDR: the range, as "10.96.0.0/12".
func (a *ClusterIPAllocator) CIDR() string { return a.prefix.String() }

// IPFamily mirrors Allocator.IPFamily: "IPv4" or "IPv6".
func (a *ClusterIPAllocator) IPFamily() string { return a.family }

// KubernetesServiceIP is the first address of the range, held for the "kubernetes" Service
// in "default" as the apiserver's own controller gives it.
func (a *ClusterIPAllocator) KubernetesServiceIP() string { return a.first.String() }

// Allocate mirrors Allocator.AllocateNext (requested "") and Allocator.Allocate: it
// reserves an address and returns it, the next free one or requested, which must be a free
// address of the range. With dryRun nothing is
// reserved and, as upstream's dry-run allocator does, a dynamic request answers the
// range's network address and a static one is checked against the range only.
func (a *ClusterIPAllocator) Allocate(requested string, dryRun bool) (string, error) {
	if requested == "" {
		if dryRun {
			return a.prefix.Addr().String(), nil
		}
		return a.allocateNext()
	}
	ip, err := netip.ParseAddr(requested)
	if err != nil {
		return "", fmt.Errorf("failed to parse service IP %q", requested)
	}
	ip = ip.Unmap()
	if !a.prefix.Contains(ip) {
		return "", ErrMismatchedNetwork
	}
	if ip.Less(a.first) || a.last.Less(ip) {
		return "", &ErrNotInRange{IP: ip.String(), ValidRange: a.prefix.String()}
	}
	if dryRun {
		return ip.String(), nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.taken[ip]; ok {
		return "", ErrAllocated
	}
	a.taken[ip] = struct{}{}
	return ip.String(), nil
}

// allocateNext searches the upper part from the cursor, wrapping once, then the lower part.
func (a *ClusterIPAllocator) allocateNext() (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if uint64(len(a.taken)) >= a.total {
		return "", ErrFull
	}
	ip, ok := a.search(a.cursor, a.last)
	if !ok {
		ip, ok = a.search(a.offset, a.cursor)
	}
	if !ok && a.offset != a.first {
		ip, ok = a.search(a.first, a.offset.Prev())
	}
	if !ok {
		return "", ErrFull
	}
	a.taken[ip] = struct{}{}
	if ip.Less(a.offset) {
		return ip.String(), nil
	}
	a.cursor = ip.Next()
	if !a.cursor.IsValid() || a.last.Less(a.cursor) {
		a.cursor = a.offset
	}
	return ip.String(), nil
}

// search returns the first free address in [from, to].
func (a *ClusterIPAllocator) search(from, to netip.Addr) (netip.Addr, bool) {
	for ip := from; ip.IsValid() && !to.Less(ip); ip = ip.Next() {
		if _, ok := a.taken[ip]; !ok {
			return ip, true
		}
	}
	return netip.Addr{}, false
}

// Release mirrors Allocator.Release: it frees an address; an address not held, or not an address, is ignored, as
// upstream ignores a failed release.
func (a *ClusterIPAllocator) Release(ip string) {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return
	}
	a.mu.Lock()
	delete(a.taken, addr.Unmap())
	a.mu.Unlock()
}

// Has mirrors Allocator.Has: whether ip is held.
func (a *ClusterIPAllocator) Has(ip string) bool {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.taken[addr.Unmap()]
	return ok
}

// Used mirrors Allocator.Used: the number of addresses held, the kubernetes Service's included.
func (a *ClusterIPAllocator) Used() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.taken)
}
