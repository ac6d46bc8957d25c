package deployment_test

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden")

// lanes collects the hops of the two controllers, one lane each, every distinct line once
// in the order it first happened. Within a lane the order is causal (one key, one worker at
// a time); across lanes, and between repeats of a status write, it depends on scheduling,
// which a golden file must not show.
type lanes struct {
	mu    sync.Mutex
	lines map[string][]string
	seen  map[string]bool
}

var podSuffix = regexp.MustCompile(`(default/web-\w+)-\w{5}\b`)

func (l *lanes) tap() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		lane := map[string]string{"deployment": "deployment", "deployment-controller": "deployment",
			"replicaset": "replicaset", "replicaset-controller": "replicaset"}[r.Component]
		if lane == "" || r.Op == "sync" || r.Op == "synced" {
			return
		}
		line := r.Op + " " + r.Key
		for _, a := range []string{"cause", "reason", "replicas", "from", "to", "err"} {
			if r.Op == "update-status" && a == "replicas" {
				continue // how many status writes see which count depends on timing
			}
			if v := r.Text(a); v != "" && v != "<nil>" {
				if a == "err" && (strings.Contains(v, "the object has been modified") || strings.Contains(v, "already exists")) {
					// a write from a stale cache conflicts and is retried; events of one
					// instant share a name: both happen or not as goroutines interleave
					return
				}
				line += fmt.Sprintf(" %s=%q", a, v)
			}
		}
		line = podSuffix.ReplaceAllString(line, "$1-xxxxx")
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.seen[lane+line] {
			l.seen[lane+line] = true
			l.lines[lane] = append(l.lines[lane], line)
		}
	}))
}

// TestCh14_Deployment_GoldenCreateTrace: the writes of one `kubectl create deployment web
// --image=nginx --replicas=3` through the Deployment and ReplicaSet controllers, until the
// rollout is complete.
func TestCh14_Deployment_GoldenCreateTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &lanes{lines: map[string][]string{}, seen: map[string]bool{}}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"deployment", "replicaset"}, Logger: l.tap()})
		c.Create(t, app.Deployments, "default", deployObject("web", "nginx", 3))
		c.Eventually(t, 30*time.Second, func() bool { return len(activePods(t, c)) == 3 })
		readyAll(t, c)
		c.Eventually(t, 30*time.Second, func() bool { return rolledOut(t, c, "web") })
		c.Settle()
		l.mu.Lock()
		var b strings.Builder
		for _, lane := range []string{"deployment", "replicaset"} {
			fmt.Fprintf(&b, "== %s controller\n", lane)
			for _, line := range l.lines[lane] {
				b.WriteString(line + "\n")
			}
		}
		l.mu.Unlock()
		st := statusOf(t, getDeploy(t, c, "web"))
		fmt.Fprintf(&b, "== final\ndeployment web: replicas=%d updated=%d ready=%d available=%d observedGeneration=%d\n",
			st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, st.ObservedGeneration)
		for _, cnd := range st.Conditions {
			fmt.Fprintf(&b, "condition %s=%s %s: %s\n", cnd.Type, cnd.Status, cnd.Reason, cnd.Message)
		}
		fmt.Fprintf(&b, "replica sets: %s\n", sizes(t, c))
		got := b.String()
		const path = "testdata/create_deployment.golden"
		if *updateGolden {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if d := cmp.Diff(string(want), got); d != "" {
			t.Errorf("%s differs (-want +got); rerun with -update to accept:\n%s", path, d)
		}
	})
}
