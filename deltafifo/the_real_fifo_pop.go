package deltafifo

import (
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// The consumer side of RealFIFO: Pop, PopBatch and the hand-off of the lock to the process
// function.

// waitLocked blocks until a delta is queued; it reports false once closed and empty.
func (f *RealFIFO) waitLocked() bool {
	for len(f.items) == 0 {
		if f.closed {
			return false
		}
		f.cond.Wait()
	}
	return true
}

// unlockForProcessLocked drops the lock for the process call when allowed and the queue is
// short; a long queue keeps it so that the producer (the reflector) is slowed down (RF-10).
// The caller must relock, in a defer, when it returns true.
func (f *RealFIFO) unlockForProcessLocked() bool {
	if f.unlockWhileProcessing && len(f.items) < 2*f.batchSize {
		f.lock.Unlock()
		return true
	}
	return false
}

// processSingleLocked calls process for one delta, possibly without the lock. It is a method
// rather than a closure so that Pop does not allocate one per call.
func (f *RealFIFO) processSingleLocked(process PopProcessFunc, item Deltas, isInInitialList bool) error {
	if f.unlockForProcessLocked() {
		defer f.lock.Lock()
	}
	return process(item, isInInitialList)
}

// processBatchLocked is processSingleLocked for a batch.
func (f *RealFIFO) processBatchLocked(process ProcessBatchFunc, batch []Delta, isInInitialList bool) error {
	if f.unlockForProcessLocked() {
		defer f.lock.Lock()
	}
	return process(batch, isInInitialList)
}

// finishLocked counts n processed deltas against the initial population. It runs after the
// process function so that HasSynced cannot turn true while the last one is still being
// handled (RF-9, D-7).
func (f *RealFIFO) finishLocked(n int) {
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount -= n
		f.checkSyncedLocked()
	}
}

// Pop mirrors RealFIFO.Pop: hand the oldest delta, alone, to process, and return it. An error
// from process is returned and the delta is dropped: client-go v0.33 removed requeueing (RF-9).
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.waitLocked() {
		return nil, ErrFIFOClosed
	}
	isInInitialList := !f.syncedClosed
	d := f.items[0]
	// Clear the slot so the backing array does not keep the object alive.
	f.items[0] = Delta{}
	f.items = f.items[1:]
	f.tracePopLocked(d)
	defer f.finishLocked(1)

	item := Deltas{d}
	err := f.processSingleLocked(process, item, isInInitialList)
	return item, err
}

// rfBatchable reports whether t may share a batch; the aggregate deltas change the whole cache
// and must be applied alone.
func rfBatchable(t DeltaType) bool {
	switch t {
	case ReplacedAll, SyncAll, Bookmark:
		return false
	}
	return true
}

// PopBatch mirrors RealFIFO.PopBatch (RF-11, D-9): take a run of deltas with distinct keys
// from the head, at most BatchSize, never past the end of the initial population, and with an
// aggregate delta only on its own. A batch of one goes to processSingle.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.waitLocked() {
		return ErrFIFOClosed
	}
	isInInitialList := !f.syncedClosed

	n := f.batchLenLocked()
	batch := make([]Delta, n)
	copy(batch, f.items[:n])
	clear(f.items[:n])
	f.items = f.items[n:]
	if trace.Enabled(f.logger) {
		trace.Hop(f.logger, rfTraceComponent, "pop-batch", "", "", slog.Int("size", n))
		for _, d := range batch {
			f.tracePopLocked(d)
		}
	}
	defer f.finishLocked(n)

	if n == 1 {
		return f.processSingleLocked(processSingle, Deltas(batch), isInInitialList)
	}
	return f.processBatchLocked(processBatch, batch, isInInitialList)
}

// batchLenLocked applies the RF-11 rules to the head of the queue; it returns at least 1.
func (f *RealFIFO) batchLenLocked() int {
	clear(f.batchKeys)
	limit := min(len(f.items), f.batchSize)
	if f.initialPopulationCount > 0 {
		// Never mix initial-list deltas with later ones: isInInitialList is per batch.
		limit = min(limit, f.initialPopulationCount)
	}
	n := 0
	for n < limit {
		d := f.items[n]
		if !rfBatchable(d.Type) {
			if n == 0 {
				n = 1
			}
			break
		}
		key, err := f.keyOf(d.Object)
		if err != nil {
			// Take the broken delta so the queue moves on, but trust nothing after it.
			n++
			break
		}
		if _, dup := f.batchKeys[key]; dup {
			break
		}
		f.batchKeys[key] = struct{}{}
		n++
	}
	return max(n, 1)
}

// tracePopLocked logs one "pop" hop for d when tracing is on.
func (f *RealFIFO) tracePopLocked(d Delta) {
	if !trace.Enabled(f.logger) {
		return
	}
	key := ""
	if rfBatchable(d.Type) {
		key, _ = f.keyOf(d.Object)
	}
	trace.Hop(f.logger, rfTraceComponent, "pop", key, rfDeltaRV(d), slog.String(trace.KeyType, string(d.Type)))
}

// rfDeltaRV is the resourceVersion shown in traces: the object's own, the tombstoned object's,
// or the one carried by a ReplacedAll or Bookmark.
func rfDeltaRV(d Delta) string {
	obj := d.Object
	switch o := obj.(type) {
	case ReplacedAllInfo:
		return o.ResourceVersion
	case BookmarkInfo:
		return o.ResourceVersion
	case store.DeletedFinalStateUnknown:
		obj = o.Obj
	}
	if obj == nil {
		return ""
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetResourceVersion()
}
