package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/informer"
)

// TestDemo_Tour runs the whole tour in the fast mode through each informer profile and checks
// what it counted: the teaching points of docs/behaviour/client-go.md §13 the tour claims to show.
func TestDemo_Tour(t *testing.T) {
	for _, p := range []informer.Profile{informer.ProfileClassic, informer.ProfileInOrder, informer.ProfileCurrent} {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := runTour(ctx, tourConfig{profile: p, resync: time.Second, burst: 1100, collapse: 10, out: &out})
			require.NoError(t, err, out.String())
			require.Len(t, res.steps, tourSteps)
			text := out.String()

			// Step 3, T17: ten updates while the worker holds the key → exactly two reconciles.
			assert.Equal(t, int64(10), res.collapseUpdates, "OnUpdate calls of step 3")
			assert.Equal(t, int64(2), res.collapseReconciles, "reconciles of step 3")

			// Step 4, T12/PL-6: the stuck handler's ring grew past 1024 and doubled; the prompt one
			// never buffered that much; everything was delivered in order.
			assert.Greater(t, res.auditPeak, int64(1024))
			assert.Equal(t, int64(2048), res.auditCap)
			assert.Less(t, res.schedPeak, int64(1024))
			assert.Zero(t, res.auditOutOfOrder)

			// Step 5, T4/T9: exactly one relist, after the compaction; a tombstone per handler.
			assert.Equal(t, int64(1), res.relists, "relists during step 5")
			assert.Equal(t, int64(1), max(res.total["reflector/replace"]-1, 0), "relists in the whole tour")
			assert.GreaterOrEqual(t, res.tombstones, int64(1))
			assert.Equal(t, int64(1), res.total["handler/scheduler/tombstone"])
			assert.Contains(t, text, "too old resource version")
			assert.Contains(t, text, "DeletedFinalStateUnknown")

			// Step 6, T19: three failures, three rate-limited requeues, then Forget clears them.
			assert.Equal(t, int64(3), res.retries)
			assert.Equal(t, int64(3), res.forgetRequeues)
			s6 := res.steps[5].counts
			assert.Equal(t, int64(3), s6["workqueue/requeue"])
			assert.Contains(t, text, "AddRateLimited: back in 5ms")

			// Step 7, T6: a resync reaches audit for every cached pod, never the scheduler, and
			// makes no API request.
			assert.GreaterOrEqual(t, res.resyncHandlerCalls, 3)
			assert.Zero(t, res.schedulerResyncCalls)
			assert.Zero(t, res.resyncRequests, "API requests during the resync step")
			assert.Empty(t, res.steps[6].requests)

			// How the informer syncs: watch-list in the current profile (T24), LIST otherwise.
			if p == informer.ProfileCurrent {
				assert.Zero(t, res.requests["list"], "the current profile never LISTs")
			} else {
				assert.Equal(t, 2, res.requests["list"], "the first LIST and the relist")
			}

			// The output tells the story in order and ends with the summary.
			for i, title := range []string{"Step 1/7", "Step 2/7", "Step 3/7", "Step 4/7", "Step 5/7", "Step 6/7", "Step 7/7", "Summary · profile " + p.String()} {
				idx := strings.Index(text, title)
				require.GreaterOrEqual(t, idx, 0, "missing %q", title)
				text = text[idx:]
				_ = i
			}
			assert.Contains(t, text, "relists           1")
			assert.NotContains(t, out.String(), "\x1b[", "no colour when not asked")
		})
	}
}

