package daemonset

import (
	"sync"
	"time"
)

// expectationsTimeout mirrors ExpectationsTimeout: expectations older than this are
// considered met, so a lost watch event delays a DaemonSet but never blocks it.
const expectationsTimeout = 5 * time.Minute

// expectations mirrors ControllerExpectations of pkg/controller/controller_utils.go: how
// many pod creations and deletions each DaemonSet still waits to see in its cache before
// it trusts the cache again.
type expectations struct {
	mu sync.Mutex
	m  map[string]*expectation
}

type expectation struct {
	add, del int
	at       time.Time
}

func newExpectations() *expectations { return &expectations{m: map[string]*expectation{}} }

// expect mirrors SetExpectations.
func (e *expectations) expect(key string, add, del int, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{add: add, del: del, at: now}
}

// creationObserved mirrors CreationObserved (and lowering after a failed create).
func (e *expectations) creationObserved(key string) { e.lower(key, 1, 0) }

// deletionObserved mirrors DeletionObserved.
func (e *expectations) deletionObserved(key string) { e.lower(key, 0, 1) }

func (e *expectations) lower(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		x.add -= add
		x.del -= del
	}
}

// satisfied mirrors SatisfiedExpectations: nothing recorded, everything observed, or
// expired.
func (e *expectations) satisfied(key string, now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true
	}
	return (x.add <= 0 && x.del <= 0) || now.Sub(x.at) > expectationsTimeout
}

// forget mirrors DeleteExpectations.
func (e *expectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}
