package app

import (
	"fmt"
	"strconv"
	"sync"
)

// ConsistencyStore mirrors the consistency store (pkg/controller/util/consistency) that
// the Job controller consults first in syncJob (EnsureReady, WroteAt): the
// resourceVersion of a controller's last write of each object. A sync whose cached object
// is older than that write would decide on stale status (count a pod twice, repeat an
// event) and is retried instead. Resource versions are compared as the integers this
// server (and etcd) hands out; one that is not an integer is never held back.
type ConsistencyStore struct {
	mu      sync.Mutex
	written map[string]uint64
}

// NewConsistencyStore returns an empty store.
func NewConsistencyStore() *ConsistencyStore {
	return &ConsistencyStore{written: map[string]uint64{}}
}

// WroteAt mirrors WroteAt: record a write of key at rv.
func (s *ConsistencyStore) WroteAt(key, rv string) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > s.written[key] {
		s.written[key] = n
	}
}

// EnsureReady mirrors EnsureReady: an error while the cache holds key at a version older
// than the last write.
func (s *ConsistencyStore) EnsureReady(key, cachedRV string) error {
	n, err := strconv.ParseUint(cachedRV, 10, 64)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.written[key]; n < w {
		return fmt.Errorf("%s: the cache is at resourceVersion %d, before this controller's write at %d", key, n, w)
	}
	return nil
}

// Clear mirrors Clear: forget key (the object is gone).
func (s *ConsistencyStore) Clear(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.written, key)
}