// TestDemo_TourFlags checks the CLI in front of the tour: bad values are usage errors (exit
// 2) with a clear message, never a panic.
func TestDemo_TourFlags(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tour", "--profile", "v2"}, 2, "--profile must be classic, inorder, current or all"},
		{[]string{"tour", "--burst", "0"}, 2, "--burst must be between 1 and 100000"},
		{[]string{"tour", "--resync", "10ms"}, 2, "--resync must be at least 1s"},
		{[]string{"tour", "--color", "pink"}, 2, "--color must be auto, always or never"},
		{[]string{"tour", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"tour", "--nope"}, 2, "flag provided but not defined"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run", "--follow", "nope"}, 2, "--follow wants namespace/name"},
		{[]string{"run", "--rate", "-1"}, 2, "--rate must be between 0 and 1000"},
		{[]string{"watch", "--resource", ""}, 2, "--resource must not be empty"},
		{[]string{"serve", "--listen", "nonsense"}, 2, "--listen must be host:port"},
		{[]string{"serve", "--seed-pods", "-1"}, 2, "--seed-pods must be between 0 and 10000"},
		{[]string{"serve", "--token", "a b"}, 2, "must not contain white space"},
		{[]string{"serve", "--authorization", "ABAC"}, 2, `unknown authorization mode "ABAC"`},
		{[]string{"serve", "--listen", "127.0.0.1:99999"}, 2, "the port must be a number from 0 to 65535"},
		{[]string{"run", "--ui", "nonsense"}, 2, "--ui must be host:port"},
		{[]string{"run", "--ui", ":70000"}, 2, "the port must be a number from 0 to 65535"},
		{[]string{"watch", "--server", "ftp://x"}, 2, "the scheme must be http or https"},
		{[]string{"watch", "--server", "http://"}, 2, "names no host"},
		{[]string{"watch", "--request-timeout", "-1s"}, 2, "--request-timeout must not be negative"},
		{[]string{"watch", "--nope"}, 2, `flag provided but not defined: -nope (see "demo watch -h")`},
		{[]string{"serve", "-n", "x"}, 2, `flag provided but not defined: -n (see "demo serve -h")`},
		{[]string{"help"}, 0, ""},
		{[]string{"tour", "-h"}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tc.code, code, stderr.String())
			assert.Contains(t, stderr.String(), tc.want)
			if code == 2 && tc.args[0] != "frobnicate" { // an unknown command also gets the usage
				// A mistake is said once, on stderr; the flag list is not dumped on stdout.
				assert.Empty(t, stdout.String())
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
			}
		})
	}
}

// TestDemo_HelpGoesToStdout: -h prints the flags of the command on stdout and exits 0.
func TestDemo_HelpGoesToStdout(t *testing.T) {
	for _, cmd := range []string{"tour", "run", "watch", "serve"} {
		t.Run(cmd, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{cmd, "-h"}, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 0, code)
			assert.Contains(t, stdout.String(), "Usage of demo "+cmd+":")
			assert.Regexp(t, `\n  -[a-z-]+ `, stdout.String(), "the flag list")
			assert.Empty(t, stderr.String())
		})
	}
}

// TestDemo_DefaultCommandIsTour runs `demo --fast --step` as make demo would run `demo`: the
// default command is the tour, --step waits for Enter before each of the seven steps (the
// instructor's pace), and the run ends with the summary and exit code 0. A small burst keeps
// it short; TestDemo_Tour checks the counts with the full one.
func TestDemo_DefaultCommandIsTour(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	enter := strings.NewReader(strings.Repeat("\n", tourSteps))
	code := run(ctx, []string{"--fast", "--step", "--burst", "50", "--profile", "classic"}, enter, &stdout, &stderr)
	require.Equal(t, 0, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Empty(t, stderr.String())
	text := stdout.String()
	assert.Equal(t, tourSteps, strings.Count(text, "(press Enter for the next step)"))
	assert.Contains(t, text, "informer-lab tour · profile classic")
	assert.Contains(t, text, "Step 7/7 · Resync is not relist")
	assert.Contains(t, text, "━━ Summary · profile classic")
	assert.Regexp(t, `API requests\s+list 2 · watch \d+`, text)
	assert.Contains(t, text, "relists           1")
	assert.NotContains(t, text, "\x1b[", "a buffer is not a terminal: no colour")
}
