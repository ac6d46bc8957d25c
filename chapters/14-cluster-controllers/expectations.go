package ch14

import (
	"sync"
	"time"
)

// ExpectationsTimeout mirrors ExpectationsTimeout in k8s.io/kubernetes
// pkg/controller/controller_utils.go: expectations older than this are given up, so a watch
// event the controller never receives (a dropped event, a create that failed without an
// error) cannot stall a ReplicaSet for ever.
const ExpectationsTimeout = 5 * time.Minute

// expectation is one ReplicaSet's record: creations still to be seen, the keys of pods whose
// deletion is still to be seen, and when it was set.
type expectation struct {
	add       int
	deletions map[string]bool // pod keys, so a deletion seen twice counts once
	timestamp time.Time
}

// Expectations mirrors UIDTrackingControllerExpectations in pkg/controller/controller_utils.go
// (ControllerExpectations plus the per-pod tracking of deletions): what a controller has asked
// for and not yet seen in its informer's cache. A sync acts only when its ReplicaSet's
// expectations are satisfied; until then the cache lags behind the controller's own writes,
// and acting on it would create (or delete) the same pods twice.
type Expectations struct {
	mu sync.Mutex
	m  map[string]*expectation
}

// NewExpectations mirrors NewUIDTrackingControllerExpectations.
func NewExpectations() *Expectations { return &Expectations{m: map[string]*expectation{}} }

// SatisfiedExpectations mirrors ControllerExpectations.SatisfiedExpectations: true when the
// ReplicaSet key has no record (a new controller, or one that has seen all it asked for), when
// every creation and deletion has been observed, or when the record is older than
// ExpectationsTimeout.
//
//lab:14.2
func (e *Expectations) SatisfiedExpectations(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true
	}
	if x.add <= 0 && len(x.deletions) == 0 {
		return true
	}
	return time.Since(x.timestamp) > ExpectationsTimeout
}

// ExpectCreations mirrors ControllerExpectations.ExpectCreations: the next n pod creations
// for key are the controller's own; it resets the record and its timestamp.
func (e *Expectations) ExpectCreations(key string, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{add: n, deletions: map[string]bool{}, timestamp: time.Now()}
}

// ExpectDeletions mirrors UIDTrackingControllerExpectations.ExpectDeletions: the deletions
// of these pods (namespace/name keys) are the controller's own.
func (e *Expectations) ExpectDeletions(key string, podKeys []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := &expectation{deletions: map[string]bool{}, timestamp: time.Now()}
	for _, k := range podKeys {
		x.deletions[k] = true
	}
	e.m[key] = x
}

// CreationObserved mirrors ControllerExpectations.CreationObserved: one expected creation
// arrived (the informer's add of a pod the ReplicaSet controls), or one will never arrive (a
// create that failed or was skipped).
//
//lab:14.2
func (e *Expectations) CreationObserved(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok && x.add > 0 {
		x.add--
	}
}

// DeletionObserved mirrors UIDTrackingControllerExpectations.DeletionObserved: the deletion
// of podKey was seen. A pod is seen deleted twice (its deletionTimestamp, then its removal),
// and only the first counts, because the key leaves the set.
//
//lab:14.2
func (e *Expectations) DeletionObserved(key, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		delete(x.deletions, podKey)
	}
}

// DeleteExpectations mirrors ControllerExpectations.DeleteExpectations: the ReplicaSet is
// gone, and so is its record.
func (e *Expectations) DeleteExpectations(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}

// Pending returns the creations and deletions key still waits for; it has no upstream
// counterpart (upstream's GetExpectations returns the record itself) and serves the trace.
func (e *Expectations) Pending(key string) (add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		return x.add, len(x.deletions)
	}
	return 0, 0
}
