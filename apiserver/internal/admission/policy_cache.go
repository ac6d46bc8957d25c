package admission

import "sync"

// maxCompiledPolicies bounds a compile cache: every policy ever written has a UID of its own,
// so a cache that only grew would let a client grow the server's memory by creating and
// deleting policies. Past the bound the cache starts again empty (a recompile is cheap).
const maxCompiledPolicies = 1024

// compileCache holds compiled policies by UID and name; each entry is checked against the
// policy's resourceVersion by its caller.
type compileCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

func (c *compileCache[T]) load(key string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *compileCache[T]) store(key string, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCompiledPolicies {
		c.m = map[string]T{}
	}
	c.m[key] = v
}
