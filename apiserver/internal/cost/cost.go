// Package cost counts units of work in the loops over request input, so that tests can
// check that the work grows linearly (or as n·log n) with the input, deterministically: the
// same request at n and at 8n, its operations counted, never timed. Counting is off unless
// a test turns it on with Measure; then it costs one atomic load per unit.
package cost

import (
	"sync"
	"sync/atomic"
)

var (
	on  atomic.Bool
	ops atomic.Int64
	mu  sync.Mutex // one Measure at a time
)

// Add records n units of work: one comparison, one element decoded, one lookup.
func Add(n int) {
	if on.Load() {
		ops.Add(int64(n))
	}
}

// Measure runs fn and returns the units of work it recorded. Work recorded meanwhile by
// other goroutines counts too, so the caller measures with nothing else running.
func Measure(fn func()) int64 {
	mu.Lock()
	defer mu.Unlock()
	ops.Store(0)
	on.Store(true)
	fn()
	on.Store(false)
	return ops.Load()
}
