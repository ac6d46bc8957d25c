package ch10_test

import (
	"os"
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// TestMain fails the chapter if a goroutine of the pipeline (informer, reflector, processor,
// workqueue, apiserver, controller) outlives the tests. The synctest bubbles check themselves;
// this catches the real-time HTTP test, the examples and the benchmarks.
func TestMain(m *testing.M) {
	const lab = "informer-lab/informer-lab/"
	os.Exit(leakcheck.Main(m, lab+"informer.", lab+"reflector.", lab+"processor.", lab+"workqueue.",
		lab+"apiserver.", lab+"controller.", lab+"chapters/10-controller."))
}
