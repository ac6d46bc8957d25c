package store

import (
	"errors"
	"fmt"
)

// Store mirrors cache.Store in client-go tools/cache/store.go: a keyed collection of objects.
// The informer's cache is a Store (an Indexer, in fact); so is a plain local map in tests.
type Store interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	List() []any
	ListKeys() []string
	// LastStoreSyncResourceVersion is the RV of the last write, bookmark or Replace (TS-14).
	LastStoreSyncResourceVersion() string
	Bookmark(rv string)
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)
	// Replace swaps the whole content for list; the store owns list afterwards.
	Replace(list []any, resourceVersion string) error
	// Resync means nothing to a Store; queues give it meaning.
	Resync() error
}

// TransformFunc mirrors cache.TransformFunc: it rewrites an object before it is stored, for
// instance to drop managedFields. It must be idempotent (K-6).
type TransformFunc func(any) (any, error)

// TransactionType mirrors cache.TransactionType.
type TransactionType string

// The transaction types, mirroring cache.TransactionTypeAdd and friends.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction mirrors cache.Transaction: one write of a batch.
type Transaction struct {
	Object any
	Type   TransactionType
}

// TransactionStore mirrors cache.TransactionStore.
type TransactionStore interface {
	Transaction(txns ...Transaction) *TransactionError
}

// TransactionError mirrors cache.TransactionError: which transactions of a batch were applied.
type TransactionError struct {
	SuccessfulIndices []int
	TotalTransactions int
	Errors            []error
}

// Error mirrors TransactionError.Error.
func (t *TransactionError) Error() string {
	return fmt.Sprintf("failed to execute (%d/%d) transactions failed due to: %v",
		t.TotalTransactions-len(t.SuccessfulIndices), t.TotalTransactions, t.Errors)
}

// StoreOption mirrors cache.StoreOption. WithTransformer is one; every ThreadSafeStoreOption
// (WithLogger, WithResourceVersionTracking) is one too and is handed to the inner map.
type StoreOption interface {
	applyToCache(*cache)
}

type cacheOption func(*cache)

func (o cacheOption) applyToCache(c *cache) { o(c) }

// WithTransformer mirrors cache.WithTransformer (ST-2).
func WithTransformer(transformer TransformFunc) StoreOption {
	return cacheOption(func(c *cache) { c.transformer = transformer })
}

// cache mirrors client-go's cache: a KeyFunc in front of a ThreadSafeStore.
type cache struct {
	storage        ThreadSafeStore
	keyFunc        KeyFunc
	transformer    TransformFunc
	threadSafeOpts []ThreadSafeStoreOption
}

var (
	_ Indexer          = (*cache)(nil)
	_ TransactionStore = (*cache)(nil)
)

// NewStore mirrors cache.NewStore.
func NewStore(keyFunc KeyFunc, opts ...StoreOption) Store {
	return newCache(keyFunc, Indexers{}, opts)
}

// NewIndexer mirrors cache.NewIndexer.
func NewIndexer(keyFunc KeyFunc, indexers Indexers, opts ...StoreOption) Indexer {
	return newCache(keyFunc, indexers, opts)
}

func newCache(keyFunc KeyFunc, indexers Indexers, opts []StoreOption) *cache {
	c := &cache{keyFunc: keyFunc}
	for _, o := range opts {
		o.applyToCache(c)
	}
	c.storage = NewThreadSafeStore(indexers, Indices{}, c.threadSafeOpts...)
	return c
}

// keyAndTransform computes the key first and transforms second, so a key error never runs
// the transformer (ST-1, ST-2).
func (c *cache) keyAndTransform(obj any) (string, any, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", nil, KeyError{Obj: obj, Err: err}
	}
	if c.transformer != nil {
		if obj, err = c.transformer(obj); err != nil {
			return "", nil, fmt.Errorf("transforming: %w", err)
		}
	}
	return key, obj, nil
}

