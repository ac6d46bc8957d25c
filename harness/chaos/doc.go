// Package chaos is the chaos consistency suite: seeded random writes and
// faults against the simulated apiserver, with the informer of every queue profile, several
// handlers and a workqueue controller running, and every invariant of docs/behaviour/client-go.md §12 that a run can
// observe checked after quiescence. Its code is the op generator and the shrinker; the runner
// and the checks live in its tests (go test ./harness/chaos/). A run's pipeline is assembled
// by internal/testbed, and its controller runs controller.Loop, the loop chapter 10 teaches.
//
// The contract:
//
//  1. A run is an op list (ops.go lists them): creates before the informer starts, then
//     writes, server faults, LIST and WATCH failures, client faults and virtual time.
//  2. Generate(seed, n) always returns the same list for the same seed, whatever the profile.
//  3. A write op names a key and is resolved against the server's current state when it runs
//     (an update of an absent key creates it, a delete of an absent key is skipped), so every
//     subset of a list is again a valid run: that is what lets Shrink drop ops freely.
//  4. Each run happens inside a testing/synctest bubble over the server's in-process
//     ListerWatcher: the server's bookmarks and watch timeouts, the reflector's backoff, the
//     informer's resync and the workqueue's delays all run in virtual time.
//  5. The authoritative history of each key is the server's own answer to every write the run
//     makes (the run is the only writer), so dropped or cut events cannot hide from it.
//  6. While a run goes on, every handler checks its stream (INV-6, 7, 8, 9, 26, 27) and the
//     controller INV-23 (never two workers on one key).
//  7. Quiescence means: no more writes, every fault cleared, handlers released, a forced
//     relist (a 410), then, in bounded virtual time, the informer at the server's RV with the
//     server's state, every listener drained and no handler call running, and every key the
//     controller was given processed after its last Add.
//  8. After quiescence a run checks INV-1 … INV-5 (cache, index, last notifications, sync,
//     nothing buffered), that every state a handler saw is one the server wrote for that key,
//     in RV order, and that the controller converged (no lost update, empty queue).
//  9. After the checks the informer, the controller and the server are stopped; any goroutine
//     still alive then makes synctest.Test fail the test, which is the leak check.
//  10. A failing run is reported with its seed and profile, shrunk by delta debugging to a
//     small op list that still breaks the same invariant, printed op by op with what each op
//     did, and followed by the go test line that replays it (-chaos.keep). Timing jitter
//     (the reflector's backoff and watch timeouts are random) is not seeded, so a replay may
//     need a few -count runs.
//
// Flags: -chaos.seeds (default 20 per profile), -chaos.seed (first seed), -chaos.ops (ops
// per seed), -chaos.profiles, -chaos.keep, -chaos.shrink (run budget), -chaos.v.
package chaos
