package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_PodQOSClass pins ComputePodQOS: cpu and memory only, a limit standing in for a
// missing request (as defaulting makes it), init containers counted, pod-level resources
// first.
func TestCh01_PodQOSClass(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{`{"containers":[{"name":"c"}]}`, "BestEffort"},
		{`{"containers":[{"name":"c","resources":{"requests":{"ephemeral-storage":"1Gi"}}}]}`, "BestEffort"},
		{`{"containers":[{"name":"c","resources":{"requests":{"cpu":"0"}}}]}`, "BestEffort"},
		{`{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]}`, "Burstable"},
		{`{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"}}}]}`, "Guaranteed"},
		{`{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"},"requests":{"cpu":"0.1","memory":"64Mi"}}}]}`, "Guaranteed"},
		{`{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"},"requests":{"cpu":"50m"}}}]}`, "Burstable"},
		{`{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"}}},{"name":"d"}]}`, "Burstable"},
		{`{"initContainers":[{"name":"i","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}],"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"}}}]}`, "Guaranteed"},
		{`{"resources":{"limits":{"cpu":"1","memory":"1Gi"}},"containers":[{"name":"c"}]}`, "Guaranteed"},
		{`{"resources":{"requests":{"cpu":"1"}},"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}`, "Burstable"},
	} {
		assert.Equal(t, tc.want, computeQOS(decodeJSON(t, tc.spec)), tc.spec)
	}
}
