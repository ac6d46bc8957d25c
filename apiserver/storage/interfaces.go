package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// Interface mirrors storage.Interface of k8s.io/apiserver pkg/storage/interfaces.go: the
// operations the generic registry runs against storage. *Store implements it.
type Interface interface {
	// Versioner returns the object versioner of the store.
	Versioner() Versioner
	// Create stores a new object at key; ErrKeyExists when one is there.
	Create(ctx context.Context, c *Collection, key string, obj *api.Unstructured, opts CreateOptions) (*Record, error)
	// Get reads one object, waiting for a resourceVersion not yet reached.
	Get(ctx context.Context, c *Collection, key string, opts GetOptions) (*Record, error)
	// GuaranteedUpdate reads the current object, asks tryUpdate for the next one and
	// writes it, all atomically.
	GuaranteedUpdate(ctx context.Context, c *Collection, key string, precond *Preconditions, tryUpdate UpdateFunc, opts UpdateOptions) (*Record, watch.EventType, error)
	// Delete removes the object at key once precond and validateDeletion pass.
	Delete(ctx context.Context, c *Collection, key string, precond *Preconditions, opts DeleteOptions) (*Record, error)
	// GetList reads a page of a collection.
	GetList(ctx context.Context, c *Collection, opts ListOptions) (ListResult, error)
	// Watch opens a watch on a collection.
	Watch(ctx context.Context, c *Collection, opts WatchOptions) (*Watcher, error)
}

var _ Interface = (*Store)(nil)

// Versioner mirrors storage.Versioner (APIObjectVersioner in pkg/storage/api_object_versioner.go):
// how revisions are written into and read out of objects.
type Versioner struct{}

// UpdateObject mirrors APIObjectVersioner.UpdateObject: it stamps obj with rv.
func (Versioner) UpdateObject(obj *api.Unstructured, rv uint64) {
	obj.SetResourceVersion(strconv.FormatUint(rv, 10))
}

// ObjectResourceVersion mirrors APIObjectVersioner.ObjectResourceVersion: "" (and "0") is
// none; anything not a uint64 is the parser's error, which the real server answers as a 500
// without a reason.
func (Versioner) ObjectResourceVersion(obj *api.Unstructured) (uint64, error) {
	v := obj.GetResourceVersion()
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, api.ErrorToAPIStatus(err)
	}
	return n, nil
}

// Preconditions mirrors storage.Preconditions: a write or delete happens only while the
// stored object has this UID and resourceVersion.
type Preconditions struct {
	UID             *string
	ResourceVersion *string
}

// Check mirrors Preconditions.Check: nil when rec satisfies p, else an *InvalidObjError.
func (p *Preconditions) Check(rec *Record) error {
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != rec.Obj.GetUID() {
		return &InvalidObjError{Field: "UID", Want: *p.UID, Got: rec.Obj.GetUID()}
	}
	if rv := strconv.FormatUint(rec.RV, 10); p.ResourceVersion != nil && *p.ResourceVersion != rv {
		return &InvalidObjError{Field: "ResourceVersion", Want: *p.ResourceVersion, Got: rv}
	}
	return nil
}

// ErrKeyExists mirrors storage.ErrCodeKeyExists: a create found an object at its key.
var ErrKeyExists = errors.New("storage: key exists")

// ErrKeyNotFound mirrors storage.ErrCodeKeyNotFound.
var ErrKeyNotFound = errors.New("storage: key not found")

// InvalidObjError mirrors storage.NewInvalidObjError for a failed precondition; its text is
// the one the real server capitalises in its 409.
type InvalidObjError struct{ Field, Want, Got string }

func (e *InvalidObjError) Error() string {
	return fmt.Sprintf("Precondition failed: %s in precondition: %s, %s in object meta: %s", e.Field, e.Want, e.Field, e.Got)
}

// CreateOptions say how Create writes.
type CreateOptions struct {
	// DryRun answers with what would be stored, without a revision, and stores nothing.
	DryRun bool
	// Admit runs under the write lock before the key is checked: the checks that must see
	// the same state the write does (NamespaceLifecycle). An error stops the create.
	Admit func(tx *Tx) error
	// BeforeWrite runs under the write lock once the key is known to be free.
	BeforeWrite func(tx *Tx) error
	// After runs under the write lock after a real write.
	After func(tx *Tx, rec *Record)
}

// GetOptions say which revision a Get may answer at.
type GetOptions struct {
	// ResourceVersion, when non-zero, is waited for (up to TooLargeResourceVersionWait).
	ResourceVersion uint64
}

// UpdateFunc computes the next state from the current one, under the write lock. It returns
// a private object (nobody else may hold it).
type UpdateFunc func(tx *Tx, cur *Record) (*api.Unstructured, error)

// UpdateOptions say how GuaranteedUpdate writes.
type UpdateOptions struct {
	DryRun bool
	// DeleteIf, when it holds for the next state, makes the write a delete: the registry's
	// ShouldDeleteDuringUpdate (the last finalizer of a deleted object is gone).
	DeleteIf func(next *api.Unstructured) bool
	// After runs under the write lock after a real write, with what was written; a non-nil
	// result replaces the answer (a write that finished a namespace answers its deletion).
	After func(tx *Tx, rec *Record, typ watch.EventType) *Record
}

// DeleteOptions say how Delete removes.
type DeleteOptions struct {
	DryRun bool
	// ValidateDeletion runs under the write lock on the current object.
	ValidateDeletion func(cur *Record) error
	// After runs under the write lock after a real delete.
	After func(tx *Tx, rec *Record)
}

// ListOptions say which page of a collection GetList reads.
type ListOptions struct {
	Namespace string // "" for every namespace
	// ResourceVersion is the parsed resourceVersion (0: none or "0").
	ResourceVersion uint64
	// Exact reads at exactly ResourceVersion (resourceVersionMatch=Exact, or a paged list
	// from a given revision); otherwise at the newest revision, after waiting for
	// ResourceVersion.
	Exact    bool
	Continue string
	Limit    int // 0: all
	// Predicate selects the items; nil keeps all (and only then is the remaining count set).
	Predicate func(*Record) bool
}

// ListResult is one page of a collection.
type ListResult struct {
	Items     []*Record
	RV        uint64
	Continue  string
	Remaining *int64
}

// WatchOptions say what a watch sees.
type WatchOptions struct {
	Namespace string
	// ResourceVersion is the parsed resourceVersion to watch from.
	ResourceVersion uint64
	// SendInitialEvents: start with the current objects as ADDED; EndBookmark: then the
	// initial-events-end bookmark (the consumer sends it).
	SendInitialEvents, EndBookmark bool
	// Predicate selects the initial objects; live events are filtered by the consumer.
	Predicate func(*Record) bool
	// Label and Field are the selectors' text, for Watchers.
	Label, Field string
}
