package informer

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// pipelinePackages are the packages whose goroutines an informer starts: if one of them is
// still running once every test has returned, a Run returned while leaving work behind.
var pipelinePackages = []string{
	"informer-lab/informer.",
	"informer-lab/reflector.",
	"informer-lab/deltafifo.",
	"informer-lab/processor.",
}

// TestMain fails the package if a goroutine of the pipeline (processLoop, the reflector, a
// listener's pop or run, a synced watcher) outlives the tests: after Run returns nothing may
// keep running (§12.5, INV-26). Tests inside synctest bubbles are checked by synctest too,
// which reports a deadlock when a bubble's goroutines cannot all exit; this catches the tests
// that run in real time (the HTTP integration test, the benchmarks).
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
			fmt.Fprintf(os.Stderr, "leaked pipeline goroutines:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

// pipelineGoroutines returns the stacks of the goroutines running pipeline code, other than
// the one asking.
func pipelineGoroutines() string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 { // this goroutine
			continue
		}
		for _, pkg := range pipelinePackages {
			if strings.Contains(g, pkg) && !strings.Contains(g, "testing.tRunner") && !strings.Contains(g, ".TestMain(") {
				out = append(out, g)
				break
			}
		}
	}
	return strings.Join(out, "\n\n")
}
