package informer

import (
	"os"
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
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
	os.Exit(leakcheck.Main(m, pipelinePackages...))
}
