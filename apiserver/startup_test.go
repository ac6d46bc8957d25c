package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The start-up's work, pinned: what BenchmarkStartupToReadyz times, counted instead of
// timed, so that the check holds on a loaded machine. A fresh process (this test binary,
// started again) counts the heap allocations of the module's package initialisers
// (GODEBUG=inittrace) and of New with Bootstrap plus Start, the work between exec and the
// first /readyz: the first use of everything lazy happens there, in a process that has warmed
// nothing. Allocations track the start-up's cost (its page faults and most of its CPU time),
// and unlike a clock they do not move with the load of the machine.

// startupWork is what one fresh start did. Init counts only the module's own packages: the
// standard library's and the test dependencies' depend on the Go release.
type startupWork struct {
	InitAllocs, InitBytes uint64 // package initialisers of github.com/informer-lab/informer-lab/...
	NewAllocs, NewBytes   uint64 // New(Options{Bootstrap: true}) and Start
}

// startupBaseline is startupWork as measured when it was pinned (go1.26, linux/amd64),
// rounded up. TestCh01_StartupWork fails when a start does more than twice as much; when the
// start-up gets cheaper, lower these to keep the margin at 2×.
var startupBaseline = startupWork{
	InitAllocs: 1_300, InitBytes: 170_000,
	NewAllocs: 7_500, NewBytes: 800_000,
}

// startupChildEnv makes the test binary, started again by TestCh01_StartupWork, measure one
// start and print it.
const startupChildEnv = "INFORMER_LAB_STARTUP_CHILD"

// initLine is one line of GODEBUG=inittrace=1: "init pkg @0.5 ms, 0.01 ms clock, 512 bytes, 8 allocs".
var initLine = regexp.MustCompile(`^init (\S+) @.* clock, (\d+) bytes, (\d+) allocs`)

// TestCh01_StartupWork: from exec to the first /readyz a start allocates no more than twice
// startupBaseline, in the package initialisers and in New plus Start. Each figure is the
// least of three fresh processes (a stray goroutine of the runtime can add a few).
func TestCh01_StartupWork(t *testing.T) {
	if os.Getenv(startupChildEnv) == "1" {
		measureStartup(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var least startupWork
	for i := range 3 {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCh01_StartupWork$", "-test.count=1", "-test.v")
		godebug := "inittrace=1"
		if v := os.Getenv("GODEBUG"); v != "" {
			godebug = v + "," + godebug
		}
		cmd.Env = append(os.Environ(), startupChildEnv+"=1", "GODEBUG="+godebug)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "child:\n%s\n%s", stdout.Bytes(), stderr.Bytes())
		w := parseStartup(t, stdout.Bytes(), stderr.Bytes())
		if i == 0 {
			least = w
		}
		least = startupWork{
			InitAllocs: min(least.InitAllocs, w.InitAllocs), InitBytes: min(least.InitBytes, w.InitBytes),
			NewAllocs: min(least.NewAllocs, w.NewAllocs), NewBytes: min(least.NewBytes, w.NewBytes),
		}
	}
	t.Logf("start-up work: %+v (baseline %+v)", least, startupBaseline)
	for _, c := range []struct {
		name      string
		got, base uint64
	}{
		{"allocations of the package initialisers", least.InitAllocs, startupBaseline.InitAllocs},
		{"bytes allocated by the package initialisers", least.InitBytes, startupBaseline.InitBytes},
		{"allocations of New with Bootstrap and Start", least.NewAllocs, startupBaseline.NewAllocs},
		{"bytes allocated by New with Bootstrap and Start", least.NewBytes, startupBaseline.NewBytes},
	} {
		assert.Positive(t, c.got, "%s: nothing measured", c.name)
		assert.LessOrEqual(t, c.got, 2*c.base, "%s: more than twice the pinned %d", c.name, c.base)
	}
}

// measureStartup is the child's part: New and Start in a process that has done nothing else,
// the allocations printed as one JSON line.
func measureStartup(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := New(Options{Bootstrap: true})
	_, err := s.Start("127.0.0.1:0")
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	s.Close()
	b, err := json.Marshal(startupWork{NewAllocs: after.Mallocs - before.Mallocs, NewBytes: after.TotalAlloc - before.TotalAlloc})
	require.NoError(t, err)
	fmt.Printf("startup-work %s\n", b)
}

// parseStartup reads the child's JSON line from stdout and sums the module's package
// initialisers from its inittrace on stderr.
func parseStartup(t *testing.T, stdout, stderr []byte) startupWork {
	t.Helper()
	var w startupWork
	found := false
	for line := range strings.Lines(string(stdout)) {
		if rest, ok := strings.CutPrefix(line, "startup-work "); ok {
			require.NoError(t, json.Unmarshal([]byte(rest), &w))
			found = true
		}
	}
	require.True(t, found, "the child printed no measurement:\n%s", stdout)
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil || !strings.HasPrefix(m[1], "github.com/informer-lab/informer-lab/") {
			continue
		}
		b, _ := strconv.ParseUint(m[2], 10, 64)
		a, _ := strconv.ParseUint(m[3], 10, 64)
		w.InitBytes += b
		w.InitAllocs += a
	}
	return w
}
