package deltafifo

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// defaultRealFIFOBatchSize is client-go's defaultBatchSize: the most deltas PopBatch hands
// over at once, and half the queue length above which UnlockWhileProcessing keeps the lock.
const defaultRealFIFOBatchSize = 1000

// rfTraceComponent is the trace component of RealFIFO hops, the same as DeltaFIFO's.
const rfTraceComponent = "fifo"

// RealFIFOOptions mirrors cache.RealFIFOOptions in client-go tools/cache/the_real_fifo.go.
// Name, Identifier and MetricsProvider are left out (they only feed metrics and klog);
// BatchSize is ours, so that tests can exercise PopBatch limits with small queues.
type RealFIFOOptions struct {
	// KeyFunction computes keys; nil means store.MetaNamespaceKeyFunc.
	KeyFunction store.KeyFunc
	// KnownObjects is the informer's indexer. Required when AtomicEvents is false (Replace
	// and Resync read it), forbidden when true (the informer then diffs at processing time).
	KnownObjects KeyListerGetter
	// Transformer rewrites every incoming object once, before it is queued.
	Transformer store.TransformFunc
	// AtomicEvents turns Replace into one ReplacedAll delta and Resync into one SyncAll.
	AtomicEvents bool
	// UnlockWhileProcessing releases the lock while the process function runs (RF-10).
	// Only allowed with AtomicEvents; Pop and PopBatch must then have a single consumer.
	UnlockWhileProcessing bool
	// EmitDeltaTypeBookmark makes Bookmark queue a Bookmark delta. Only allowed with
	// AtomicEvents, so that bookmarks cannot overtake the deltas of a non-atomic relist.
	EmitDeltaTypeBookmark bool
	// BatchSize caps PopBatch; 0 means 1000.
	BatchSize int
	// Logger receives one Debug hop per enqueue and pop; nil is silent.
	Logger *slog.Logger
}

// RealFIFO mirrors cache.RealFIFO in client-go tools/cache/the_real_fifo.go: a queue that keeps
// every delta in arrival order, one entry per event, and never merges deltas of one key.
type RealFIFO struct {
	lock sync.Mutex
	cond sync.Cond

	// items holds every pending delta in arrival order (RF-2).
	items []Delta

	// synced is closed exactly once, when the initial population has been processed.
	synced       chan struct{}
	syncedClosed bool

	// populated turns true at the first Replace, Add, Update or Delete.
	populated bool
	// initialPopulationCount is how many deltas of the first Replace are not yet processed.
	initialPopulationCount int

	keyFunc      store.KeyFunc
	knownObjects KeyListerGetter
	transformer  store.TransformFunc
	closed       bool

	batchSize             int
	emitAtomicEvents      bool
	unlockWhileProcessing bool
	emitDeltaTypeBookmark bool

	// batchKeys is reused by PopBatch (only under the lock) to avoid a map per batch.
	batchKeys map[string]struct{}

	logger *slog.Logger
}

var _ Queue = (*RealFIFO)(nil)

// NewRealFIFOWithOptions mirrors cache.NewRealFIFOWithOptions. It panics on a combination
// client-go rejects (RF-1): a misconfigured queue would silently lose deletions.
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = store.MetaNamespaceKeyFunc
	}
	if opts.AtomicEvents {
		if opts.KnownObjects != nil {
			panic("deltafifo: RealFIFO with AtomicEvents must not have KnownObjects")
		}
	} else {
		if opts.KnownObjects == nil {
			panic("deltafifo: RealFIFO without AtomicEvents needs KnownObjects")
		}
		if opts.UnlockWhileProcessing {
			panic("deltafifo: RealFIFO UnlockWhileProcessing requires AtomicEvents")
		}
		if opts.EmitDeltaTypeBookmark {
			panic("deltafifo: RealFIFO EmitDeltaTypeBookmark requires AtomicEvents")
		}
	}
	if opts.BatchSize < 0 {
		panic("deltafifo: RealFIFO BatchSize must not be negative")
	}
	if opts.BatchSize == 0 {
		opts.BatchSize = defaultRealFIFOBatchSize
	}
	f := &RealFIFO{
		items:                 make([]Delta, 0, 10),
		synced:                make(chan struct{}),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		transformer:           opts.Transformer,
		batchSize:             opts.BatchSize,
		emitAtomicEvents:      opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitDeltaTypeBookmark: opts.EmitDeltaTypeBookmark,
		batchKeys:             make(map[string]struct{}),
		logger:                opts.Logger,
	}
	f.cond.L = &f.lock
	return f
}

