package processor

import (
	"sync"
	"sync/atomic"
)

// singleFileTracker mirrors synctrack.SingleFileTracker in client-go tools/cache/synctrack: it
// answers "has this handler seen the whole initial list?" for notifications that are handled
// one at a time, in order (PL-7). It is a DoneChecker.
type singleFileTracker struct {
	name string
	// count is initial-list adds started (queued) minus finished (handler returned).
	count atomic.Int64
	// upstreamSynced turns true once the informer reports synced.
	upstreamSynced atomic.Bool

	once   sync.Once
	synced chan struct{}
}

func newSingleFileTracker(name string) *singleFileTracker {
	return &singleFileTracker{name: name, synced: make(chan struct{})}
}

// Start counts one initial-list add before it is queued.
func (t *singleFileTracker) Start() { t.count.Add(1) }

// Finished counts one initial-list add whose handler has returned. A Finished without its
// Start is a logic error that would report synced too early, so it panics, as client-go's does.
func (t *singleFileTracker) Finished() {
	n := t.count.Add(-1)
	if n < 0 {
		panic("processor: sync tracker counter went negative; HasSynced would be wrong")
	}
	if n == 0 && t.upstreamSynced.Load() {
		t.markSynced()
	}
}

// UpstreamHasSynced records that the informer has synced; it must come after every initial
// add was counted by Start, which the informer guarantees (SI-14).
func (t *singleFileTracker) UpstreamHasSynced() {
	t.upstreamSynced.Store(true)
	if t.count.Load() == 0 {
		t.markSynced()
	}
}

// markSynced closes the latch once: synced never turns false again.
func (t *singleFileTracker) markSynced() { t.once.Do(func() { close(t.synced) }) }

// HasSynced reports whether the latch is closed.
func (t *singleFileTracker) HasSynced() bool { return IsDone(t) }

// Done is closed when upstream has synced and no initial add is pending.
func (t *singleFileTracker) Done() <-chan struct{} { return t.synced }

// Name describes the tracker, "<upstream> + event handler <listener>".
func (t *singleFileTracker) Name() string { return t.name }
