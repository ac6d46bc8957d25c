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

// Check registers a cleanup that fails t when, after a bounded wait (5 s), a goroutine other
// than a test's own still runs code matching one of markers: the per-test form of Main, for
// tests that must prove one call (a watch, a request) leaves nothing behind. Goroutines of
// tests, benchmarks and examples (which the markers match while they run) are not leaks.
func Check(t testing.TB, markers ...string) {
	t.Helper()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			left := leaked(isTestGoroutine, markers)
			if left == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("leaked goroutine(s):\n%s", left)
				return
			}
			<-tick.C // the polling interval of a bounded wait
		}
	})
}

// isTestGoroutine reports whether a stack is a test, benchmark or example at work.
func isTestGoroutine(stack string) bool {
	return strings.Contains(stack, "testing.tRunner") || strings.Contains(stack, "testing.runExample") ||
		strings.Contains(stack, "testing.(*B)")
}

// Leaked returns the stacks of the goroutines, other than the caller's, that run code
// matching one of markers, or "" when there are none.
func Leaked(markers ...string) string {
	return leaked(func(string) bool { return false }, markers)
}

func leaked(skip func(stack string) bool, markers []string) string {
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
		if skip(g) {
			continue
		}
		for _, mk := range markers {
			if strings.Contains(g, mk) {
				out = append(out, g)
				break
			}
		}
	}
	return strings.Join(out, "\n\n")
}
