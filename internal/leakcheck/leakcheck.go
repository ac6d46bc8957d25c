// Package leakcheck fails a test binary whose goroutines outlive its tests.
//
// Contract:
//  1. Main runs the tests; if they passed, it waits (bounded, 5 s) until no goroutine other
//     than its own runs code whose stack mentions one of the markers, then returns m.Run's
//     code, or 1 after printing the leaked stacks to stderr.
//  2. A marker is a substring of a stack frame, usually a package path with a trailing dot,
//     e.g. "informer-lab/informer-lab/informer." for package informer's functions.
//  3. Tests inside synctest bubbles are checked by synctest itself; Main catches the tests
//     that run in real time (HTTP servers, examples, benchmarks).
//
// It plays the part goleak plays in client-go's tests, on the standard library alone.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Main is TestMain's body: os.Exit(leakcheck.Main(m, markers...)). Nothing in client-go
// mirrors it.
func Main(m *testing.M, markers ...string) int {
	code := m.Run()
	if code != 0 {
		return code
	}
	deadline := time.Now().Add(5 * time.Second)
	leaked := Leaked(markers...)
	for leaked != "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling interval of a bounded wait
		leaked = Leaked(markers...)
	}
	if leaked != "" {
		fmt.Fprintf(os.Stderr, "leaked goroutines:\n%s\n", leaked)
		return 1
	}
	return 0
}

// Leaked returns the stacks of the goroutines, other than the caller's, that run code
// matching one of markers, or "" when there are none. Nothing in client-go mirrors it.
func Leaked(markers ...string) string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	// The first stack is always the calling goroutine's.
	for _, g := range strings.Split(string(buf), "\n\n")[1:] {
		for _, mk := range markers {
			if strings.Contains(g, mk) {
				out = append(out, g)
				break
			}
		}
	}
	return strings.Join(out, "\n\n")
}
