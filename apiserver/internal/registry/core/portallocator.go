package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// DefaultNodePortRange is kube-apiserver's default --service-node-port-range, 30000-32767.
var DefaultNodePortRange = PortRange{Base: 30000, Size: 2768}

// The port allocator's errors, with upstream's texts (pkg/registry/core/service/
// portallocator/allocator.go).
var (
	// ErrPortsFull mirrors portallocator.ErrFull.
	ErrPortsFull = errors.New("range is full")
	// ErrPortAllocated mirrors portallocator.ErrAllocated.
	ErrPortAllocated = errors.New("provided port is already allocated")
)

// ErrPortNotInRange mirrors portallocator.ErrNotInRange.
type ErrPortNotInRange struct{ ValidPorts string }

// Error mirrors ErrNotInRange.Error.
func (e *ErrPortNotInRange) Error() string {
	return "provided port is not in the valid range. The range of valid ports is " + e.ValidPorts
}

// PortRange mirrors net.PortRange of k8s.io/apimachinery: Size ports from Base.
type PortRange struct{ Base, Size int }

// String mirrors PortRange.String: "30000-32767".
func (pr PortRange) String() string { return fmt.Sprintf("%d-%d", pr.Base, pr.Base+pr.Size-1) }

// NodePortAllocator hands out the node ports of one range, as the in-memory PortAllocator of
// pkg/registry/core/service/portallocator does: a dynamic allocation picks a random free
// port of the upper part of the range first (randomScanStrategyWithOffset), so that the
// lower part stays free for ports users ask for. Safe for concurrent use.
type NodePortAllocator struct {
	pr     PortRange
	offset int // the size of the lower, static part (calculateRangeOffset)

	mu    sync.Mutex
	taken map[int]struct{} // by offset into the range
	rand  *rand.Rand
}

// NewNodePortAllocator mirrors portallocator.NewInMemory.
func NewNodePortAllocator(pr PortRange) *NodePortAllocator {
	return &NodePortAllocator{pr: pr, offset: portRangeOffset(pr.Size), taken: map[int]struct{}{},
		rand: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// portRangeOffset mirrors the port allocator's calculateRangeOffset: a thirty-second of the
// range, at least 16 and at most 128 ports; none for 16 ports or fewer.
func portRangeOffset(size int) int {
	const lo, hi, step = 16, 128, 32
	if size <= lo {
		return 0
	}
	return min(max(size/step, lo), hi)
}

// Range is the range the allocator hands ports out of (net.PortRange of the PortAllocator).
func (a *NodePortAllocator) Range() PortRange { return a.pr }

// Allocate mirrors PortAllocator.Allocate: it reserves port, which must be a free port of
// the range.
func (a *NodePortAllocator) Allocate(port int) error {
	i := port - a.pr.Base
	if i < 0 || i >= a.pr.Size {
		return &ErrPortNotInRange{ValidPorts: a.pr.String()}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.taken[i]; ok {
		return ErrPortAllocated
	}
	a.taken[i] = struct{}{}
	return nil
}

// AllocateNext mirrors PortAllocator.AllocateNext: a random free port of the upper part,
// scanning on from a random start, else of the lower part the same way.
func (a *NodePortAllocator) AllocateNext() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.taken) >= a.pr.Size {
		return 0, ErrPortsFull
	}
	if i, ok := a.scan(a.offset, a.pr.Size-a.offset); ok {
		return a.pr.Base + i, nil
	}
	if i, ok := a.scan(0, a.offset); ok {
		return a.pr.Base + i, nil
	}
	return 0, ErrPortsFull
}

// scan takes the first free offset of [from, from+n), starting at a random place and
// wrapping.
func (a *NodePortAllocator) scan(from, n int) (int, bool) {
	if n <= 0 {
		return 0, false
	}
	start := a.rand.IntN(n)
	for k := range n {
		i := from + (start+k)%n
		if _, ok := a.taken[i]; !ok {
			a.taken[i] = struct{}{}
			return i, true
		}
	}
	return 0, false
}

// Release mirrors PortAllocator.Release: a port outside the range, or not held, is ignored.
func (a *NodePortAllocator) Release(port int) {
	a.mu.Lock()
	delete(a.taken, port-a.pr.Base)
	a.mu.Unlock()
}

// Has mirrors PortAllocator.Has.
func (a *NodePortAllocator) Has(port int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.taken[port-a.pr.Base]
	return ok
}

// Used mirrors PortAllocator.Used.
func (a *NodePortAllocator) Used() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.taken)
}

// portOperation mirrors PortAllocationOperation: the ports one write reserves, given back
// unless the write succeeds, and the ports it frees, freed only when it does. A dry run
// reserves nothing: a requested port is checked against the ports held (not the range, as
// upstream), and a dynamic one is numbered on from 32768, as upstream's dry run does.
type portOperation struct {
	a         *NodePortAllocator
	dryRun    bool
	allocated []int
	release   []int
}

func (op *portOperation) allocate(port int) error {
	if op.dryRun {
		for _, p := range op.allocated {
			if p == port {
				return ErrPortAllocated
			}
		}
		if op.a.Has(port) {
			return ErrPortAllocated
		}
		op.allocated = append(op.allocated, port)
		return nil
	}
	if err := op.a.Allocate(port); err != nil {
		return err
	}
	op.allocated = append(op.allocated, port)
	return nil
}

func (op *portOperation) allocateNext() (int, error) {
	if op.dryRun {
		last := 32768
		if len(op.allocated) > 0 {
			last = slices.Max(op.allocated)
		}
		op.allocated = append(op.allocated, last+1)
		return last + 1, nil
	}
	p, err := op.a.AllocateNext()
	if err == nil {
		op.allocated = append(op.allocated, p)
	}
	return p, err
}

// finish commits (ok: the deferred releases happen) or rolls back (the reservations go).
func (op *portOperation) finish(ok bool) {
	if op.dryRun {
		return
	}
	ports := op.allocated
	if ok {
		ports = op.release
	}
	for _, p := range ports {
		op.a.Release(p)
	}
}
