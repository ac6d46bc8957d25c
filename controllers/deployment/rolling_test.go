package deployment_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
	"log/slog"
)

// scaleLog records the deployment controller's ReplicaSet writes from its trace.
type scaleLog struct {
	mu    sync.Mutex
	steps []string
}

func (l *scaleLog) logger() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		if r.Component != "deployment" || (r.Op != "scale" && r.Op != "create") || r.Text("err") != "<nil>" {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if r.Op == "create" {
			n, _ := r.Int("replicas")
			l.steps = append(l.steps, fmt.Sprintf("create new=%d", n))
			return
		}
		from, _ := r.Int("from")
		to, _ := r.Int("to")
		l.steps = append(l.steps, fmt.Sprintf("%s %d->%d", r.Key, from, to))
	}))
}

func (l *scaleLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.steps...)
}

// TestCh14_Deployment_RollingUpdateRespectsSurgeAndUnavailable: kubectl set image rolls the
// pods; at every step the ReplicaSets never hold more than replicas+maxSurge pods and the
// ready pods never fall below replicas-maxUnavailable. The sequence of scalings is upstream's.
func TestCh14_Deployment_RollingUpdateRespectsSurgeAndUnavailable(t *testing.T) {
	tests := []struct {
		name                string
		replicas            int64
		maxSurge, maxUnavai any
		surge, unavailable  int
		first               string
	}{
		{"surge 1 unavailable 0", 3, int64(1), int64(0), 1, 0, "create new=1"},
		{"25% of 4 (the defaults: surge rounds up, unavailable down)", 4, nil, nil, 1, 1, "create new=1"},
		{"50% surge of 4, 0 unavailable", 4, "50%", int64(0), 2, 0, "create new=2"},
		{"10% of 10: surge 1, unavailable 1", 10, "10%", "10%", 1, 1, "create new=1"},
		{"0 surge, 1 unavailable", 3, int64(0), int64(1), 0, 1, "create new=0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				log := &scaleLog{}
				c := cluster.Start(t, cluster.Options{Controllers: []string{"deployment", "replicaset"}, Logger: log.logger()})
				obj := deployObject("web", "nginx:1", tc.replicas)
				if tc.maxSurge != nil {
					app.NestedMap(obj, "spec")["strategy"] = map[string]any{"type": "RollingUpdate",
						"rollingUpdate": map[string]any{"maxSurge": tc.maxSurge, "maxUnavailable": tc.maxUnavai}}
				}
				c.Create(t, app.Deployments, "default", obj)
				c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
				rss := replicaSets(t, c)
				require.Len(t, rss, 1)
				oldName := rss[0].GetName()
				start := len(log.get())

				update(t, c, "web", setImage("nginx:2"))
				c.Eventually(t, 60*time.Second, func() bool {
					total, readyPods := 0, 0
					for _, rs := range c.List(t, app.ReplicaSets, "default") {
						n, _ := app.NestedInt64(rs.Object, "spec", "replicas")
						total += int(n)
					}
					for _, p := range activePods(t, c) {
						if app.IsPodReady(&p) {
							readyPods++
						}
					}
					require.LessOrEqual(t, total, int(tc.replicas)+tc.surge, "maxSurge exceeded: %s", sizes(t, c))
					require.GreaterOrEqual(t, readyPods, int(tc.replicas)-tc.unavailable, "maxUnavailable exceeded: %s", sizes(t, c))
					readyAll(t, c) // the kubelet's part, one round per step
					return rolledOut(t, c, "web") && len(activePods(t, c)) == int(tc.replicas)
				})
				var got []string
				for _, s := range log.get()[start:] {
					s = strings.Replace(s, "default/"+oldName, "old", 1)
					if strings.HasPrefix(s, "default/web-") {
						s = "new" + s[strings.Index(s, " "):]
					}
					got = append(got, s)
				}
				t.Log(got)
				checkSteps(t, got, tc.first, int(tc.replicas), int(tc.replicas)+tc.surge)
				require.Equal(t, "r1=0 r2="+fmt.Sprint(tc.replicas), sizes(t, c))
				for _, p := range activePods(t, c) {
					cs := app.NestedMap(p.Object, "spec")["containers"].([]any)
					require.Equal(t, "nginx:2", cs[0].(map[string]any)["image"])
				}
			})
		})
	}
}

// checkSteps replays the scalings: the new ReplicaSet only grows, the old one only shrinks,
// together they never exceed limit, and the rollout ends with the old one at 0.
func checkSteps(t *testing.T, steps []string, first string, replicas, limit int) {
	t.Helper()
	require.NotEmpty(t, steps)
	require.Equal(t, first, steps[0])
	oldN, newN := replicas, 0
	fmt.Sscanf(steps[0], "create new=%d", &newN)
	for _, s := range steps[1:] {
		var who string
		var from, to int
		_, err := fmt.Sscanf(s, "%s %d->%d", &who, &from, &to)
		require.NoError(t, err, s)
		switch who {
		case "old":
			require.Equal(t, oldN, from, s)
			require.Less(t, to, from, s)
			oldN = to
		case "new":
			require.Equal(t, newN, from, s)
			require.Greater(t, to, from, s)
			newN = to
		default:
			t.Fatalf("unexpected step %q", s)
		}
		require.LessOrEqual(t, oldN+newN, limit, "after %q", s)
	}
	require.Equal(t, 0, oldN)
	require.Equal(t, replicas, newN)
}
