package store

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// ThreadSafeStore mirrors cache.ThreadSafeStore in client-go tools/cache/thread_safe_store.go:
// a map from key to object plus its indices, safe for concurrent use. It does not compute
// keys; the Store above it does.
//
// Objects returned by Get, List, Index and ByIndex are the stored pointers. Callers must not
// mutate them: a mutated object silently leaves its old index entries behind (TS-7).
type ThreadSafeStore interface {
	Add(key string, obj any)
	Update(key string, obj any)
	// Delete is DeleteWithObject(key, nil): it cannot advance the store's resourceVersion.
	Delete(key string)
	DeleteWithObject(key string, obj any)
	Get(key string) (item any, exists bool)
	List() []any
	ListKeys() []string
	Replace(items map[string]any, resourceVersion string)
	Index(indexName string, obj any) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ListIndexFuncValues(indexName string) []string
	ByIndex(indexName, indexedValue string) ([]any, error)
	GetIndexers() Indexers
	AddIndexers(newIndexers Indexers) error
	Bookmark(rv string)
	LastStoreSyncResourceVersion() string
	// Resync is a no-op, kept because Store has it.
	Resync() error
}

// ThreadSafeStoreWithTransaction mirrors cache.ThreadSafeStoreWithTransaction: several writes
// under one lock, used by the batch-processing informer (Current profile).
type ThreadSafeStoreWithTransaction interface {
	ThreadSafeStore
	Transaction(txns ...ThreadSafeStoreTransaction)
}

// ThreadSafeStoreTransaction mirrors cache.ThreadSafeStoreTransaction: a Transaction whose
// key has already been computed.
type ThreadSafeStoreTransaction struct {
	Transaction
	Key string
}

// ThreadSafeStoreOption mirrors cache.ThreadSafeStoreOption. It configures NewThreadSafeStore
// and is accepted by NewStore and NewIndexer too, which pass it down.
type ThreadSafeStoreOption func(*threadSafeMap)

func (o ThreadSafeStoreOption) applyToCache(c *cache) { c.threadSafeOpts = append(c.threadSafeOpts, o) }

// WithLogger traces every write at Debug level as component "indexer" (client-go has klog
// and metrics here instead). A nil logger is silent.
func WithLogger(l *slog.Logger) ThreadSafeStoreOption {
	return func(c *threadSafeMap) { c.logger = l }
}

// WithResourceVersionTracking chooses what LastStoreSyncResourceVersion reports. Enabled (the
// default, as in client-go v0.37 where the AtomicFIFO gate is on) it reports the RV of the
// last write; disabled (the Classic profile, client-go before v0.36) it always reports ""
// (TS-14).
func WithResourceVersionTracking(enabled bool) ThreadSafeStoreOption {
	return func(c *threadSafeMap) { c.trackRV = enabled }
}

// storeIndex mirrors client-go's storeIndex: the index functions and what they computed.
type storeIndex struct {
	indexers Indexers
	indices  Indices
}

func (i *storeIndex) reset() { i.indices = Indices{} }

func (i *storeIndex) indexFunc(name string) (IndexFunc, error) {
	f := i.indexers[name]
	if f == nil {
		return nil, fmt.Errorf("Index with name %s does not exist", name)
	}
	return f, nil
}

// keysForObject returns the keys sharing a value with obj. With one value it returns the live
// set, which callers read under the lock; with several it builds a deduplicated union (TS-8).
func (i *storeIndex) keysForObject(name string, obj any) (KeySet, error) {
	f, err := i.indexFunc(name)
	if err != nil {
		return nil, err
	}
	values, err := f(obj)
	if err != nil {
		return nil, err
	}
	idx := i.indices[name]
	if len(values) == 1 {
		return idx[values[0]], nil
	}
	union := KeySet{}
	for _, v := range values {
		for k := range idx[v] {
			union[k] = struct{}{}
		}
	}
	return union, nil
}

func (i *storeIndex) keysForValue(name, value string) (KeySet, error) {
	if _, err := i.indexFunc(name); err != nil {
		return nil, err
	}
	return i.indices[name][value], nil
}

func (i *storeIndex) addIndexers(newIndexers Indexers) error {
	var conflicts []string
	for name := range newIndexers {
		if _, ok := i.indexers[name]; ok {
			conflicts = append(conflicts, name)
		}
	}
	if len(conflicts) > 0 {
		slices.Sort(conflicts)
		return fmt.Errorf("indexer conflict: %v", conflicts)
	}
	maps.Copy(i.indexers, newIndexers)
	return nil
}

// updateIndices refiles key in every index: old is the object being replaced (nil on
// create), new the object being stored (nil on delete).
func (i *storeIndex) updateIndices(old, new any, key string) {
	for name, f := range i.indexers {
		i.updateSingleIndex(name, f, old, new, key)
	}
}