// NewRealFIFO mirrors cache.NewRealFIFO: a non-atomic RealFIFO, the v0.33–v0.35 informer queue.
//
// Deprecated: use NewRealFIFOWithOptions, as client-go does.
func NewRealFIFO(keyFunc store.KeyFunc, knownObjects KeyListerGetter, transformer store.TransformFunc) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{
		KeyFunction:  keyFunc,
		KnownObjects: knownObjects,
		Transformer:  transformer,
	})
}

// keyOf accepts a Deltas, a Delta or an object; a tombstone is keyed by its Key, never by
// the key function, because its Obj may be nil or stale.
func (f *RealFIFO) keyOf(obj any) (string, error) {
	switch d := obj.(type) {
	case Deltas:
		if len(d) == 0 {
			return "", store.KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	case Delta:
		obj = d.Object
	}
	if d, ok := obj.(store.DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Close mirrors RealFIFO.Close: Pop drains what is left, then reports ErrFIFOClosed (RF-12).
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed mirrors RealFIFO.IsClosed.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// HasSynced mirrors RealFIFO.HasSynced: true once the first Replace's deltas have all been
// processed, or immediately after an Add/Update/Delete came first (RF-8, RF-9).
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.syncedClosed
}

// Done mirrors RealFIFO.Done (HasSyncedChecker().Done()): closed when HasSynced turns true.
// Reading it never takes the lock, so it is safe inside a process function.
func (f *RealFIFO) Done() <-chan struct{} {
	return f.synced
}

// Transformer mirrors RealFIFO.Transformer: the informer needs it to transform objects it
// adds itself.
func (f *RealFIFO) Transformer() store.TransformFunc {
	return f.transformer
}

// checkSyncedLocked closes the latch once populated and nothing of the initial list is left.
func (f *RealFIFO) checkSyncedLocked() {
	if f.populated && f.initialPopulationCount == 0 && !f.syncedClosed {
		f.syncedClosed = true
		close(f.synced)
	}
}

// appendLocked queues one delta. The key is computed first so that an object the queue could
// never key (and so never tombstone) is refused. Tombstones and Sync objects already went
// through the transformer, so skipTransform avoids transforming them twice.
func (f *RealFIFO) appendLocked(t DeltaType, skipTransform bool, obj any) error {
	key, err := f.keyOf(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	if f.transformer != nil && !skipTransform {
		if _, tomb := obj.(store.DeletedFinalStateUnknown); !tomb {
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	f.pushLocked(key, Delta{Type: t, Object: obj})
	return nil
}

// pushLocked appends d, traces it and wakes the consumers.
func (f *RealFIFO) pushLocked(key string, d Delta) {
	f.items = append(f.items, d)
	if trace.Enabled(f.logger) {
		trace.Hop(f.logger, rfTraceComponent, "enqueue", key, rfDeltaRV(d), slog.String(trace.KeyType, string(d.Type)))
	}
	f.cond.Broadcast()
}

// markPopulatedLocked is what an Add/Update/Delete does before appending: with no relist
// first, the queue counts as synced at once.
func (f *RealFIFO) markPopulatedLocked() {
	f.populated = true
	f.checkSyncedLocked()
}

// Add mirrors RealFIFO.Add: append one Added delta (RF-2).
func (f *RealFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	return f.appendLocked(Added, false, obj)
}

// Update mirrors RealFIFO.Update: append one Updated delta (RF-2).
func (f *RealFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	return f.appendLocked(Updated, false, obj)
}

// Delete mirrors RealFIFO.Delete: append one Deleted delta. Unlike DeltaFIFO it does not ask
// KnownObjects whether the key was ever seen (RF-3, D-2).
func (f *RealFIFO) Delete(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.markPopulatedLocked()
	return f.appendLocked(Deleted, false, obj)
}

// Bookmark mirrors RealFIFO.Bookmark: with EmitDeltaTypeBookmark, append a Bookmark delta so
// the informer can record the resourceVersion in order with the other deltas (RF-7, D-8).
// It does not mark the queue populated.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	if !f.emitDeltaTypeBookmark {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.pushLocked("", Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	return nil
}

// Replace mirrors RealFIFO.Replace: atomic mode appends one ReplacedAll (RF-5); otherwise
// tombstones come first, then one Replaced per listed object (RF-4). The first Replace fixes
// the initial population (RF-8).
func (f *RealFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()

	var err error
	if f.emitAtomicEvents {
		err = f.replaceAtomicLocked(list, resourceVersion)
	} else {
		err = f.replaceLocked(list)
	}
	if err != nil {
		return err
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(f.items)
		f.checkSyncedLocked()
	}
	return nil
}

// replaceAtomicLocked transforms the list up front, because the informer applies the
// ReplacedAll payload to its indexer as is.
func (f *RealFIFO) replaceAtomicLocked(list []any, rv string) error {
	objs := list
	if f.transformer != nil {
		objs = make([]any, len(list))
		for i, obj := range list {
			t, err := f.transformer(obj)
			if err != nil {
				return err
			}
			objs[i] = t
		}
	}
	f.pushLocked("", Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: rv, Objects: objs}})
	return nil
}

// replaceLocked is the non-atomic relist. Tombstones are decided now, from the queue and the
// indexer (D-4), and go before the list so that handlers see deletions first (T23).
//
//lab:04.2
func (f *RealFIFO) replaceLocked(list []any) error {
	listed := make(map[string]struct{}, len(list))
	for _, obj := range list {
		key, err := f.keyOf(obj)
		if err != nil {
			return store.KeyError{Obj: obj, Err: err}
		}
		listed[key] = struct{}{}
	}

	// The last queued delta of each key is what the consumer will end up believing.
	var queuedOrder []string
	last := make(map[string]Delta)
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return store.KeyError{Obj: d.Object, Err: err}
		}
		if _, seen := last[key]; !seen {
			queuedOrder = append(queuedOrder, key)
		}
		last[key] = d
	}

	for _, key := range queuedOrder {
		if _, ok := listed[key]; ok {
			continue
		}
		d := last[key]
		if d.Type == Deleted {
			// The consumer will already see this key go away.
			continue
		}
		if err := f.appendLocked(Deleted, true, store.DeletedFinalStateUnknown{Key: key, Obj: d.Object}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	for _, key := range f.knownObjects.ListKeys() {
		if _, ok := listed[key]; ok {
			continue
		}
		if _, queued := last[key]; queued {
			continue
		}
		// A lookup failure still deserves a tombstone: the key is gone from the server.
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			obj = nil
		}
		if err := f.appendLocked(Deleted, true, store.DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	for _, obj := range list {
		if err := f.appendLocked(Replaced, false, obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// Resync mirrors RealFIFO.Resync (RF-6, D-3). Atomic mode appends one SyncAll and lets the
// informer replay its indexer at processing time. Otherwise every known key without a queued
// delta gets Sync(cached object); a key with a queued delta is skipped so that the resync
// cannot deliver an older state after a newer one.
//
//lab:04.2
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.emitAtomicEvents {
		f.pushLocked("", Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}

	queued := make(map[string]struct{}, len(f.items))
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return store.KeyError{Obj: d, Err: err}
		}
		queued[key] = struct{}{}
	}
	for _, key := range f.knownObjects.ListKeys() {
		if _, ok := queued[key]; ok {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			// Nothing to replay; the key vanished between ListKeys and GetByKey.
			continue
		}
		// Cached objects were transformed when they entered the queue the first time.
		if err := f.appendLocked(Sync, true, obj); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}
