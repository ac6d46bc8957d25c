package deltafifo

import (
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// traceComponent is the component name every queue hop is logged under.
const traceComponent = "fifo"

// DeltaFIFOOptions mirrors cache.DeltaFIFOOptions in client-go tools/cache/delta_fifo.go.
// Name is left out: it only labels client-go's log lines and metrics.
type DeltaFIFOOptions struct {
	// KeyFunction computes the key of an object; nil means store.MetaNamespaceKeyFunc.
	KeyFunction store.KeyFunc
	// KnownObjects is the consumer's view of the world (the informer's indexer). It lets
	// Delete and Replace find objects the queue no longer holds, and it feeds Resync.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace append Replaced deltas instead of Sync. Informers
	// always set it (client-go v0.18+); false keeps the behaviour the early articles show.
	EmitDeltaTypeReplaced bool
	// Transformer is applied to every incoming object except tombstones and resync objects.
	Transformer store.TransformFunc
	// Logger receives one Debug hop per enqueue, pop and tombstone; nil means silent.
	Logger *slog.Logger
}

// DeltaFIFO mirrors cache.DeltaFIFO in client-go tools/cache/delta_fifo.go: a queue of keys,
// each holding every change (Deltas) that happened to that key since it was last popped.
// A key keeps its position while it has pending deltas, so a busy key cannot starve others.
type DeltaFIFO struct {
	// lock guards everything below; cond wakes Pop when an item arrives or on Close.
	lock sync.Mutex
	cond sync.Cond

	// items and queue always hold the same key set (INV-20); queue gives the order.
	items map[string]Deltas
	queue []string

	// populated is set by the first Add/Update/Delete/Replace. initialPopulationCount counts
	// the items of the first Replace that still wait to be popped.
	populated              bool
	initialPopulationCount int

	// syncedLatch is closed, and isSynced set, the first time populated &&
	// initialPopulationCount == 0 holds (DF-11). Neither is ever undone.
	syncedLatch chan struct{}
	isSynced    bool

	keyFunc               store.KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool
	transformer           store.TransformFunc
	logger                *slog.Logger

	closed bool

	// lastSyncResourceVersion is only recorded for the articles' examples.
	lastSyncResourceVersion string
}

var _ Queue = (*DeltaFIFO)(nil)

// NewDeltaFIFO mirrors cache.NewDeltaFIFO: a DeltaFIFO that emits Sync (not Replaced) deltas
// from Replace.
//
// Deprecated: use NewDeltaFIFOWithOptions, as client-go does; informers need
// EmitDeltaTypeReplaced.
func NewDeltaFIFO(keyFunc store.KeyFunc, knownObjects KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
}

// NewDeltaFIFOWithOptions mirrors cache.NewDeltaFIFOWithOptions.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = store.MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		syncedLatch:           make(chan struct{}),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
		logger:                opts.Logger,
	}
	f.cond.L = &f.lock
	return f
}

// KeyOf mirrors DeltaFIFO.KeyOf (DF-13): a Deltas is keyed by its newest object, a tombstone
// by its Key, anything else by the key function.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", store.KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(store.DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Transformer mirrors DeltaFIFO.Transformer: the transform function given in the options.
func (f *DeltaFIFO) Transformer() store.TransformFunc {
	return f.transformer
}

// HasSynced mirrors DeltaFIFO.HasSynced (DF-11): true once the items of the first Replace
// have all been popped, or once anything was added before a first Replace. It never turns
// false again.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.isSynced
}

// Done mirrors DeltaFIFO.HasSyncedChecker().Done() (client-go v0.36+): the channel is closed
// when HasSynced turns true, i.e. when the last initial item is popped, before its process
// function runs.
func (f *DeltaFIFO) Done() <-chan struct{} {
	return f.syncedLatch
}

// checkSyncedLocked closes the latch the first time the sync condition holds.
func (f *DeltaFIFO) checkSyncedLocked() {
	if !f.isSynced && f.populated && f.initialPopulationCount == 0 {
		f.isSynced = true
		close(f.syncedLatch)
	}
}

