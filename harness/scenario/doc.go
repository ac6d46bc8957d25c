// Package scenario runs data-driven scenario scripts (testdata/*.txt) against the simulated
// apiserver and the informer, in the style of etcd-io/raft's interaction tests, and compares
// the recorded trace with the expectations written in the script. It is test support: only
// _test.go files import it (internal/layers checks that). A run's pipeline is assembled by
// internal/testbed, its controller runs controller.Loop (the loop chapter 10 teaches), and its
// recorder reads the trace with internal/trace's decoder.
//
// The contract:
//
//  1. A script is a sequence of blocks: optional "#" comment lines, one command line, a
//     "----" line, then the expected output, which ends at a blank line or the end of the
//     file. An empty output is written "ok". A script starts with a comment saying what it
//     teaches.
//  2. A script whose first command is "profiles P1 P2 …" (classic, inorder, current) runs once
//     per profile; a block with the same output under every profile shows it once, otherwise
//     one "[profile]" section per profile, side by side. Without it the script runs once,
//     under the current profile.
//  3. Each run is one testing/synctest bubble: time is virtual ("advance 30s" takes no wall
//     time), and after every command the runner waits until every goroutine of the bubble is
//     blocked (synctest.Wait) before it collects the output. Nothing sleeps in real time.
//  4. A block's output is the command's own lines (start, show, wait, burst, errors) followed
//     by the trace it caused: every component's slog hops and the runner's handler and worker
//     lines, normalised (no time, no level on hops, no jittered backoff delay, no listener
//     pending counts, a reflector's file:line name replaced by "reflector").
//  5. Trace lines are grouped into lanes in pipeline order — apiserver (writes and faults,
//     then client requests, then each watcher's stream), listwatch, reflector,
//     fifo push side, fifo pop side, indexer, informer, processor, each listener (by name; add,
//     pop and deliver sides), each handler (by name), workqueue with the workers — and keep
//     their order within a lane. The interleaving of lanes, which goroutine scheduling decides,
//     is therefore never part of an expectation. "trace C1 C2 …" (or all, or none) chooses
//     the components shown; warnings, errors and observed panics are always shown. The
//     default is "trace handler worker".
//  6. The same script gives the same output on every run, under -race too. The runner makes
//     it so by settling after each command, by the lanes of 5, and by sorting what has no
//     order (cache contents, request counts, mutations). A command whose last word is
//     "sorted" has each lane of its trace sorted: a script says so where the spec leaves the
//     order open, e.g. "advance 30s sorted" for a DeltaFIFO resync, which walks a map.
//  7. RunFile fails with a go-cmp diff of the script (-want +got) when the output differs; with
//     update set it rewrites the file instead. Each test package that runs scripts declares
//     its own -update flag and passes it in, so "go test ./... -update" rewrites them all.
//  8. Every run ends with nothing left running: held handlers and workers are released, the
//     workqueue is shut down, the informer and the server are stopped.
//
// The commands a script may use are listed in script.go.
package scenario
