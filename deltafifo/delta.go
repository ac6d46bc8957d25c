package deltafifo

import (
	"errors"
)

// DeltaType mirrors cache.DeltaType in client-go tools/cache/delta_fifo.go: what happened to
// an object. The string values equal the identifiers.
type DeltaType string

// The delta types. Replaced, ReplacedAll, SyncAll and Bookmark arrived after the classic
// articles; see the chapter 04 README.
const (
	// Added mirrors cache.Added.
	Added DeltaType = "Added"
	// Updated mirrors cache.Updated.
	Updated DeltaType = "Updated"
	// Deleted mirrors cache.Deleted. Its Object may be a store.DeletedFinalStateUnknown.
	Deleted DeltaType = "Deleted"
	// Replaced mirrors cache.Replaced: the object came from a relist (Replace), v0.18+.
	Replaced DeltaType = "Replaced"
	// Sync mirrors cache.Sync: a resync replayed the cached object (or, in old DeltaFIFOs
	// without EmitDeltaTypeReplaced, a relist delivered it).
	Sync DeltaType = "Sync"
	// ReplacedAll mirrors cache.ReplacedAll: one delta for a whole relist, RealFIFO atomic
	// mode (v0.36+). Its Object is a ReplacedAllInfo.
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll mirrors cache.SyncAll: one delta for a whole resync, RealFIFO atomic mode. Its
	// Object is a SyncAllInfo.
	SyncAll DeltaType = "SyncAll"
	// Bookmark mirrors cache.Bookmark: a resourceVersion seen without an object change,
	// RealFIFO atomic mode. Its Object is a BookmarkInfo.
	Bookmark DeltaType = "Bookmark"
)

// Delta mirrors cache.Delta: one change to one object.
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas mirrors cache.Deltas: the pending changes of one key, oldest first.
type Deltas []Delta

// Oldest mirrors Deltas.Oldest: the first delta, or nil when empty (K-4).
func (d Deltas) Oldest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[0]
}

// Newest mirrors Deltas.Newest: the last delta, or nil when empty (K-4).
func (d Deltas) Newest() *Delta {
	if len(d) == 0 {
		return nil
	}
	return &d[len(d)-1]
}

// ReplacedAllInfo mirrors cache.ReplacedAllInfo: the payload of a ReplacedAll delta.
type ReplacedAllInfo struct {
	ResourceVersion string
	Objects         []any
}

// SyncAllInfo mirrors cache.SyncAllInfo: the (empty) payload of a SyncAll delta.
type SyncAllInfo struct{}

// BookmarkInfo mirrors cache.BookmarkInfo: the payload of a Bookmark delta.
type BookmarkInfo struct {
	ResourceVersion string
}

// PopProcessFunc mirrors cache.PopProcessFunc: it receives one popped item (a Deltas) and
// whether the item belongs to the initial list (v0.27+).
type PopProcessFunc func(obj any, isInInitialList bool) error

// ProcessBatchFunc mirrors cache.ProcessBatchFunc: RealFIFO.PopBatch hands it deltas of
// distinct keys.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// KeyListerGetter mirrors cache.KeyListerGetter: what a queue needs from the informer's
// indexer (its KnownObjects) to detect deletions and to resync.
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (value any, exists bool, err error)
}

// ReflectorStore mirrors cache.ReflectorStore: the write side of a queue, which is all the
// Reflector sees.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// Queue mirrors cache.Queue: a ReflectorStore that a consumer pops from.
type Queue interface {
	ReflectorStore
	Pop(process PopProcessFunc) (any, error)
	HasSynced() bool
	// Done is closed when HasSynced turns true (client-go v0.36 HasSyncedChecker().Done()).
	Done() <-chan struct{}
	Close()
	IsClosed() bool
}

var (
	// ErrFIFOClosed mirrors cache.ErrFIFOClosed: Pop on a closed, empty queue.
	ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")
	// ErrZeroLengthDeltasObject mirrors cache.ErrZeroLengthDeltasObject.
	ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")
)
