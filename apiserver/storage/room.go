package storage

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// Bulk writes (a DeleteCollection, a CRD's or a namespace's contents going) yield to the
// watchers. Writes dispatch without blocking, so a burst of events faster than a watcher's
// consumer filled its queue and stopped it, reading or not: a reading watcher of a 10,000-
// object CRD deletion got about 1,000 DELETED, then an ERROR. Now a bulk writer first waits
// until every watcher of the collection has room, as the cacher's dispatch waits for a slow
// watcher within a budget: a watcher that takes events keeps the writer waiting as long as
// it makes progress; one that takes nothing for WatchStallBudget is stopped (overflow), as
// a non-reading watcher would have been.

// DefaultWatchStallBudget is how long a bulk writer waits for a watcher that takes no
// event before it stops that watcher.
const DefaultWatchStallBudget = 5 * time.Second

// crowded returns a watcher of c whose queue is more than half full, or nil. Callers hold
// s.mu.
func (s *Store) crowded(c *Collection) *Watcher {
	for w := range s.watchers {
		if w.coll == c && 2*w.Queued() > w.limit {
			return w
		}
	}
	return nil
}

// WaitForRoom returns once every watcher of c has its queue at most half full, waiting
// while they take events. A watcher that takes none for the stall budget is stopped with
// StopOverflow. It must be called without the store lock; it returns early when ctx ends.
func (s *Store) WaitForRoom(ctx context.Context, c *Collection) {
	budget := s.cfg.WatchStallBudget
	if budget <= 0 {
		budget = DefaultWatchStallBudget
	}
	for {
		s.mu.RLock()
		w := s.crowded(c)
		s.mu.RUnlock()
		if w == nil || !s.waitForProgress(ctx, w, budget) {
			return
		}
	}
}

// waitForProgress waits for w to take an event or stop; when it does neither within budget
// it is stopped. It reports false when ctx ended.
func (s *Store) waitForProgress(ctx context.Context, w *Watcher, budget time.Duration) bool {
	t := s.clock.NewTimer(budget)
	defer t.Stop()
	select {
	case <-w.took:
	case <-w.done:
	case <-ctx.Done():
		return false
	case <-t.C():
		s.mu.Lock()
		if _, ok := s.watchers[w]; ok {
			w.stop(StopOverflow)
			delete(s.watchers, w)
			trace.Hop(s.log, "apiserver", "fault", w.coll.traceKey, strconv.FormatUint(s.rev, 10),
				slog.String("fault", "stalled-watcher"), slog.Uint64("watcher", w.ID))
		}
		s.mu.Unlock()
	}
	return true
}

// YieldToWatchers is WaitForRoom inside a write transaction: when a watcher of c is more
// than half full, the lock is let go (Outside) until the watchers have room. A loop that
// writes many objects in one transaction calls it after each write; what it read before
// may be stale after.
func (tx *Tx) YieldToWatchers(ctx context.Context, c *Collection) {
	if !tx.write || tx.s.crowded(c) == nil {
		return
	}
	tx.Outside(func() { tx.s.WaitForRoom(ctx, c) })
}
