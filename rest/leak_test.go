package rest

import (
	"testing"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// checkNoLeak fails t when a goroutine of the client side (a request, a watch's reader, a
// plugin run) outlives it; goroutines may take a moment to unwind after Stop, so the check
// waits a bounded time.
func checkNoLeak(t *testing.T) {
	t.Helper()
	leakcheck.Check(t, "informer-lab/rest.", "informer-lab/rest/watch.", "informer-lab/plugin/pkg/client/auth/exec.")
}
