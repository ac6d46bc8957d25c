package processor

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the package if any processor goroutine (pop, run, the synced watcher, a
// blocked Add or Distribute) is still alive once every test has returned (§12.5, INV-26).
// Tests inside synctest bubbles are checked by synctest too: it reports a deadlock when a
// bubble's goroutines cannot all exit.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := waitForNoLeaks(5 * time.Second); leaked != "" {
			fmt.Fprintf(os.Stderr, "leaked processor goroutines:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

// waitForNoLeaks polls the goroutine dump until no goroutine runs processor code, for at most
// d (goroutines that were just told to stop may need a moment to be scheduled).
func waitForNoLeaks(d time.Duration) string {
	deadline := time.Now().Add(d)
	for {
		leaked := processorGoroutines()
		if leaked == "" || time.Now().After(deadline) {
			return leaked
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond) // polling interval of a bounded wait, not synchronisation
	}
}

func processorGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "processor.(*ProcessorListener)") || strings.Contains(g, "processor.(*SharedProcessor)") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}
