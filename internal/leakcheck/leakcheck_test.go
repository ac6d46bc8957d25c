package leakcheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// parked blocks until its channel closes; its frame names this package.
func parked(stop chan struct{}) { <-stop }

func TestLeaked(t *testing.T) {
	const marker = "internal/leakcheck_test.parked"
	assert.Empty(t, leakcheck.Leaked(marker), "nothing parked yet")

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); parked(stop) }()
	assert.Eventually(t, func() bool { return leakcheck.Leaked(marker) != "" }, 5e9, 1e6,
		"a parked goroutine is reported")
	assert.Contains(t, leakcheck.Leaked(marker), "parked")
	assert.Empty(t, leakcheck.Leaked("no-such-marker"))

	close(stop)
	<-done
	assert.Eventually(t, func() bool { return leakcheck.Leaked(marker) == "" }, 5e9, 1e6,
		"gone once it returns")
}

func TestLeakedSkipsTheCaller(t *testing.T) {
	assert.Empty(t, leakcheck.Leaked("leakcheck_test.TestLeakedSkipsTheCaller"))
}
