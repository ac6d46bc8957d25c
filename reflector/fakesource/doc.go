// Package fakesource is an in-memory apiserver for one resource, fast enough for unit tests
// and deterministic inside a testing/synctest bubble. It mirrors FakeControllerSource in
// client-go tools/cache/testing/fake_controller_source.go, extended to the harness contract
// of docs/behaviour/client-go.md (§16):
//
//  1. One integer RV counter bumped by every write; each object carries the RV of its last
//     write; every list carries the current RV (H-1). AdvanceResourceVersion plays writes to
//     other resources, which move the shared counter without an event.
//  2. LIST at "", "0" or N ≤ current returns the current state; N > current is a 504 with
//     the ResourceVersionTooLarge cause; FailListAt injects an error for one RV (H-2).
//  3. Limit and continue page the list; a token older than the last Compact is a 410 Expired
//     (H-3). Pages are cut from the current state, not from a snapshot: tests that page do
//     not write between pages.
//  4. WATCH from N replays retained events after N, then live ones; N older than the last
//     Compact gets an ERROR 410 event (or, with ExpiredOnOpen, a 410 from Watch itself).
//     WATCH from "" or "0" starts with a synthetic ADDED per object (H-4).
//  5. sendInitialEvents=true with resourceVersionMatch=NotOlderThan streams ADDED per object,
//     a BOOKMARK annotated k8s.io/initial-events-end, then live events; SetWatchListUnsupported
//     rejects it with a 422 (H-5).
//  6. Bookmark sends a BOOKMARK at the current RV to every watcher that allowed them (H-6).
//  7. TimeoutSeconds closes the stream; faults: close the next watch at once, drop events,
//     close every watch, fail the next LIST or WATCH with any error, send an ERROR (H-7).
//  8. Objects are deep-copied on the way in and out (H-8).
//  9. Time is the time package, virtual inside a synctest bubble (H-9). Every request is
//     recorded with its options and time; Close ends every watch.
package fakesource
