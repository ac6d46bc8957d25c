package ch07_test

import (
	"os"
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// TestMain fails the chapter if a processor goroutine (pop, run, a synced watcher, a blocked
// Add or Distribute) outlives the tests (§12.5). The crash child of
// TestCh07_PanickingHandlerCrashes dies on purpose, so it is not checked.
func TestMain(m *testing.M) {
	if os.Getenv(crashChildEnv) != "" {
		os.Exit(m.Run())
	}
	os.Exit(leakcheck.Main(m, "processor.(*ProcessorListener)", "processor.(*SharedProcessor)"))
}
