package listwatch

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// ourGoroutines returns the stacks of live goroutines that run code of this package (other
// than the test functions themselves).
func ourGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "informer-lab/listwatch.") {
			continue
		}
		// The goroutine running the test (and its helpers) is not a leak.
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.runExample") ||
			strings.Contains(g, "testing.(*B)") || strings.Contains(g, "ourGoroutines") {
			continue
		}
		found = append(found, g)
	}
	return found
}

// checkNoLeak registers a cleanup that fails the test when a goroutine of this package is
// still alive. Goroutines may take a moment to unwind after Stop, so it polls for a bounded
// time instead of sleeping a fixed amount.
func checkNoLeak(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			left := ourGoroutines()
			if len(left) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("leaked %d goroutine(s):\n%s", len(left), strings.Join(left, "\n\n"))
				return
			}
			<-tick.C // bounded polling
		}
	})
}
