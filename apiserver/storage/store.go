package storage

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Hooks are the fault seam: the fault injector sees every event on its way to each watcher.
type Hooks interface {
	// DropEvent reports whether ev is dropped for the watcher of id. It is asked once with
	// id 0 (for every watcher) and then once per watcher.
	DropEvent(ev *Event, watcherID uint64) bool
}

// Config configures a Store.
type Config struct {
	HistorySize int // events retained for watches and snapshots (> 0)
	// HistoryBytes bounds the history in object bytes (ObjectSize) as well; 0: no bound.
	HistoryBytes int
	// QuotaBytes mirrors etcd's --quota-backend-bytes: a create or update that would bring
	// the stored objects' bytes (ObjectSize) above it fails with NewQuotaExceededError;
	// deletes and shrinking writes pass. 0: no quota.
	QuotaBytes      int
	WatchBufferSize int // events queued per watcher before it is stopped (> 0)
	MaxOpenWatches  int // 0: no limit
	// WatchStallBudget is how long a bulk writer waits for a watcher that takes no event
	// before it stops it (WaitForRoom); 0: DefaultWatchStallBudget.
	WatchStallBudget time.Duration
	// TooLargeResourceVersionWait is how long a read of a future revision waits before it
	// fails with 504 ResourceVersionTooLarge; 0 fails at once.
	TooLargeResourceVersionWait time.Duration
	Clock                       clock.Clock
	Logger                      *slog.Logger
	Codec                       Codec
	Hooks                       Hooks
}

// Store is the one storage of the simulated apiserver: every collection, one revision, one
// history and every watcher, under one lock, as one etcd and its watch cache would be.
type Store struct {
	cfg   Config
	clock clock.Clock
	log   *slog.Logger

	// mu guards everything below. Writes and watch registration hold it exclusively;
	// reads share it.
	mu          sync.RWMutex
	rev         uint64
	hist        history
	revCh       chan struct{} // closed and replaced by every write; waitForRV selects on it
	watchers    map[*Watcher]struct{}
	nextWID     uint64
	openWatches int // watches whose consumer still runs, registered or not
	liveBytes   int // the sizes of the stored records
	closed      bool
}

// New returns an empty store.
func New(cfg Config) *Store {
	if cfg.HistorySize <= 0 {
		cfg.HistorySize = 1
	}
	if cfg.WatchBufferSize <= 0 {
		cfg.WatchBufferSize = 1
	}
	s := &Store{
		cfg: cfg, clock: clock.Or(cfg.Clock), log: cfg.Logger,
		revCh:    make(chan struct{}),
		watchers: map[*Watcher]struct{}{},
	}
	s.hist.init(cfg.HistorySize, cfg.HistoryBytes)
	return s
}

// NewCollection returns an empty collection of the store (it takes no lock, so a
// transaction may make one): name identifies it in Watchers, traceKey in traces.
func (s *Store) NewCollection(name, traceKey string) *Collection {
	return &Collection{name: name, traceKey: traceKey, objects: map[string]*Record{}, perNS: map[string]int{}}
}

// Versioner returns the store's versioner.
func (s *Store) Versioner() Versioner { return Versioner{} }

// Tx is the store under its write lock (Update) or read lock (View). Its methods must be
// called only inside the function given to Update or View; writes only inside Update.
type Tx struct {
	s     *Store
	write bool
	// released records that Outside let go of a write lock: what tx read may be stale.
	released bool
}

