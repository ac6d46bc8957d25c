package storage

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
)

// Format names one encoding of a stored object; the Codec defines what each means.
type Format uint8

// MaxFormats is how many encodings a record caches.
const MaxFormats = 4

// Codec encodes stored objects; the store caches each encoding on its record, so every list
// and watcher shares one. It mirrors the role of runtime.Codec for the etcd3 store and of
// the watch cache's cachingObject.
type Codec interface {
	Encode(obj *api.Unstructured, f Format) ([]byte, error)
}

// Record is one stored version of an object. It is immutable once created: lists, events
// and watchers share it without copying. Callers that hand an object out deep-copy it.
type Record struct {
	Obj  *api.Unstructured // the whole object
	RV   uint64            // the revision of its last write (0 for a dry run's create)
	Key  string            // "namespace/name", or "name" when cluster-scoped
	size int               // ObjectSize(Obj), for the store's byte bounds
	// ns is Obj's namespace, read once: dispatch matches it against every watcher.
	ns string

	codec Codec
	// encMu serialises the making of encodings, so each is made at most once however many
	// readers ask for it at the same moment; reads of a made one take no lock.
	encMu    sync.Mutex
	enc      [MaxFormats]atomic.Pointer[[]byte]
	decoded  atomic.Pointer[any]
	views    [maxViews]atomic.Pointer[view]
	released atomic.Bool // the version left the history: nothing more is cached on it
}

// maxViews is how many other forms of itself a record caches (View).
const maxViews = 2

// view is one cached form of a record.
type view struct {
	key any
	rec *Record
}

// NewRecord returns a record not in any store, for the answer of a dry run.
func (s *Store) NewRecord(obj *api.Unstructured, key string, rv uint64) *Record {
	return &Record{Obj: obj, RV: rv, Key: key, codec: s.cfg.Codec, ns: obj.GetNamespace()}
}

// Namespace returns the record's namespace.
func (r *Record) Namespace() string { return r.ns }

// Encoded returns the object in format f through the store's codec, cached on the record so
// that every list and watcher shares one: it is made at most once, readers that ask while it
// is being made wait for it. A failure is returned, not cached. A record whose version has
// left the history (release) still answers, encoding afresh each time.
func (r *Record) Encoded(f Format) ([]byte, error) {
	p := &r.enc[f]
	if b := p.Load(); b != nil {
		return *b, nil
	}
	if r.codec == nil {
		return nil, errNoCodec
	}
	r.encMu.Lock()
	defer r.encMu.Unlock()
	if b := p.Load(); b != nil {
		return *b, nil // made while this reader waited
	}
	b, err := r.codec.Encode(r.Obj, f)
	if err != nil {
		return nil, err
	}
	if !r.released.Load() {
		p.Store(&b)
	}
	return b, nil
}

// release drops what is cached on a superseded version once no retained event holds it:
// its encodings, typed view and other forms. Readers still holding the record (a list or a
// watcher's queue) keep working; they encode it again. It mirrors the watch cache letting
// go of a cachingObject when its event leaves the cache's window.
func (r *Record) release() {
	r.encMu.Lock()
	r.released.Store(true)
	for i := range r.enc {
		r.enc[i].Store(nil)
	}
	r.encMu.Unlock()
	r.decoded.Store(nil)
	for i := range r.views {
		r.views[i].Store(nil)
	}
}

// cached reports whether format f is cached on the record, for tests and memory figures.
func (r *Record) cached(f Format) bool { return r.enc[f].Load() != nil }

var errNoCodec = errors.New("storage: no codec")

// Decoded returns a value derived from the record (the Go API's typed view), computed by
// make on first use and cached like Encoded. make must be the same function for every
// caller.
func (r *Record) Decoded(make func(*Record) any) any {
	if p := r.decoded.Load(); p != nil {
		return *p
	}
	v := make(r)
	if !r.released.Load() {
		r.decoded.Store(&v)
	}
	return v
}

