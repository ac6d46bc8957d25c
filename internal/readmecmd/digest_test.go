package readmecmd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// failureDigest keeps what a reader of a failed command needs when its output is long: every
// failing test with the lines that follow it, every panic and data race with their stacks'
// first lines, the FAIL lines of the packages, and the last lines. A plain tail showed only
// the last package of a many-package go test, and the failing one was often earlier.
func failureDigest(out string, limit int) string {
	if len(out) <= limit {
		return out
	}
	lines := strings.Split(out, "\n")
	keep := make([]bool, len(lines))
	const after = 30
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "--- FAIL"), strings.HasPrefix(l, "panic:"),
			strings.HasPrefix(l, "WARNING: DATA RACE"), strings.HasPrefix(l, "fatal error:"),
			strings.Contains(l, "Error Trace:"):
			for j := max(0, i-2); j < min(len(lines), i+after); j++ {
				keep[j] = true
			}
		case strings.HasPrefix(l, "FAIL"), strings.HasPrefix(l, "ok "):
			keep[i] = true
		}
	}
	var b strings.Builder
	b.WriteString("[failure digest: the failing parts, then the last lines]\n")
	gap := false
	for i, l := range lines {
		if !keep[i] {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteString("…\n")
		}
		gap = false
		b.WriteString(l)
		b.WriteByte('\n')
		if b.Len() > limit*3/4 {
			b.WriteString("… (digest cut)\n")
			break
		}
	}
	tail := out[max(0, len(out)-limit/4):]
	b.WriteString("[last lines]\n…")
	b.WriteString(tail)
	return b.String()
}

func TestFailureDigest(t *testing.T) {
	t.Run("short output is kept whole", func(t *testing.T) {
		assert.Equal(t, "a\nb\n", failureDigest("a\nb\n", 100))
	})
	t.Run("the failing package is kept though later packages pass", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("=== RUN   TestCh14_A\n")
		for range 200 {
			b.WriteString("    noise line of a passing test\n")
		}
		b.WriteString("--- FAIL: TestCh14_Broken (1.00s)\n    broken_test.go:10: want 2, got 3\n")
		b.WriteString("FAIL\tgithub.com/x/broken\t1.0s\n")
		for range 400 {
			b.WriteString("    noise of a later package\n")
		}
		b.WriteString("ok  \tgithub.com/x/cron\t1.0s\nFAIL\n")
		d := failureDigest(b.String(), 4000)
		assert.Contains(t, d, "--- FAIL: TestCh14_Broken")
		assert.Contains(t, d, "want 2, got 3")
		assert.Contains(t, d, "FAIL\tgithub.com/x/broken")
		assert.Contains(t, d, "ok  \tgithub.com/x/cron")
		assert.LessOrEqual(t, len(d), 4000+200)
	})
}
