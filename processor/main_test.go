package processor

import (
	"os"
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// TestMain fails the package if any processor goroutine (pop, run, the synced watcher, a
// blocked Add or Distribute) is still alive once every test has returned (§12.5, INV-26).
// Tests inside synctest bubbles are checked by synctest too: it reports a deadlock when a
// bubble's goroutines cannot all exit.
func TestMain(m *testing.M) {
	os.Exit(leakcheck.Main(m, "processor.(*ProcessorListener)", "processor.(*SharedProcessor)"))
}
