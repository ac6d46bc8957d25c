package daemonset

import (
	"sync"
	"time"
)

// The bounds of failedPodsBackoff in NewDaemonSetsController.
const (
	failedPodsBackoffBase = time.Second
	failedPodsBackoffMax  = 15 * time.Minute
)

// backoff mirrors the flowcontrol.Backoff the DaemonSet controller keeps for failed pods:
// per key, a delay that doubles at each failure up to a cap, so a pod that keeps failing on
// a node is not deleted and recreated in a hot loop.
type backoff struct {
	mu sync.Mutex
	m  map[string]*backoffEntry
}

type backoffEntry struct {
	delay time.Duration
	last  time.Time
}

func newBackoff() *backoff { return &backoff{m: map[string]*backoffEntry{}} }

// inBackoff mirrors IsInBackOffSinceUpdate: the last failure is more recent than the delay.
// It also returns the delay, for the requeue.
func (b *backoff) inBackoff(key string, now time.Time) (bool, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.m[key]
	if !ok {
		return false, 0
	}
	return now.Sub(e.last) < e.delay, e.delay
}

// next mirrors Next: start at the base delay, or double it up to the cap.
func (b *backoff) next(key string, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.m[key]
	if !ok || now.Sub(e.last) > 2*failedPodsBackoffMax {
		b.m[key] = &backoffEntry{delay: failedPodsBackoffBase, last: now}
		return
	}
	e.delay = min(2*e.delay, failedPodsBackoffMax)
	e.last = now
}
