package cronjob_test

import (
	"bytes"
	"context"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// goldenWrites renders the CronJob controller's writes (hops with a cause, and events) as
// trace.NewPlainLogger prints them, without rv or the events' errors, which depend on
// timing (two events about one object at one virtual instant collide on the server).
func goldenWrites(buf *bytes.Buffer) *slog.Logger {
	var mu sync.Mutex
	plain := trace.NewPlainLogger(buf)
	return slog.New(trace.NewTap(func(r *trace.Record) {
		if r.Component != "cronjob-controller" || (r.Op != "event" && r.Text("cause") == "") {
			return
		}
		attrs := []slog.Attr{slog.String(trace.KeyComponent, r.Component), slog.String(trace.KeyOp, r.Op), slog.String(trace.KeyKey, r.Key)}
		for _, a := range r.Attrs {
			if a.Key != "err" || r.Op != "event" {
				attrs = append(attrs, a)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		plain.LogAttrs(context.Background(), slog.LevelDebug, r.Message, attrs...)
	}))
}

// TestCh14_CronJob_GoldenTrace: a half-hourly Forbid CronJob over two hours: create,
// JobAlreadyActive, the late start once the Job finished, the history limit's delete.
func TestCh14_CronJob_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"cronjob"}, Logger: goldenWrites(&buf)})
		c.Create(t, app.CronJobs, ns, cronJobObject("report", "*/30 * * * *", map[string]any{"concurrencyPolicy": "Forbid", "successfulJobsHistoryLimit": int64(1)}))
		advance(c, time.Hour+10*time.Minute) // 00:30 starts; 01:00 is held back
		finishJob(t, c, jobsOf(t, c, "report")[0], true)
		c.Settle() // 01:00 starts late
		advance(c, 10*time.Minute)
		finishJob(t, c, *c.Get(t, app.Jobs, ns, jobName("report", at("01:00"))), true)
		c.Settle() // the 00:30 Job goes: one successful Job is kept
		advance(c, 10*time.Minute)
		c.Settle()
		got := buf.String()
		path := filepath.Join("testdata", "cronjob.golden")
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			return
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run with -update to create it")
		require.Equal(t, string(want), got)
	})
}