// Add mirrors cache.Add.
func (c *cache) Add(obj any) error {
	key, obj, err := c.keyAndTransform(obj)
	if err != nil {
		return err
	}
	c.storage.Add(key, obj)
	return nil
}

// Update mirrors cache.Update.
func (c *cache) Update(obj any) error {
	key, obj, err := c.keyAndTransform(obj)
	if err != nil {
		return err
	}
	c.storage.Update(key, obj)
	return nil
}

// Delete mirrors cache.Delete: deleting an unknown object is not an error (ST-6).
func (c *cache) Delete(obj any) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	c.storage.DeleteWithObject(key, obj)
	return nil
}

// Transaction mirrors cache.Transaction: objects whose key fails are skipped and reported; the
// rest are applied under one lock. Like client-go, it does not run the transformer: the
// queue has already transformed these objects.
func (c *cache) Transaction(txns ...Transaction) *TransactionError {
	ts, ok := c.storage.(ThreadSafeStoreWithTransaction)
	if !ok {
		return &TransactionError{TotalTransactions: len(txns), Errors: []error{errors.New("transaction not supported")}}
	}
	keyed := make([]ThreadSafeStoreTransaction, 0, len(txns))
	applied := make([]int, 0, len(txns))
	var errs []error
	for i, t := range txns {
		key, err := c.keyFunc(t.Object)
		if err != nil {
			errs = append(errs, KeyError{Obj: t.Object, Err: err})
			continue
		}
		applied = append(applied, i)
		keyed = append(keyed, ThreadSafeStoreTransaction{Transaction: t, Key: key})
	}
	ts.Transaction(keyed...)
	if len(errs) > 0 {
		return &TransactionError{SuccessfulIndices: applied, TotalTransactions: len(txns), Errors: errs}
	}
	return nil
}

// List mirrors cache.List.
func (c *cache) List() []any { return c.storage.List() }

// ListKeys mirrors cache.ListKeys.
func (c *cache) ListKeys() []string { return c.storage.ListKeys() }

// LastStoreSyncResourceVersion mirrors cache.LastStoreSyncResourceVersion.
func (c *cache) LastStoreSyncResourceVersion() string {
	return c.storage.LastStoreSyncResourceVersion()
}

// Bookmark mirrors cache.Bookmark.
func (c *cache) Bookmark(rv string) { c.storage.Bookmark(rv) }

// GetIndexers mirrors cache.GetIndexers.
func (c *cache) GetIndexers() Indexers { return c.storage.GetIndexers() }

// Index mirrors cache.Index.
func (c *cache) Index(indexName string, obj any) ([]any, error) {
	return c.storage.Index(indexName, obj)
}

// IndexKeys mirrors cache.IndexKeys.
func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.storage.IndexKeys(indexName, indexedValue)
}

// ListIndexFuncValues mirrors cache.ListIndexFuncValues.
func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.storage.ListIndexFuncValues(indexName)
}

// ByIndex mirrors cache.ByIndex.
func (c *cache) ByIndex(indexName, indexedValue string) ([]any, error) {
	return c.storage.ByIndex(indexName, indexedValue)
}

// AddIndexers mirrors cache.AddIndexers.
func (c *cache) AddIndexers(newIndexers Indexers) error {
	return c.storage.AddIndexers(newIndexers)
}

// Get mirrors cache.Get (ST-3).
func (c *cache) Get(obj any) (any, bool, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{Obj: obj, Err: err}
	}
	return c.GetByKey(key)
}

// GetByKey mirrors cache.GetByKey; its error is always nil (ST-3).
func (c *cache) GetByKey(key string) (any, bool, error) {
	item, ok := c.storage.Get(key)
	return item, ok, nil
}

// Replace mirrors cache.Replace: one key error aborts it with the store untouched, and of two
// items with one key the later wins (ST-4).
func (c *cache) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, obj, err := c.keyAndTransform(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	c.storage.Replace(items, resourceVersion)
	return nil
}

// Resync mirrors cache.Resync, a no-op (ST-5).
func (c *cache) Resync() error { return nil }
