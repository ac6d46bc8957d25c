package job_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
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

// goldenTrace renders the writes of one component (its hops with a cause, and its events)
// as trace.NewPlainLogger prints them. Syncs are left out: how many a pod's updates cause
// depends on how the informer batches them. So is the rv: event names collide when two
// events about one object share a virtual instant, and a refused event takes no version.
// So are the status writes of status.active alone: when the Job's informer shows a write
// before the pod informer shows the pod just created, a sync writes active 0 and the
// next 1 again, as upstream's would; which informer is first is the scheduler's choice.
type goldenTrace struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	plain     *slog.Logger
	component string
}

func newGoldenTrace(component string) *goldenTrace {
	g := &goldenTrace{component: component}
	g.plain = trace.NewPlainLogger(&g.buf)
	return g
}

func (g *goldenTrace) logger() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		if r.Component != g.component || (r.Op != "event" && r.Text("cause") == "") || r.Text("cause") == "active pods changed" {
			return
		}
		attrs := []slog.Attr{slog.String(trace.KeyComponent, r.Component), slog.String(trace.KeyOp, r.Op), slog.String(trace.KeyKey, r.Key)}
		for _, a := range r.Attrs {
			if a.Key != "err" || r.Op != "event" {
				attrs = append(attrs, a)
			}
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		g.plain.LogAttrs(context.Background(), slog.LevelDebug, r.Message, attrs...)
	}))
}

// text returns the trace with generated pod names numbered in order of appearance.
func (g *goldenTrace) text(prefix string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	seen := map[string]string{}
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[a-z0-9]{5}\b`)
	return re.ReplaceAllStringFunc(g.buf.String(), func(s string) string {
		if _, ok := seen[s]; !ok {
			seen[s] = fmt.Sprintf("%s<pod%d>", prefix, len(seen)+1)
		}
		return seen[s]
	})
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	require.Equal(t, string(want), got)
}

// TestCh14_Job_GoldenTrace: the Job controller's hops for one Job of two completions
// whose first pod fails: create, back off, recreate, count each pod through
// uncountedTerminatedPods and the finalizer, then SuccessCriteriaMet and Complete.
func TestCh14_Job_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGoldenTrace("job-controller")
		c := cluster.Start(t, cluster.Options{Controllers: []string{"job"}, Logger: g.logger()})
		c.Create(t, app.Jobs, ns, jobObject("pi", map[string]any{"completions": int64(2), "backoffLimit": int64(3)}))
		for _, exit := range []int64{1, 0, 0} {
			var p []string
			c.Eventually(t, time.Minute, func() bool {
				p = nil
				for _, x := range activePods(t, c, "pi") {
					p = append(p, x.GetName())
				}
				return len(p) == 1
			})
			finishPod(t, c, *c.Get(t, app.Pods, ns, p[0]), exit)
			c.Settle()
		}
		c.Eventually(t, time.Minute, func() bool { return condition(jobStatus(t, c, "pi"), "Complete") != nil })
		compareGolden(t, "job", g.text("pi-"))
	})
}
