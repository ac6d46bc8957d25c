package ch10_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the chapter if a goroutine of the pipeline (informer, reflector, processor,
// workqueue, apiserver, controller) outlives the tests. The synctest bubbles check themselves;
// this catches the real-time HTTP test, the examples and the benchmarks.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(5 * time.Second)
		leaked := pipelineGoroutines()
		for leaked != "" && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // polling interval of a bounded wait
			leaked = pipelineGoroutines()
		}
		if leaked != "" {
			fmt.Fprintf(os.Stderr, "leaked goroutines:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func pipelineGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "ch10_test.TestMain") {
			continue
		}
		for _, pkg := range []string{"/informer.", "/reflector.", "/processor.", "/workqueue.", "/apiserver.", "/10-controller."} {
			if strings.Contains(g, "informer-lab/informer-lab"+pkg) {
				out = append(out, g)
				break
			}
		}
	}
	return strings.Join(out, "\n\n")
}