// Add mirrors DeltaFIFO.Add (DF-2): append an Added delta.
func (f *DeltaFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	return f.queueActionLocked(Added, obj, true, "enqueue")
}

// Update mirrors DeltaFIFO.Update (DF-2): append an Updated delta, even for a key the
// consumer has never seen; the informer turns that into OnAdd.
func (f *DeltaFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	return f.queueActionLocked(Updated, obj, true, "enqueue")
}

// Delete mirrors DeltaFIFO.Delete (DF-4): append a Deleted delta unless nobody could care,
// that is, the key has no pending deltas and KnownObjects (if any) does not hold it either.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	_, pending := f.items[key]
	if f.knownObjects == nil {
		if !pending {
			return nil
		}
	} else {
		// A lookup error counts as "maybe known": a spurious delete is safer than a lost one.
		_, known, err := f.knownObjects.GetByKey(key)
		if err == nil && !known && !pending {
			return nil
		}
	}
	return f.queueActionLocked(Deleted, obj, true, "enqueue")
}

// queueActionLocked appends one delta for obj, keeping the key's queue position (DF-3) and
// merging a trailing pair of deletions (DF-5). transform is false for resync objects, which
// came from the consumer's cache and were transformed on the way in. op names the trace hop.
func (f *DeltaFIFO) queueActionLocked(t DeltaType, obj any, transform bool, op string) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	if err := f.queueKeyedLocked(key, t, obj, transform, op); err != nil {
		return err
	}
	f.cond.Broadcast()
	return nil
}

// queueKeyedLocked is queueActionLocked for a caller that already has obj's key. It does not
// wake Pop: Replace and Resync queue many objects and broadcast once.
//
//lab:04.1
func (f *DeltaFIFO) queueKeyedLocked(key string, t DeltaType, obj any, transform bool, op string) error {
	if transform && f.transformer != nil {
		if _, tombstone := obj.(store.DeletedFinalStateUnknown); !tombstone {
			var err error
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	old, exists := f.items[key]
	if !exists {
		f.queue = append(f.queue, key)
	}
	f.items[key] = dfDedupDeltas(append(old, Delta{Type: t, Object: obj}))
	if trace.Enabled(f.logger) {
		trace.Hop(f.logger, traceComponent, op, key, dfObjectRV(obj), slog.String(trace.KeyType, string(t)))
	}
	return nil
}

// dfDedupDeltas merges the last two deltas when both are deletions (DF-5). Only deletions
// merge: Added,Added or Updated,Updated are distinct events the consumer must see.
//
//lab:04.1
func dfDedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	// Keep the older deletion, which carries the real final state, unless it is only a
	// tombstone: then the newer one knows at least as much.
	if _, tombstone := d[n-2].Object.(store.DeletedFinalStateUnknown); tombstone {
		d[n-2] = d[n-1]
	}
	d[n-1] = Delta{} // drop the reference so the object can be collected
	return d[:n-1]
}

// dfObjectRV returns the resourceVersion to trace for obj: a tombstone's inner object's, or
// "" when there is no metadata.
func dfObjectRV(obj any) string {
	if d, ok := obj.(store.DeletedFinalStateUnknown); ok {
		obj = d.Obj
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

// Replace mirrors DeltaFIFO.Replace (DF-7): append Replaced (or Sync) for every listed object,
// then a tombstone for every pending or known key the list no longer has. The first Replace
// sets the size of the initial population that HasSynced waits for. The resource version is
// only remembered for LastSyncResourceVersion.
//
//lab:04.1
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	defer f.cond.Broadcast() // once for the whole list, before the unlock

	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	if len(f.items) == 0 {
		// The usual first Replace fills an empty queue: size it once instead of growing it.
		f.items = make(map[string]Deltas, len(list))
		f.queue = slices.Grow(f.queue, len(list))
	}
	listed := make(map[string]struct{}, len(list))
	for _, item := range list {
		key, err := f.KeyOf(item)
		if err != nil {
			return store.KeyError{Obj: item, Err: err}
		}
		listed[key] = struct{}{}
		if err := f.queueKeyedLocked(key, action, item, true, "enqueue"); err != nil {
			return err
		}
	}

	queuedDeletions := 0
	// Pending keys missing from the list: the newest pending state is the best final state
	// we have. Unwrapping avoids a tombstone inside a tombstone.
	for key, deltas := range f.items {
		if _, ok := listed[key]; ok {
			continue
		}
		last := deltas.Newest().Object
		if d, ok := last.(store.DeletedFinalStateUnknown); ok {
			last = d.Obj
		}
		queuedDeletions++
		if err := f.queueKeyedLocked(key, Deleted, store.DeletedFinalStateUnknown{Key: key, Obj: last}, false, "tombstone"); err != nil {
			return err
		}
	}

	// Keys the consumer knows but neither the list nor the queue has: their delete events
	// were missed, so the consumer's cached copy becomes the tombstone's object.
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, ok := listed[key]; ok {
				continue
			}
			if _, pending := f.items[key]; pending {
				continue
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				obj = nil
			}
			queuedDeletions++
			if err := f.queueKeyedLocked(key, Deleted, store.DeletedFinalStateUnknown{Key: key, Obj: obj}, false, "tombstone"); err != nil {
				return err
			}
		}
	}

	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + queuedDeletions
		f.checkSyncedLocked()
	}
	f.lastSyncResourceVersion = resourceVersion
	return nil
}

