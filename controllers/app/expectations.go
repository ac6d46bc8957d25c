package app

import (
	"sync"
	"time"
)

// ExpectationsTimeout mirrors controller.ExpectationsTimeout: how long a controller waits for
// the informer events of its own creates and deletes before it syncs anyway. A watch that
// lost an event would otherwise leave the controller asleep for ever.
const ExpectationsTimeout = 5 * time.Minute

// Expectations mirrors controller.UIDTrackingControllerExpectations over
// controller.ControllerExpectations: per controller key, how many creates and which deletes
// the controller has made and not yet seen come back through its informer.
//
// Why it exists: a controller's cache lags behind its own writes. A ReplicaSet that has just
// created 3 pods still sees 0 in its pod informer; syncing again at once would create 3 more.
// So before writing, the sync records what it expects (ExpectCreations, ExpectDeletions);
// the informer's handlers count each event down (CreationObserved, DeletionObserved); and
// the next sync manages replicas only once SatisfiedExpectations says everything came back,
// or the record is older than ExpectationsTimeout.
//
// Deletions are tracked by pod key, not by count, because a graceful deletion is seen
// twice (the update that sets deletionTimestamp, then the delete): only the first sighting
// of an expected key counts. Creations are a count: the pod's name is not known before the
// server answers (generateName).
type Expectations struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[string]*expectation
}

// expectation mirrors ControlleeExpectations plus the UIDSet of the same key.
type expectation struct {
	add, del  int64
	timestamp time.Time
	deleting  map[string]bool // keys still expected to be deleted
}

// NewExpectations mirrors NewUIDTrackingControllerExpectations(NewControllerExpectations()).
func NewExpectations() *Expectations {
	return &Expectations{now: time.Now, m: map[string]*expectation{}}
}

// SatisfiedExpectations mirrors ControllerExpectations.SatisfiedExpectations: true when key
// has no record, when every expected create and delete was observed, or when the record has
// expired.
func (e *Expectations) SatisfiedExpectations(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true // never set, or deleted: sync
	}
	if x.add <= 0 && x.del <= 0 {
		return true
	}
	return e.now().Sub(x.timestamp) > ExpectationsTimeout
}

// ExpectCreations mirrors ControllerExpectations.ExpectCreations: replace key's record with
// adds expected creates (SetExpectations forgets what was there).
func (e *Expectations) ExpectCreations(key string, adds int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{add: int64(adds), timestamp: e.now()}
}

// ExpectDeletions mirrors UIDTrackingControllerExpectations.ExpectDeletions: replace key's
// record with the pod keys about to be deleted.
func (e *Expectations) ExpectDeletions(key string, podKeys []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	set := make(map[string]bool, len(podKeys))
	for _, k := range podKeys {
		set[k] = true
	}
	e.m[key] = &expectation{del: int64(len(set)), timestamp: e.now(), deleting: set}
}

// CreationObserved mirrors ControllerExpectations.CreationObserved: one expected create was
// seen (or will never be, when the create failed).
func (e *Expectations) CreationObserved(key string) { e.lower(key, 1, 0) }

// LowerExpectations mirrors ControllerExpectations.LowerExpectations.
func (e *Expectations) LowerExpectations(key string, add, del int) {
	e.lower(key, int64(add), int64(del))
}

// RaiseExpectations mirrors ControllerExpectations.RaiseExpectations.
func (e *Expectations) RaiseExpectations(key string, add, del int) {
	e.lower(key, -int64(add), -int64(del))
}

func (e *Expectations) lower(key string, add, del int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		x.add -= add
		x.del -= del
	}
}

// DeletionObserved mirrors UIDTrackingControllerExpectations.DeletionObserved: podKey was
// seen deleted (or being deleted). It counts once per expected key, so the second sighting
// of a graceful deletion changes nothing.
func (e *Expectations) DeletionObserved(key, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok && x.deleting[podKey] {
		delete(x.deleting, podKey)
		x.del--
	}
}

// DeleteExpectations mirrors UIDTrackingControllerExpectations.DeleteExpectations: forget
// key, as when its controller object is deleted (a new one of the same name starts clean).
func (e *Expectations) DeleteExpectations(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}

// GetExpectations mirrors ControllerExpectations.GetExpectations: the outstanding creates
// and deletes of key, and whether it has a record.
func (e *Expectations) GetExpectations(key string) (add, del int64, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return 0, 0, false
	}
	return x.add, x.del, true
}
