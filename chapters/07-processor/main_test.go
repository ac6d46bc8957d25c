package ch07_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the chapter if a processor goroutine (pop, run, a synced watcher, a blocked
// Add or Distribute) outlives the tests (§12.5). Tests in synctest bubbles are also checked by
// synctest itself, which reports a deadlock when a bubble's goroutines cannot all exit.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && os.Getenv(crashChildEnv) == "" {
		deadline := time.Now().Add(5 * time.Second)
		leaked := processorGoroutines()
		for leaked != "" && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // polling interval of a bounded wait
			leaked = processorGoroutines()
		}
		if leaked != "" {
			fmt.Fprintf(os.Stderr, "leaked processor goroutines:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
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
