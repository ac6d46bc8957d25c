package apiserver

import (
	"maps"
	"sync"
)

// RequestKey names one kind of request: a verb (get, list, watch, create, update, patch,
// delete, deletecollection) on a resource ("pods", "deployments.apps").
type RequestKey struct {
	Verb     string
	Resource string
}

// requestCounts counts requests by verb and resource, over HTTP and through the Go API alike,
// so a demo can show that a resync makes no API call at all.
type requestCounts struct {
	mu sync.Mutex
	m  map[RequestKey]int
}

func (c *requestCounts) add(verb, resource string) {
	c.mu.Lock()
	c.m[RequestKey{verb, resource}]++
	c.mu.Unlock()
}

func (c *requestCounts) reset() {
	c.mu.Lock()
	c.m = map[RequestKey]int{}
	c.mu.Unlock()
}

// RequestCounts returns how many requests of each verb and resource the server has served
// (or refused) since New or the last ResetRequestCounts. The seeding done by New is not
// counted.
func (s *Server) RequestCounts() map[RequestKey]int {
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	return maps.Clone(s.counts.m)
}

// ResetRequestCounts sets every count back to zero.
func (s *Server) ResetRequestCounts() { s.counts.reset() }
