// Package storage is the simulated apiserver's storage layer: what k8s.io/apiserver's etcd3
// store and watch cache (pkg/storage, pkg/storage/etcd3, pkg/storage/cacher) give the layers
// above, reduced to one process. It is the harness contract the reflector relies on, and
// chapter 01 reads it:
//
//  1. One global uint64 revision is bumped by every write (create, update, delete) across all
//     collections; each stored object carries the revision of its last write, set through the
//     Versioner. A write that changes nothing writes nothing: same revision, no event.
//  2. Objects are keyed collection + namespace + name. Lists come in key order and report the
//     store revision at read time, not the newest item's.
//  3. The history is a ring of HistorySize events, one per write, so retained revisions are
//     contiguous. A watch or Exact list may start from any revision ≥ OldestResourceVersion;
//     Compact raises that bound and the ring does as it overflows. Older ones are 410 Expired.
//  4. Every page of one paged list is one snapshot: a list at an older revision is rebuilt
//     from the current state by undoing the retained events after it. Continue tokens carry
//     that revision; once it is compacted the token is 410 Expired.
//  5. A watch registers, replays the history after its revision or takes the current state,
//     all under the store lock, so the list→watch hand-off has no gap and no duplicate.
//  6. Writers never wait for watchers: each watcher has a bounded queue, which its consumer
//     takes whole (Take) when woken (Ready), once per batch rather than once per event; one
//     whose queue is full is stopped (overflow) and its consumer ends the stream. At most
//     MaxOpenWatches watches are open at once.
//  7. Records are immutable and shared by lists, events and watchers; their encodings come
//     from the injected Codec and are cached on the record, so each is made at most once
//     however many readers ask at the same moment. A version no longer current lets go of
//     its encodings once no retained event holds it.
//  8. The store counts objects per namespace, so "is this namespace empty" is O(collections).
//  9. Event faults attach at one seam, Config.Hooks: a hook may drop an event on its way to a
//     watcher.
//  10. It knows nothing of HTTP, protobuf, kinds or custom resources: a collection is a name,
//     an object an *api.Unstructured, a selection a predicate.
package storage
