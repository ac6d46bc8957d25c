package main

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/internal/leakcheck"
)

// TestMain pins the locale and fails the package if a goroutine of the pipeline (apiserver, informer, reflector,
// processor, workqueue, dashboard, testbed, the controller loop, or this command) outlives the
// tests.
func TestMain(m *testing.M) {
	// The tests read the English narration unless they ask for --lang=zh, whatever the
	// locale of the machine running them.
	_ = os.Setenv("LC_ALL", "C")
	const lab = "informer-lab/informer-lab/"
	os.Exit(leakcheck.Main(m, lab+"informer.", lab+"reflector.", lab+"processor.", lab+"workqueue.",
		lab+"apiserver.", lab+"listwatch.", lab+"rest.", lab+"rest/watch.", lab+"plugin/pkg/client/auth/exec.", lab+"internal/dashboard.", lab+"internal/testbed.", lab+"controller.", "/cmd/demo/"))
}

// lineBuffer is an io.Writer that keeps complete lines and lets a test wait for one.
type lineBuffer struct {
	mu      sync.Mutex
	partial string
	lines   []string
	changed chan struct{}
}

func newLineBuffer() *lineBuffer { return &lineBuffer{changed: make(chan struct{})} }

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	text := b.partial + string(p)
	parts := strings.Split(text, "\n")
	b.partial = parts[len(parts)-1]
	if len(parts) > 1 {
		b.lines = append(b.lines, parts[:len(parts)-1]...)
		close(b.changed)
		b.changed = make(chan struct{})
	}
	return len(p), nil
}

func (b *lineBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n") + "\n" + b.partial
}

// waitFor waits (bounded) until a line contains every one of parts, and returns it.
func (b *lineBuffer) waitFor(t *testing.T, timeout time.Duration, parts ...string) string {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		for _, l := range b.lines {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(l, p)
			}
			if ok {
				b.mu.Unlock()
				return l
			}
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("no line with %q within %v; output:\n%s", parts, timeout, b.String())
		}
	}
}
