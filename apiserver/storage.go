package apiserver

import (
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Storage: the etcd3 store and the watch cache's event window of k8s.io/apiserver, reduced to
// one process. What it promises:
//
//  1. One global uint64 revision is bumped by every write — create, changing update, delete,
//     deletion mark, finalizer removal — across all resources; each object carries the RV of
//     its last write (wire spec 0.1, H-1). A no-op update or patch writes nothing: same RV, no
//     event (0.3, R16).
//  2. Objects are keyed resource + namespace + name; lists come in key order and report the
//     store revision at read time, not the newest item's RV (0.4, 0.6).
//  3. The history is a ring of HistorySize events, one per write, so retained RVs are
//     contiguous. A watch may start from any RV ≥ OldestResourceVersion; Compact and
//     CompactAll raise that bound, and the ring does as it overflows (0.5).
//  4. Objects are deep-copied on the way in and out of the Go API (H-8); stored objects are
//     immutable and shared by lists and watchers, each encoded to JSON at most once.

// record is one stored version of an object. A record is immutable once created: lists,
// events and watchers share it without copying, and the Go API deep-copies on the way out
// (H-8). Its JSON is computed at most once and reused by every list and watcher.
type record struct {
	obj   *api.Unstructured // the whole object, every field the schema knows (see normalize)
	meta  api.MetaObject    // obj itself, as metadata accessors
	rv    uint64
	key   string // "namespace/name", or "name" when cluster-scoped (0.6)
	enc   atomic.Pointer[[]byte]
	pb    atomic.Pointer[[]byte]     // the protobuf encoding, made on first request (protobuf.go)
	pbMsg atomic.Pointer[[]byte]     // the same without the envelope, for lists
	view  atomic.Pointer[api.Object] // the typed view the Go API hands out, decoded once
}

func newRecord(obj *api.Unstructured, key string, rv uint64) *record {
	return &record{obj: obj, meta: obj, rv: rv, key: key}
}

// json returns the object's encoding, kind and apiVersion included (N6).
func (r *record) json() []byte {
	if p := r.enc.Load(); p != nil {
		return *p
	}
	b, err := encodeStored(r.obj.Object)
	if err != nil {
		// Stored objects come from JSON or from typed structs, so this cannot happen; an
		// encodable placeholder keeps the stream valid if it ever does.
		b = []byte(`{}`)
	}
	r.enc.Store(&b)
	return b
}

// resource is the storage of one resource: its objects by key, a count of them per
// namespace, and a key index sorted on demand for lists and continue tokens.
//
// The index is maintained lazily and cheaply for deletes: a delete leaves its key in sorted
// and only counts it in gone; the next read filters the deleted keys out in one O(n) pass
// (no sort). Only an added key makes the next read sort again. So deleting a namespace of k
// objects costs O(k) writes and at most one filtering pass per later read, never a sort per
// delete.
type resource struct {
	info    ResourceInfo
	crd     atomic.Pointer[crdServing] // what a custom resource's CRD says now (crd.go)
	objects map[string]*record
	perNS   map[string]int // objects per namespace: the namespace lifecycle's O(1) emptiness check

	sortMu   sync.Mutex
	sorted   []string
	unsorted bool // a key was added after sorted was built: sort again
	gone     int  // keys in sorted deleted since it was built: filter them out
}

func newResource(info ResourceInfo) *resource {
	return &resource{info: info, objects: map[string]*record{}, perNS: map[string]int{}, unsorted: true}
}

// sortedKeys returns the current keys in byte order; the slice is shared and must not be
// changed. Callers hold s.mu (read or write); sortMu orders concurrent readers.
func (r *resource) sortedKeys() []string {
	r.sortMu.Lock()
	defer r.sortMu.Unlock()
	switch {
	case r.unsorted:
		keys := make([]string, 0, len(r.objects))
		for k := range r.objects {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		r.sorted, r.unsorted, r.gone = keys, false, 0
	case r.gone > 0:
		// A new slice, not an in-place filter: another reader may still range over the old.
		keys := make([]string, 0, len(r.objects))
		for _, k := range r.sorted {
			if _, ok := r.objects[k]; ok {
				keys = append(keys, k)
			}
		}
		r.sorted, r.gone = keys, 0
	}
	return r.sorted
}

// keysIn returns the keys of namespace ns in byte order, as a private slice. Callers hold s.mu.
func (r *resource) keysIn(ns string) []string {
	if r.perNS[ns] == 0 {
		return nil
	}
	keys := r.sortedKeys()
	lo := sort.SearchStrings(keys, ns+"/")
	hi := sort.SearchStrings(keys, ns+"0") // '0' follows '/': the end of the prefix range
	return slices.Clone(keys[lo:hi])
}

// added and deleted keep the per-namespace counts and the index in step with objects.
// Callers hold s.mu exclusively.
func (r *resource) added(rec *record) {
	r.perNS[rec.meta.GetNamespace()]++
	r.sortMu.Lock()
	r.unsorted = true
	r.sortMu.Unlock()
}

func (r *resource) deleted(rec *record) {
	ns := rec.meta.GetNamespace()
	if r.perNS[ns]--; r.perNS[ns] <= 0 {
		delete(r.perNS, ns)
	}
	r.sortMu.Lock()
	r.gone++
	r.sortMu.Unlock()
}

func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// event is one entry of the history: a write at rv. obj is the new state; for a delete it is
// the last state carrying the delete's RV (W10). old is the state before (nil on create).
type event struct {
	rv  uint64
	typ watch.EventType
	res *resource
	obj *record
	old *record
}

// history is the bounded ring of events (0.5). Every write makes exactly one event and bumps
// the global revision by one, so the retained events have the contiguous RVs start+1 … rev
// and the event of RV r sits at a computed position.
type history struct {
	ring  []*event
	head  int    // position of the oldest retained event
	n     int    // number of retained events
	start uint64 // every event with RV > start is retained
}

func (h *history) init(size int) { h.ring = make([]*event, size) }

func (h *history) add(ev *event) {
	if h.n == len(h.ring) {
		h.ring[h.head] = nil
		h.head = (h.head + 1) % len(h.ring)
		h.n--
		h.start++
	}
	h.ring[(h.head+h.n)%len(h.ring)] = ev
	h.n++
}

// at returns the event of RV rv, which must be in (start, start+n].
func (h *history) at(rv uint64) *event {
	return h.ring[(h.head+int(rv-h.start-1))%len(h.ring)]
}

// compact drops every event with RV ≤ rv.
func (h *history) compact(rv uint64) {
	for h.n > 0 && h.start < rv {
		h.ring[h.head] = nil
		h.head = (h.head + 1) % len(h.ring)
		h.n--
		h.start++
	}
	if h.start < rv {
		h.start = rv
	}
}

// commit performs one write under s.mu: it bumps the revision, stamps obj with it, stores
// (or, for Deleted, removes) the record, appends the event and hands it to the watchers.
// obj must be private to the server: nobody else may hold it.
func (s *Server) commit(res *resource, typ watch.EventType, key string, obj *api.Unstructured, old *record) *event {
	s.rev++
	obj.SetResourceVersion(strconv.FormatUint(s.rev, 10))
	rec := newRecord(obj, key, s.rev)
	switch typ {
	case watch.Deleted:
		delete(res.objects, key)
		res.deleted(rec)
		if isServices(res) {
			s.serviceIPs.ReleaseService(obj.Object)
		}
	case watch.Added:
		res.objects[key] = rec
		res.added(rec)
	default:
		res.objects[key] = rec
	}
	ev := &event{rv: s.rev, typ: typ, res: res, obj: rec, old: old}
	s.hist.add(ev)
	close(s.revCh)
	s.revCh = make(chan struct{})
	if trace.Enabled(s.log) {
		trace.Hop(s.log, "apiserver", opForEvent(typ), key, strconv.FormatUint(s.rev, 10))
	}
	s.dispatch(ev)
	return ev
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
// Exact lists from an older RV, and continue tokens made before it, then get 410 Expired.
// rv beyond the current revision compacts everything.
func (s *Server) Compact(rv uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rv > s.rev {
		rv = s.rev
	}
	s.hist.compact(rv)
	trace.Hop(s.log, "apiserver", "fault", "", strconv.FormatUint(rv, 10), slogString("fault", "compact"))
}

// CompactAll drops the whole history: only the current revision can be watched from.
func (s *Server) CompactAll() {
	s.mu.Lock()
	rv := s.rev
	s.mu.Unlock()
	s.Compact(rv)
}

// ResourceVersion returns the current global revision.
func (s *Server) ResourceVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rev
}

// OldestResourceVersion returns the oldest RV a watch may start from without 410: every
// event after it is retained.
func (s *Server) OldestResourceVersion() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hist.start
}

// page is one read of a collection at a snapshot revision.
type page struct {
	items     []*record
	rv        uint64
	lastKey   string // key of the last item, relative to the collection prefix
	more      bool
	remaining int64 // items after lastKey, when more
}

// readPage reads the collection res (namespace ns, "" for all) as of revision at, starting at
// the relative key from, up to limit items (0: all) that keep passes. Callers hold s.mu for
// reading and have checked that at is in [hist.start, rev].
//
// A snapshot older than the current revision is rebuilt from the history: walking the events
// after at from newest to oldest, each key's overlay ends at its state before the oldest such
// event, which is its state at at. The page merges the current keys with the overlay keys.
func (s *Server) readPage(res *resource, ns string, at uint64, from string, limit int, keep func(*record) bool) page {
	var overlay map[string]*record
	if at < s.rev {
		overlay = map[string]*record{}
		for rv := s.rev; rv > at; rv-- {
			ev := s.hist.at(rv)
			if ev.res == res {
				overlay[ev.obj.key] = ev.old
			}
		}
	}
	prefix := ""
	if ns != "" {
		prefix = ns + "/"
	}
	cur := res.sortedKeys()
	lo := sort.SearchStrings(cur, prefix+from)
	hi := len(cur)
	if prefix != "" {
		hi = sort.SearchStrings(cur, ns+"0") // '0' follows '/': the end of the prefix range
	}
	var extra []string
	for k, rec := range overlay {
		if _, inCur := res.objects[k]; !inCur && rec != nil && k >= prefix+from && (prefix == "" || len(k) > len(prefix) && k[:len(prefix)] == prefix) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)

	p := page{rv: at}
	i, j := lo, 0
	next := func() (string, *record, bool) {
		for i < hi || j < len(extra) {
			var k string
			if j >= len(extra) || (i < hi && cur[i] < extra[j]) {
				k = cur[i]
				i++
			} else {
				k = extra[j]
				j++
			}
			rec, ok := overlay[k]
			if !ok {
				rec = res.objects[k]
			}
			if rec != nil {
				return k, rec, true
			}
		}
		return "", nil, false
	}
	var lastAbs string
	for {
		k, rec, ok := next()
		if !ok {
			break
		}
		if keep != nil && !keep(rec) {
			continue
		}
		if limit > 0 && len(p.items) == limit {
			p.more = true
			break
		}
		p.items = append(p.items, rec)
		lastAbs = k
	}
	if p.more {
		p.lastKey = lastAbs[len(prefix):]
		if keep == nil {
			p.remaining = s.countAfter(res, cur, hi, overlay, prefix, lastAbs)
		}
	}
	return p
}

// countAfter counts the snapshot's items with a key after last inside the prefix range.
func (s *Server) countAfter(res *resource, cur []string, hi int, overlay map[string]*record, prefix, last string) int64 {
	n := int64(hi - sort.SearchStrings(cur, last+"\x00"))
	for k, rec := range overlay {
		if k <= last || (prefix != "" && (len(k) <= len(prefix) || k[:len(prefix)] != prefix)) {
			continue
		}
		_, inCur := res.objects[k]
		switch {
		case inCur && rec == nil:
			n--
		case !inCur && rec != nil:
			n++
		}
	}
	return n
}
