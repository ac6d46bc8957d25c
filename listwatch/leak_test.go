package listwatch

import (
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// checkNoLeak fails t when a goroutine of this package or of the REST client under it (a
// pager's prefetch, a watch's reader) outlives it; goroutines may take a moment to unwind
// after Stop, so the check waits a bounded time.
func checkNoLeak(t *testing.T) {
	t.Helper()
	leakcheck.Check(t, "informer-lab/listwatch.", "informer-lab/rest.", "informer-lab/rest/watch.")
}