// updateSingleIndex is the heart of the indexer (TS-2, TS-3). The chapter 03 README walks
// through these steps in this order.
//
//lab:03.1
func (i *storeIndex) updateSingleIndex(name string, f IndexFunc, old, new any, key string) {
	// Compute the values under which the old and the new object are filed.
	oldValues := indexValues(f, name, key, old)
	newValues := indexValues(f, name, key, new)
	// Fast path: one value, unchanged (a pod updated without moving node).
	if len(oldValues) == 1 && len(newValues) == 1 && oldValues[0] == newValues[0] {
		return
	}
	// Create the index map if this index has never been written.
	idx := i.indices[name]
	if idx == nil {
		idx = Index{}
		i.indices[name] = idx
	}
	// Remove the key from every old value, dropping sets that become empty so that
	// ListIndexFuncValues never reports a value with no keys.
	for _, v := range oldValues {
		set := idx[v]
		delete(set, key)
		if len(set) == 0 {
			delete(idx, v)
		}
	}
	// Add the key under every new value, creating the set when it is the first.
	for _, v := range newValues {
		set := idx[v]
		if set == nil {
			set = KeySet{}
			idx[v] = set
		}
		set[key] = struct{}{}
	}
}

// indexValues runs an index function. An error is a programming error in the function, so it
// panics, as client-go does (TS-4).
func indexValues(f IndexFunc, name, key string, obj any) []string {
	if obj == nil {
		return nil
	}
	values, err := f(obj)
	if err != nil {
		panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %w", key, name, err))
	}
	return values
}

// threadSafeMap mirrors client-go's threadSafeMap: items and indices behind one RWMutex (TS-15).
type threadSafeMap struct {
	lock    sync.RWMutex
	items   map[string]any
	index   *storeIndex
	rv      string
	trackRV bool
	logger  *slog.Logger
}

var _ ThreadSafeStoreWithTransaction = (*threadSafeMap)(nil)

// NewThreadSafeStore mirrors cache.NewThreadSafeStore. Nil indexers or indices start empty.
func NewThreadSafeStore(indexers Indexers, indices Indices, opts ...ThreadSafeStoreOption) ThreadSafeStore {
	if indexers == nil {
		indexers = Indexers{}
	}
	if indices == nil {
		indices = Indices{}
	}
	c := &threadSafeMap{
		items:   map[string]any{},
		index:   &storeIndex{indexers: indexers, indices: indices},
		trackRV: true,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// rvOf returns the object's resourceVersion, or ok=false when it has no metadata.
func rvOf(obj any) (rv string, ok bool) {
	m, err := api.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetResourceVersion(), true
}

func (c *threadSafeMap) hop(op, key string, obj any) {
	if !trace.Enabled(c.logger) {
		return
	}
	rv, _ := rvOf(obj)
	trace.Hop(c.logger, "indexer", op, key, rv)
}

// Add mirrors threadSafeMap.Add; it is the same operation as Update (TS-1).
func (c *threadSafeMap) Add(key string, obj any) { c.write("add", key, obj) }

// Update mirrors threadSafeMap.Update.
func (c *threadSafeMap) Update(key string, obj any) { c.write("update", key, obj) }

func (c *threadSafeMap) write(op, key string, obj any) {
	rv, hasMeta := rvOf(obj)
	c.lock.Lock()
	c.updateLocked(key, obj)
	if hasMeta {
		c.rv = rv
	}
	c.lock.Unlock()
	c.hop(op, key, obj)
}

// updateLocked stores obj under key and refiles it: take the old object, store the new one,
// then update every index from old to new.
//
//lab:03.2
func (c *threadSafeMap) updateLocked(key string, obj any) {
	old := c.items[key]
	c.items[key] = obj
	c.index.updateIndices(old, obj, key)
}

// Delete mirrors threadSafeMap.Delete.
func (c *threadSafeMap) Delete(key string) { c.DeleteWithObject(key, nil) }

// DeleteWithObject mirrors threadSafeMap.DeleteWithObject: the key goes from every index,
// computed from the stored object rather than obj (TS-5); obj only supplies the store RV.
func (c *threadSafeMap) DeleteWithObject(key string, obj any) {
	rv, hasMeta := "", false
	if obj != nil {
		rv, hasMeta = rvOf(obj)
	}
	c.lock.Lock()
	c.deleteLocked(key)
	if hasMeta {
		c.rv = rv
	}
	c.lock.Unlock()
	c.hop("delete", key, obj)
}

//lab:03.2
func (c *threadSafeMap) deleteLocked(key string) {
	if old, ok := c.items[key]; ok {
		c.index.updateIndices(old, nil, key)
		delete(c.items, key)
	}
}

// Transaction mirrors threadSafeMap.Transaction: the writes are applied in order under one
// lock, and the store RV becomes that of the last transaction's object.
func (c *threadSafeMap) Transaction(txns ...ThreadSafeStoreTransaction) {
	if len(txns) == 0 {
		return
	}
	rv, hasMeta := rvOf(txns[len(txns)-1].Object)
	c.lock.Lock()
	for _, t := range txns {
		if t.Type == TransactionTypeDelete {
			c.deleteLocked(t.Key)
		} else {
			c.updateLocked(t.Key, t.Object)
		}
	}
	if hasMeta {
		c.rv = rv
	}
	c.lock.Unlock()
	if trace.Enabled(c.logger) {
		for _, t := range txns {
			c.hop("txn-"+string(t.Type), t.Key, t.Object)
		}
	}
}

// Get mirrors threadSafeMap.Get.
func (c *threadSafeMap) Get(key string) (any, bool) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	item, ok := c.items[key]
	return item, ok
}

// List mirrors threadSafeMap.List: a fresh slice in map order (TS-7).
func (c *threadSafeMap) List() []any {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]any, 0, len(c.items))
	for _, item := range c.items {
		list = append(list, item)
	}
	return list
}