// Update runs fn with the store locked for writing: every read and write in fn is one
// atomic step.
func (s *Store) Update(fn func(tx *Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(&Tx{s: s, write: true})
}

// View runs fn with the store locked for reading.
func (s *Store) View(fn func(tx *Tx) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fn(&Tx{s: s})
}

// Outside runs fn with the transaction's lock released, for work that waits on the network
// (an admission webhook, which may itself call the server); fn must not use tx, and what tx
// reads afterwards may be newer. GuaranteedUpdate then tries again if the object changed
// meanwhile, as etcd3's GuaranteedUpdate retries a conflicting optimistic write.
func (tx *Tx) Outside(fn func()) {
	if tx.write {
		tx.released = true
		tx.s.mu.Unlock()
		defer tx.s.mu.Lock()
		fn()
		return
	}
	tx.s.mu.RUnlock()
	defer tx.s.mu.RLock()
	fn()
}

// CheckQuota refuses, as etcd's quota does, a write of obj in place of old (nil for a
// create) that would bring the stored bytes above Config.QuotaBytes.
func (tx *Tx) CheckQuota(old *Record, obj *api.Unstructured) error {
	_, err := tx.checkQuota(old, obj)
	return err
}

// checkQuota is CheckQuota that also returns the ObjectSize it measured, for the commit
// that follows at once (-1 when the quota is off and nothing was measured).
func (tx *Tx) checkQuota(old *Record, obj *api.Unstructured) (int, error) {
	q := tx.s.cfg.QuotaBytes
	if q <= 0 {
		return -1, nil
	}
	size := ObjectSize(obj)
	n := size
	if old != nil {
		n -= old.size
	}
	if n > 0 && tx.s.liveBytes+n > q {
		return size, NewQuotaExceededError()
	}
	return size, nil
}

// Get returns the stored record at key, or nil.
func (tx *Tx) Get(c *Collection, key string) *Record { return c.objects[key] }

// Revision returns the current revision.
func (tx *Tx) Revision() uint64 { return tx.s.rev }

// CountIn returns how many objects of c are in namespace ns.
func (tx *Tx) CountIn(c *Collection, ns string) int { return c.perNS[ns] }

// Count returns how many objects c holds.
func (tx *Tx) Count(c *Collection) int { return len(c.objects) }

// KeysIn returns the keys of c in namespace ns, in order, as a private slice.
func (tx *Tx) KeysIn(c *Collection, ns string) []string { return c.keysIn(ns) }

// Keys returns every key of c in order; the slice is shared and must not be changed.
func (tx *Tx) Keys(c *Collection) []string { return c.sortedKeys() }

// LastDeleted returns the record of the newest retained delete of key, or nil.
func (tx *Tx) LastDeleted(c *Collection, key string) *Record {
	s := tx.s
	for rv := s.rev; rv > s.hist.start; rv-- {
		if ev := s.hist.at(rv); ev.Coll == c && ev.Obj.Key == key && ev.Type == watch.Deleted {
			return ev.Obj
		}
	}
	return nil
}

// Create stores obj (private to the store from now on) at key: ADDED.
func (tx *Tx) Create(c *Collection, key string, obj *api.Unstructured) *Record {
	return tx.commit(c, watch.Added, key, obj, nil, -1)
}

// Put replaces the record old with obj: MODIFIED.
func (tx *Tx) Put(c *Collection, old *Record, obj *api.Unstructured) *Record {
	return tx.commit(c, watch.Modified, old.Key, obj, old, -1)
}

// Remove deletes old, obj being its last state: DELETED.
func (tx *Tx) Remove(c *Collection, old *Record, obj *api.Unstructured) *Record {
	return tx.commit(c, watch.Deleted, old.Key, obj, old, -1)
}

// StopWatches ends every watch of c once its queue is delivered (its resource is no longer
// served), without an error.
func (tx *Tx) StopWatches(c *Collection) {
	for w := range tx.s.watchers {
		if w.coll == c {
			w.stop(StopGone)
			delete(tx.s.watchers, w)
		}
	}
}

// commit performs one write: it bumps the revision, stamps obj with it, stores (or, for
// Deleted, removes) the record, appends the event and hands it to the watchers. size is
// ObjectSize(obj) before the stamp when the quota check just measured it, else -1.
func (tx *Tx) commit(c *Collection, typ watch.EventType, key string, obj *api.Unstructured, old *Record, size int) *Record {
	if !tx.write {
		panic("storage: a write inside View")
	}
	s := tx.s
	s.rev++
	rv := strconv.FormatUint(s.rev, 10)
	size = sizeWithRV(obj, size, rv)
	obj.SetResourceVersion(rv) // Versioner.UpdateObject
	if size < 0 {
		size = ObjectSize(obj)
	}
	rec := &Record{Obj: obj, RV: s.rev, Key: key, codec: s.cfg.Codec, size: size, ns: obj.GetNamespace()}
	if old != nil {
		s.liveBytes -= old.size
	}
	if typ != watch.Deleted {
		s.liveBytes += rec.size
	}
	switch typ {
	case watch.Deleted:
		delete(c.objects, key)
		c.deleted(rec)
	case watch.Added:
		c.objects[key] = rec
		c.add(rec)
	default:
		c.objects[key] = rec
	}
	ev := &Event{RV: s.rev, Type: typ, Coll: c, Obj: rec, Old: old, size: rec.size}
	s.hist.add(ev)
	close(s.revCh)
	s.revCh = make(chan struct{})
	if trace.Enabled(s.log) {
		trace.Hop(s.log, "apiserver", opForEvent(typ), key, strconv.FormatUint(s.rev, 10))
	}
	s.dispatch(ev)
	return rec
}

func opForEvent(t watch.EventType) string {
	switch t {
	case watch.Added:
		return "create"
	case watch.Deleted:
		return "delete"
	}
	return "update"
}

// Compact drops the history up to and including rv, as an etcd compaction does: watches and
// Exact lists from an older revision, and continue tokens made before it, then get 410.
// rv beyond the current revision compacts everything.
func (s *Store) Compact(rv uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rv > s.rev {
		rv = s.rev
	}
	s.hist.compact(rv)
	trace.Hop(s.log, "apiserver", "fault", "", strconv.FormatUint(rv, 10), slog.String("fault", "compact"))
}

// ResourceVersion returns the current revision.
func (s *Store) ResourceVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rev
}

// OldestResourceVersion returns the oldest revision a watch may start from without 410:
// every event after it is retained.
func (s *Store) OldestResourceVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hist.start
}

// WaitForResourceVersion waits until the revision reaches rv, for at most
// TooLargeResourceVersionWait; then it fails with 504 ResourceVersionTooLarge.
func (s *Store) WaitForResourceVersion(ctx context.Context, rv uint64) error {
	var deadline <-chan time.Time
	if s.cfg.TooLargeResourceVersionWait > 0 {
		t := s.clock.NewTimer(s.cfg.TooLargeResourceVersionWait)
		defer t.Stop()
		deadline = t.C()
	}
	for {
		s.mu.RLock()
		cur, ch := s.rev, s.revCh
		s.mu.RUnlock()
		if cur >= rv {
			return nil
		}
		if deadline == nil {
			return api.NewTooLargeResourceVersionError(rv, cur, 1)
		}
		select {
		case <-ch:
		case <-deadline:
			return api.NewTooLargeResourceVersionError(rv, cur, 1)
		case <-ctx.Done():
			return api.NewTimeoutError(ctx.Err().Error(), 1)
		}
	}
}
