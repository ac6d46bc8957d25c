// Package leakcheck fails a test binary whose goroutines outlive its tests.
//
// Contract:
//  1. Main runs the tests; if they passed, it waits (bounded, 5 s) until no goroutine other
//     than its own runs code whose stack mentions one of the markers, then returns m.Run's
//     code, or 1 after printing the leaked stacks to stderr.
//  2. A marker is a substring of a stack frame, usually a package path with a trailing dot,
//     e.g. "informer-lab/informer-lab/informer." for package informer's functions.
//  3. Check is the per-test form: a cleanup that waits (bounded, 5 s) for the marked
//     goroutines other than those of running tests, benchmarks and examples to end, and fails
//     the test with their stacks if they do not.
//  4. Tests inside synctest bubbles are checked by synctest itself; Main catches the tests
//     that run in real time (HTTP servers, examples, benchmarks).
//
// It plays the part goleak plays in client-go's tests, on the standard library alone.
package leakcheck
