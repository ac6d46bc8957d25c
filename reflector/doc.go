// Package reflector keeps a store in step with one resource of an apiserver: it lists, then
// watches, and mirrors every change into the store. It mirrors client-go
// tools/cache/reflector.go (and the wait.Backoff it uses from apimachinery).
//
// The contract (IDs are those of docs/behaviour/client-go.md, §4):
//
//  1. Run calls ListAndWatch at once and again after every return, error or not, with one
//     backoff delay in between, until its context ends; errors go to the watch-error handler
//     first. Nothing it starts outlives it.
//  2. The backoff starts at 0.8 s and doubles up to a 30 s cap, each delay jittered into
//     [d, 2d); it restarts every 2 minutes since its last restart. One backoff serves the Run
//     loop, watch re-opens after 429 or a refused connection, and watch-list retries (R-2 … R-5).
//  3. A LIST asks for resourceVersion "0" until an RV has been recorded, then for the last RV
//     recorded, and for "" after an RV was reported gone (410) or too large. After such an
//     error it retries at once with "". Relists at a real RV are not paged.
//  4. A successful LIST becomes one store.Replace at the list's RV, which then becomes
//     LastSyncResourceVersion. A LIST cut short by the context leaves the store alone.
//  5. A watch starts at LastSyncResourceVersion with bookmarks on and a random timeout in
//     [5, 10) minutes. ADDED, MODIFIED and DELETED become Add, Update and Delete; a BOOKMARK
//     only moves the RV (and reaches a ReflectorBookmarkStore). Each accepted event's RV is
//     recorded, except during the synthetic ADDED burst of a watch from "" or "0" (R-13 … R-15).
//  6. Events of an unexpected type or kind, Table rows, and objects without metadata are
//     skipped with a warning; store errors are logged, not fatal; an ERROR event ends the
//     watch with its Status as the error (R-14, LW-5).
//  7. A watch that closes normally is re-opened at once from the last RV: no relist, no
//     backoff. A watch that closes within a second having delivered nothing is a
//     VeryShortWatchError. A 429 backs off and re-watches. A 500 re-watches while internal
//     errors have lasted no longer than MaxInternalErrorRetryDuration. Everything else,
//     410 included, ends the cycle, and the next one relists.
//  8. Every watcher is stopped before the next is opened and before ListAndWatch returns;
//     a reflector never has two watches open (R-18, INV-16).
//  9. During the watch phase, and only then, a helper calls store.Resync every ResyncPeriod
//     when ShouldResync is nil or says yes; a Resync error ends the watch.
//  10. With watch-list on (the default, unless the ListerWatcher opts out), a cycle first
//     streams the state with sendInitialEvents into a temporary store, replaces the real
//     store in one Replace at the RV of the bookmark annotated k8s.io/initial-events-end,
//     and keeps that stream as its first watch. If the server refuses, the cycle falls back
//     to LIST (R-35 … R-40).
//  11. With a Logger, each list, relist, replace, watch start and end, event, bookmark,
//     backoff and resync logs one Debug hop (component "reflector"); without one, tracing
//     costs nothing.
package reflector
