package ch13_test

import (
	"os"
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// TestMain fails the chapter if a goroutine of the pipeline outlives the tests. The synctest
// bubbles check themselves; this catches the loopback example.
func TestMain(m *testing.M) {
	const lab = "informer-lab/informer-lab/"
	os.Exit(leakcheck.Main(m, lab+"informer.", lab+"reflector.", lab+"processor.", lab+"workqueue.",
		lab+"apiserver.", lab+"controller.", lab+"chapters/13-custom-resources."))
}
