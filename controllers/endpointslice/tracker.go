package endpointslice

import (
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// deletionExpected marks a slice this controller deleted (upstream's deletionExpected).
const deletionExpected = -1

// sliceTracker mirrors endpointsliceutil.EndpointSliceTracker: per Service, the generation of
// every slice this controller last wrote, by UID.
type sliceTracker struct {
	mu   sync.Mutex
	gens map[string]map[string]int64
}

func newSliceTracker() *sliceTracker { return &sliceTracker{gens: map[string]map[string]int64{}} }

// update mirrors EndpointSliceTracker.Update: remember what a write returned.
func (t *sliceTracker) update(svcKey string, s *api.Unstructured) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gens[svcKey] == nil {
		t.gens[svcKey] = map[string]int64{}
	}
	t.gens[svcKey][s.GetUID()] = s.GetGeneration()
}

// expectDeletion mirrors ExpectDeletion.
func (t *sliceTracker) expectDeletion(svcKey, uid string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gens[svcKey] == nil {
		t.gens[svcKey] = map[string]int64{}
	}
	t.gens[svcKey][uid] = deletionExpected
}

// shouldSync mirrors ShouldSync: a slice event needs a sync unless it is the echo of this
// controller's own write.
func (t *sliceTracker) shouldSync(svcKey string, s *api.Unstructured) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.gens[svcKey][s.GetUID()]
	return !ok || s.GetGeneration() > g
}

// handleDeletion mirrors HandleDeletion: forget the slice; a deletion this controller did not
// make needs a sync (to put it back).
func (t *sliceTracker) handleDeletion(svcKey string, s *api.Unstructured) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.gens[svcKey][s.GetUID()]
	delete(t.gens[svcKey], s.GetUID())
	return !ok || g != deletionExpected
}

// stale mirrors StaleSlices: the cache has not yet seen every write this controller made for
// the Service (a created slice missing, an older generation, a deleted slice still there).
func (t *sliceTracker) stale(svcKey string, cached []*api.Unstructured) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	seen := map[string]bool{}
	for _, s := range cached {
		seen[s.GetUID()] = true
		g, ok := t.gens[svcKey][s.GetUID()]
		if ok && (g == deletionExpected || g > s.GetGeneration()) {
			return true
		}
	}
	for uid, g := range t.gens[svcKey] {
		if g != deletionExpected && !seen[uid] {
			return true
		}
	}
	return false
}

// deleteService mirrors DeleteService.
func (t *sliceTracker) deleteService(svcKey string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.gens, svcKey)
}
