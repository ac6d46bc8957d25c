// Package apiserver is a simulated kube-apiserver that speaks the real wire protocol
// (spec/apiserver-wire.md §0–6, 9, 10) and honours the test-harness contract the reflector
// relies on (spec/client-go-behaviour.md §16, H-1 … H-9). It mirrors, much reduced, the
// parts of k8s.io/apiserver that a client can observe: the etcd3 store and its revisions,
// the watch cache (cacher, cacheWatcher, watchCache history), the REST handlers in
// endpoints/handlers and the generic registry with the pod, configmap and namespace
// strategies. Serve it over HTTP (Handler, Start, NewTestServer) or call it in process (Create,
// Get, Update, Patch, Delete, List, Watch, ListerWatcher).
//
// The contract:
//
//  1. One global uint64 revision is bumped by every write — create, changing update, delete,
//     deletion mark, finalizer removal — across all resources; each object carries the RV of
//     its last write (0.1, H-1). A no-op update or patch writes nothing: same RV, no event
//     (0.3, R16).
//  2. Objects are keyed resource + namespace + name; lists come in key order and report the
//     store revision at read time, not the newest item's RV (0.4, 0.6).
//  3. The history is a ring of HistorySize events, one per write, so retained RVs are
//     contiguous. A watch may start from any RV ≥ OldestResourceVersion; Compact and
//     CompactAll raise that bound, and the ring does as it overflows (0.5).
//  4. Snapshots without MVCC: a list at an older revision (Exact, or a later page of a paged
//     list) is rebuilt from the current state by undoing the retained events after it. Every
//     page of one list therefore has the first page's RV even when writes happen between
//     pages (L7); once that RV leaves the history, the token gets 410 Expired carrying a
//     fresh "latest" token (L12). Exact at a compacted RV is 410; a future RV waits
//     TooLargeResourceVersionWait, then 504 ResourceVersionTooLarge (L4, L5, H-2).
//  5. limit is ignored with resourceVersion=0 unless HonourLimitWithRV0 (L9).
//     remainingItemCount is set only on a non-last page of a list without selectors (L13).
//  6. A watch sends {"type":…,"object":…}\n frames, flushed one by one, every object with
//     kind and apiVersion (W3, W4, N6). From "" or "0" it sends the current objects as ADDED,
//     from N exactly the events after N; from a compacted N it answers 200 with one ERROR
//     410 Expired and ends (W5, W12). Since 1.34 semantics (W6), "" and "0" watches are
//     watch-lists, so with allowWatchBookmarks they also get the initial-events-end BOOKMARK.
//  7. Watch-list (sendInitialEvents=true, resourceVersionMatch=NotOlderThan): ADDED for the
//     snapshot, a BOOKMARK annotated k8s.io/initial-events-end at the snapshot RV when
//     bookmarks are allowed, then live events (W7, W8, H-5). RejectWatchList answers 422.
//  8. Bookmarks only with allowWatchBookmarks: every BookmarkPeriod and once shortly before
//     the timeout, carrying the current revision only when nothing is still queued for that
//     watcher, so a bookmark never overtakes an event (W16, W17, H-6). RVs on one stream never
//     go back.
//  9. Registration, replay and the initial state happen under the storage lock, so the
//     list→watch hand-off has no gap and no duplicate (W11).
//  10. Selectors apply to lists and watches alike; an object leaving a watch's selection is
//     DELETED with its previous state at the new RV, one entering it is ADDED (W14, T14).
//  11. Writers never block on watchers: each watcher has a buffer of WatchBufferSize events
//     (default 1000). A watcher whose buffer is full is closed: the events already queued
//     are delivered, then one ERROR event (500 InternalError, which client-go answers by
//     watching again from its last RV) ends the stream (W19, R12).
//  12. timeoutSeconds ends a watch cleanly; without it a watch lives 30–60 minutes (W18).
//     Close and CloseAllWatches end watches cleanly (no ERROR).
//  13. Every failure is a Status with the code, reason and message of §6 and §10; a panic in
//     a handler is a 500 Status (no stack trace) and the server goes on; bodies over
//     MaxBodyBytes (3 MiB) are 413 (E8).
//  14. Objects are deep-copied on the way in and out of the Go API (H-8); stored objects are
//     immutable and shared by lists and watchers, each encoded to JSON at most once.
//  15. Deletes are immediate, pods included (the simulator plays a kubelet that has already
//     stopped the containers, so kubectl delete returns at once, T6), unless finalizers hold
//     the object: it is then marked with deletionTimestamp and goes when an update empties
//     them. Deleting a namespace marks it Terminating, deletes its contents and removes it
//     once empty; creating in a missing namespace is 404, in a terminating one 403 (NS1–NS4).
//  16. Faults: DropNextEvents, CloseAllWatches, CloseNextWatches, Compact, DelayEvents,
//     FailNext (429 with Retry-After, 500, 504, … as a response or a watch ERROR event) and
//     CutNextEvent (half an event, then a broken connection) (H-7).
//  17. Time comes from Options.Clock: timestamps, bookmarks, timeouts and waits, so a server
//     inside a testing/synctest bubble runs in virtual time (H-9).
//  18. With Options.Logger, each operation logs one Debug hop with component "apiserver" and
//     op create, update, delete, list, watch-open, watch-send, watch-close or fault; with no
//     logger tracing costs nothing.
//
// Deviations, chosen for a teaching simulator: an update of the main resource may change the
// status too (the real pod and namespace strategies ignore it there; UpdateStatus and the
// status subresource change only the status); apply-patch is approximated by a merge of the
// applied configuration (X4) with no field ownership; dryRun is not supported; request bodies
// are JSON only (protobuf and YAML get 415).
package apiserver