// View returns the record in another form, made by make on first use and cached under key
// (a comparable value naming the form), so that every reader of that form shares one
// record and its encodings: a stored object served through a second API, as a conversion
// webhook's or the version converter's answer is cached in the watch cache. Beyond
// maxViews forms, further ones are made each time.
func (r *Record) View(key any, make func(*Record) *Record) *Record {
	for i := range r.views {
		if v := r.views[i].Load(); v != nil && v.key == key {
			return v.rec
		}
	}
	made := &view{key: key, rec: make(r)}
	if r.released.Load() {
		return made.rec
	}
	for i := range r.views {
		if r.views[i].CompareAndSwap(nil, made) {
			break
		}
		if v := r.views[i].Load(); v.key == key {
			return v.rec // another reader made it first: share theirs
		}
	}
	return made.rec
}

// ObjectKey mirrors the namespace/name part of a registry key.
func ObjectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// Collection is the storage of one resource: its objects by key, a count per namespace,
// and a key index sorted on demand for lists and continue tokens. It mirrors a resource
// prefix of the etcd keyspace (/registry/<resource>/).
//
// The index is kept lazily and cheaply: a delete leaves its key in sorted and only counts it
// in gone; a create appends its key to added. The next read sorts only the added keys and
// merges them into sorted, dropping deleted keys, in one O(n + k log k) pass; so a list that
// follows a few creates does not sort the whole collection again (it did, under the read
// lock, which writers then waited for), and deleting a namespace of k objects costs at most
// one filtering pass per later read.
type Collection struct {
	name     string
	traceKey string
	objects  map[string]*Record
	perNS    map[string]int

	sortMu sync.Mutex
	sorted []string // sorted, possibly holding deleted keys (gone counts them)
	added  []string // keys created since the last read, in no order
	gone   int
}

// Name returns the name the collection was made with.
func (c *Collection) Name() string { return c.name }

// sortedKeys returns the current keys in byte order; the slice is shared and must not be
// changed. Callers hold the store lock (read or write); sortMu orders concurrent readers.
func (c *Collection) sortedKeys() []string {
	c.sortMu.Lock()
	defer c.sortMu.Unlock()
	if len(c.added) == 0 && c.gone == 0 {
		return c.sorted
	}
	add := c.added
	slices.Sort(add)
	add = slices.Compact(add) // a key created, deleted and created again
	// A new slice, not an in-place merge: another reader may still range over the old.
	keys := make([]string, 0, len(c.objects))
	live := func(k string) bool { _, ok := c.objects[k]; return ok }
	old := c.sorted
	for len(old) > 0 || len(add) > 0 {
		var k string
		switch {
		case len(add) == 0 || (len(old) > 0 && old[0] < add[0]):
			k, old = old[0], old[1:]
			if c.gone > 0 && !live(k) {
				continue
			}
		case len(old) > 0 && old[0] == add[0]:
			k, old, add = old[0], old[1:], add[1:]
			if !live(k) {
				continue
			}
		default:
			k, add = add[0], add[1:]
			if !live(k) {
				continue
			}
		}
		keys = append(keys, k)
	}
	c.sorted, c.added, c.gone = keys, c.added[:0], 0
	if cap(c.added) > 4096 {
		c.added = nil // a bulk load's worth need not stay pinned
	}
	return c.sorted
}

// keysIn returns the keys of namespace ns in byte order, as a private slice; ns "" is the
// cluster-scoped objects, whose keys carry no namespace.
func (c *Collection) keysIn(ns string) []string {
	if c.perNS[ns] == 0 {
		return nil
	}
	keys := c.sortedKeys()
	if ns == "" {
		return slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return strings.Contains(k, "/") })
	}
	lo := sort.SearchStrings(keys, ns+"/")
	hi := sort.SearchStrings(keys, ns+"0") // '0' follows '/': the end of the prefix range
	return slices.Clone(keys[lo:hi])
}

func (c *Collection) add(rec *Record) {
	c.perNS[rec.Namespace()]++
	c.sortMu.Lock()
	c.added = append(c.added, rec.Key)
	c.sortMu.Unlock()
}

func (c *Collection) deleted(rec *Record) {
	ns := rec.Namespace()
	if c.perNS[ns]--; c.perNS[ns] <= 0 {
		delete(c.perNS, ns)
	}
	c.sortMu.Lock()
	c.gone++
	c.sortMu.Unlock()
}