// ListKeys mirrors threadSafeMap.ListKeys: a fresh slice in map order (TS-7).
func (c *threadSafeMap) ListKeys() []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys := make([]string, 0, len(c.items))
	for k := range c.items {
		keys = append(keys, k)
	}
	return keys
}

// Replace mirrors threadSafeMap.Replace: the store takes ownership of items, drops every index
// and rebuilds them from scratch, and adopts resourceVersion (TS-6).
//
//lab:03.2
func (c *threadSafeMap) Replace(items map[string]any, resourceVersion string) {
	if items == nil {
		items = map[string]any{}
	}
	c.lock.Lock()
	c.items = items
	c.rv = resourceVersion
	c.index.reset()
	for key, item := range c.items {
		c.index.updateIndices(nil, item, key)
	}
	n := len(c.items)
	c.lock.Unlock()
	if trace.Enabled(c.logger) {
		trace.Hop(c.logger, "indexer", "replace", "", resourceVersion, slog.Int("items", n))
	}
}

// Index mirrors threadSafeMap.Index (TS-8).
func (c *threadSafeMap) Index(indexName string, obj any) ([]any, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.keysForObject(indexName, obj)
	if err != nil {
		return nil, err
	}
	return c.itemsLocked(keys), nil
}

// ByIndex mirrors threadSafeMap.ByIndex: an unknown value gives an empty result (TS-9).
func (c *threadSafeMap) ByIndex(indexName, indexedValue string) ([]any, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.keysForValue(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return c.itemsLocked(keys), nil
}

func (c *threadSafeMap) itemsLocked(keys KeySet) []any {
	list := make([]any, 0, len(keys))
	for k := range keys {
		list = append(list, c.items[k])
	}
	return list
}

// IndexKeys mirrors threadSafeMap.IndexKeys: the keys come back sorted (TS-10).
func (c *threadSafeMap) IndexKeys(indexName, indexedValue string) ([]string, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.keysForValue(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(keys)), nil
}

// ListIndexFuncValues mirrors threadSafeMap.ListIndexFuncValues: an unknown index name gives an
// empty list, not an error (TS-11).
func (c *threadSafeMap) ListIndexFuncValues(indexName string) []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	idx := c.index.indices[indexName]
	values := make([]string, 0, len(idx))
	for v := range idx {
		values = append(values, v)
	}
	return values
}

// GetIndexers mirrors threadSafeMap.GetIndexers: the live map, not a copy (TS-13).
func (c *threadSafeMap) GetIndexers() Indexers { return c.index.indexers }

// AddIndexers mirrors threadSafeMap.AddIndexers: a name clash adds nothing; otherwise the new
// indices are built over the items already stored (TS-12, client-go v0.30+).
func (c *threadSafeMap) AddIndexers(newIndexers Indexers) error {
	c.lock.Lock()
	defer c.lock.Unlock()
	if err := c.index.addIndexers(newIndexers); err != nil {
		return err
	}
	for key, item := range c.items {
		for name, f := range newIndexers {
			c.index.updateSingleIndex(name, f, nil, item, key)
		}
	}
	return nil
}

// Bookmark mirrors threadSafeMap.Bookmark: it records an RV seen without an object change.
func (c *threadSafeMap) Bookmark(rv string) {
	c.lock.Lock()
	c.rv = rv
	c.lock.Unlock()
	trace.Hop(c.logger, "indexer", "bookmark", "", rv)
}

// LastStoreSyncResourceVersion mirrors threadSafeMap.LastStoreSyncResourceVersion (TS-14).
func (c *threadSafeMap) LastStoreSyncResourceVersion() string {
	if !c.trackRV {
		return ""
	}
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.rv
}

// Resync mirrors threadSafeMap.Resync, a no-op.
func (c *threadSafeMap) Resync() error { return nil }
