package job

import (
	"fmt"
	"strconv"
	"sync"
)

// consistencyStore mirrors the consistency store job_controller.go consults first in
// syncJob (EnsureReady, WroteAt): the resourceVersion of this controller's last write of
// each Job. A sync whose cached Job is older than that write would decide on stale status
// (count a pod twice, repeat an event) and is retried instead. Resource versions are
// compared as the integers this server (and etcd) hands out.
type consistencyStore struct {
	mu      sync.Mutex
	written map[string]uint64
}

func newConsistencyStore() *consistencyStore {
	return &consistencyStore{written: map[string]uint64{}}
}

// wroteAt records a write of key at rv.
func (s *consistencyStore) wroteAt(key, rv string) {
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

// ensureReady fails while the cache holds key at a version older than the last write.
func (s *consistencyStore) ensureReady(key, cachedRV string) error {
	n, err := strconv.ParseUint(cachedRV, 10, 64)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.written[key]; n < w {
		return fmt.Errorf("job %s: the cache is at resourceVersion %d, before this controller's write at %d", key, n, w)
	}
	return nil
}

// clear forgets key.
func (s *consistencyStore) clear(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.written, key)
}
