package job

import (
	"sync"
	"time"
)

// expectationsTimeout mirrors ExpectationsTimeout: an expectation older than this is
// considered satisfied, so a lost watch event cannot stall a Job for ever.
const expectationsTimeout = 5 * time.Minute

type expectation struct {
	add, del  int
	timestamp time.Time
}

// controllerExpectations mirrors controller.ControllerExpectations: how many creations and
// deletions a Job's last sync made that the pod informer has not shown yet. Until they are
// seen, the cache undercounts (or overcounts) the pods and manageJob must not act on it.
type controllerExpectations struct {
	mu sync.Mutex
	m  map[string]*expectation
}

func newControllerExpectations() *controllerExpectations {
	return &controllerExpectations{m: map[string]*expectation{}}
}

// satisfied mirrors SatisfiedExpectations: no record, a fulfilled one, or an expired one.
func (e *controllerExpectations) satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true
	}
	return (x.add <= 0 && x.del <= 0) || time.Since(x.timestamp) > expectationsTimeout
}

// expectCreations mirrors ExpectCreations (SetExpectations: it replaces the record).
func (e *controllerExpectations) expectCreations(key string, n int) { e.set(key, n, 0) }

// expectDeletions mirrors ExpectDeletions.
func (e *controllerExpectations) expectDeletions(key string, n int) { e.set(key, 0, n) }

func (e *controllerExpectations) set(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{add: add, del: del, timestamp: time.Now()}
}

// creationObserved mirrors CreationObserved.
func (e *controllerExpectations) creationObserved(key string) { e.lower(key, 1, 0) }

// deletionObserved mirrors DeletionObserved.
func (e *controllerExpectations) deletionObserved(key string) { e.lower(key, 0, 1) }

func (e *controllerExpectations) lower(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		x.add -= add
		x.del -= del
	}
}

// deleteExpectations mirrors DeleteExpectations.
func (e *controllerExpectations) deleteExpectations(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}

// uidTrackingExpectations mirrors uidTrackingExpectations of tracking_utils.go: the pods
// whose tracking finalizer this controller removed and whose update the informer has not
// shown yet. Such a pod still looks uncounted in the cache; counting it again would count
// it twice.
type uidTrackingExpectations struct {
	mu sync.Mutex
	m  map[string]map[string]bool
}

func newUIDTrackingExpectations() *uidTrackingExpectations {
	return &uidTrackingExpectations{m: map[string]map[string]bool{}}
}

// getExpectedUIDs returns a copy of the set of key.
func (u *uidTrackingExpectations) getExpectedUIDs(key string) map[string]bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string]bool, len(u.m[key]))
	for k := range u.m[key] {
		out[k] = true
	}
	return out
}

// expectFinalizersRemoved mirrors expectFinalizersRemoved.
func (u *uidTrackingExpectations) expectFinalizersRemoved(key string, uids []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.m[key]
	if s == nil {
		s = map[string]bool{}
		u.m[key] = s
	}
	for _, id := range uids {
		s[id] = true
	}
}

// finalizerRemovalObserved mirrors finalizerRemovalObserved.
func (u *uidTrackingExpectations) finalizerRemovalObserved(key, uid string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if s := u.m[key]; s != nil {
		delete(s, uid)
		if len(s) == 0 {
			delete(u.m, key)
		}
	}
}

// deleteExpectations mirrors uidTrackingExpectations.deleteExpectations.
func (u *uidTrackingExpectations) deleteExpectations(key string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.m, key)
}