// Resync mirrors DeltaFIFO.Resync (DF-8): replay every known object as a Sync delta, except
// keys with pending deltas, whose cached copy is already stale. Without KnownObjects it does
// nothing. Resync never contacts the server.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	defer f.cond.Broadcast()
	for _, k := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(k)
		if err != nil || !exists {
			continue
		}
		key, err := f.KeyOf(obj)
		if err != nil {
			return store.KeyError{Obj: obj, Err: err}
		}
		if _, pending := f.items[key]; pending {
			continue
		}
		if err := f.queueKeyedLocked(key, Sync, obj, false, "enqueue"); err != nil {
			return err
		}
	}
	return nil
}

// Pop mirrors DeltaFIFO.Pop (DF-9, DF-10): wait for the head key, remove it with all its
// Deltas and hand them to process while the lock is still held, so producers wait until
// process returns. isInInitialList tells process whether the item belongs to the first
// Replace. Pop returns (nil, ErrFIFOClosed) once the queue is closed and empty.
//
// An error from process is returned together with the Deltas and the item is NOT requeued:
// client-go v0.33 removed ErrRequeue, and this package has no equivalent.
//
//lab:04.1
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		// Evaluated before the decrement, so the last initial item still counts as initial.
		isInInitialList := !f.isSynced
		key := f.queue[0]
		f.queue[0] = ""
		f.queue = f.queue[1:]
		if f.initialPopulationCount > 0 {
			f.initialPopulationCount--
			f.checkSyncedLocked()
		}
		deltas, ok := f.items[key]
		if !ok {
			continue // cannot happen while INV-20 holds; skip rather than hand out nothing
		}
		delete(f.items, key)
		if trace.Enabled(f.logger) {
			types := make([]string, len(deltas))
			for i, d := range deltas {
				types[i] = string(d.Type)
			}
			trace.Hop(f.logger, traceComponent, "pop", key, dfObjectRV(deltas.Newest().Object),
				slog.String(trace.KeyType, strings.Join(types, ",")))
		}
		err := process(deltas, isInInitialList)
		return deltas, err
	}
}

// Close mirrors DeltaFIFO.Close (DF-12): Pop drains what is left, then returns ErrFIFOClosed.
// Writes after Close are still accepted.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed mirrors DeltaFIFO.IsClosed.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// ListKeys mirrors the DeltaFIFO.ListKeys of client-go before v0.33, which removed it; it is
// kept because the articles' example prints it. Keys come in queue order.
func (f *DeltaFIFO) ListKeys() []string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return append([]string(nil), f.queue...)
}

// LastSyncResourceVersion mirrors the DeltaFIFO.LastSyncResourceVersion of older client-go;
// v0.37's DeltaFIFO has none (the Reflector tracks its own). It returns the resource version
// given to the last Replace and is kept for the articles.
func (f *DeltaFIFO) LastSyncResourceVersion() string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.lastSyncResourceVersion
}
