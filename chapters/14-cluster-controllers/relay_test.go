package ch14

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// relayControllers are the loops one `kubectl create deployment` passes through, and the
// node lifecycle controller, which lifts the not-ready taint of a node once its kubelet
// reports Ready (the scheduler places nothing on a tainted node).
var relayControllers = []string{"deployment", "replicaset", "scheduler", "kubelet", "nodelifecycle", "garbagecollector"}

// writeLog keeps every controller write (a hop with a cause), in the order they happened.
type writeLog struct {
	mu   sync.Mutex
	recs []*trace.Record
}

func (w *writeLog) logger() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		if _, ok := r.Attr("cause"); ok {
			w.mu.Lock()
			w.recs = append(w.recs, r)
			w.mu.Unlock()
		}
	}))
}

// relayStep is one leg of the relay: the first write of component's op whose attributes
// contain want.
type relayStep struct{ component, op, want string }

var generatedSuffix = regexp.MustCompile(`-[b-df-hj-np-tv-z0-9]{5}\b`)

// first renders the first write matching each step, in the steps' order, pod names' random
// suffixes as -xxxxx. The log's own order is not the relay's: a controller logs its write
// once the server has answered, and by then the next controller may have acted on the
// write's watch event and logged first.
func (w *writeLog) first(steps []relayStep) (lines []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range steps {
		for _, r := range w.recs {
			attrs := fmt.Sprint(r.Attrs)
			if r.Component != s.component || r.Op != s.op || !strings.Contains(attrs, s.want) {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%-10s %-13s %s", r.Component, r.Op, generatedSuffix.ReplaceAllString(r.Key, "-xxxxx"))
			for _, a := range r.Attrs {
				if a.Key != "err" && a.Key != "node" { // which pod lands on which node varies
					fmt.Fprintf(&b, " %s=%q", a.Key, a.Value.String())
				}
			}
			lines = append(lines, b.String())
			break
		}
	}
	return lines
}

// readyPods counts the pods of namespace default that are Ready.
func readyPods(t *testing.T, c *cluster.Cluster) int {
	n := 0
	for _, p := range c.List(t, app.Pods, "default") {
		if app.IsPodReady(&p) {
			n++
		}
	}
	return n
}

// TestCh14_Relay_CreateDeployment follows one `kubectl create deployment web --image=nginx
// --replicas=3` through the cluster's loops on 3 simulated nodes: the deployment controller
// creates a ReplicaSet, the ReplicaSet controller three pods, the scheduler binds them, each
// node's kubelet runs them, and the status climbs back up to the Deployment. The first write
// of each leg is compared with testdata/create-deployment.golden.
func TestCh14_Relay_CreateDeployment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &writeLog{}
		c := cluster.Start(t, cluster.Options{Controllers: relayControllers, Nodes: 3, Logger: w.logger()})
		c.Create(t, app.Deployments, "default", cluster.Deployment("web", 3))
		c.Eventually(t, 30*time.Second, func() bool { return readyPods(t, c) == 3 }, "3 Ready pods")
		c.Eventually(t, 30*time.Second, func() bool {
			n, _ := app.NestedInt64(c.Get(t, app.Deployments, "default", "web").Object, "status", "availableReplicas")
			return n == 3
		}, "the Deployment reports 3 available")

		rss := c.List(t, app.ReplicaSets, "default")
		require.Len(t, rss, 1)
		rs := rss[0]
		assert.Equal(t, "Deployment", app.GetControllerOf(&rs).Kind)
		for _, p := range c.List(t, app.Pods, "default") {
			assert.Equal(t, rs.GetUID(), app.GetControllerOf(&p).UID, "each pod is the ReplicaSet's")
			assert.True(t, strings.HasPrefix(app.NodeName(&p), "sim-node-"), "bound to a simulated node")
			assert.NotEmpty(t, app.NestedString(p.Object, "status", "podIP"))
		}

		lines := w.first([]relayStep{
			{"deployment", "create", "new pod template"},
			{"replicaset", "create", "too few replicas"},
			{"scheduler", "bind", ""},
			{"kubelet", "update-status", "ready=true"},
			{"replicaset", "update-status", "ready=3"},
			{"deployment", "update-status", "available=3"},
		})
		require.Len(t, lines, 6, "every leg wrote:\n%s", strings.Join(lines, "\n"))
		golden(t, "create-deployment.golden", strings.Join(lines, "\n")+"\n")
	})
}

// TestCh14_Relay_DeleteCascades: the garbage collector walks the owner graph. A background
// delete of the Deployment removes it at once and its ReplicaSet and pods after; an orphan
// delete leaves the ReplicaSet with no owner reference; a foreground delete keeps the
// Deployment, marked, with the foregroundDeletion finalizer, until its dependents are gone.
func TestCh14_Relay_DeleteCascades(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: relayControllers, Nodes: 3})
		deployments := c.Client.Resource(app.Deployments).Namespace("default")
		del := func(name, policy string) {
			require.NoError(t, deployments.Delete(context.Background(), name, api.DeleteOptions{PropagationPolicy: &policy}))
		}
		ownedBy := func(owner string) (rss, pods int) {
			for _, rs := range c.List(t, app.ReplicaSets, "default") {
				if strings.HasPrefix(rs.GetName(), owner+"-") {
					rss++
				}
			}
			for _, p := range c.List(t, app.Pods, "default") {
				if strings.HasPrefix(p.GetName(), owner+"-") {
					pods++
				}
			}
			return rss, pods
		}
		for _, name := range []string{"bg", "orphan", "fg"} {
			c.Create(t, app.Deployments, "default", cluster.Deployment(name, 2))
		}
		c.Eventually(t, 30*time.Second, func() bool { return readyPods(t, c) == 6 }, "6 Ready pods")

		del("bg", api.DeletePropagationBackground)
		assert.Nil(t, c.Get(t, app.Deployments, "default", "bg"), "background: the owner goes at once")
		c.Eventually(t, time.Minute, func() bool { rss, pods := ownedBy("bg"); return rss == 0 && pods == 0 },
			"the collector deletes the ReplicaSet, then its pods (after the kubelet's graceful stop)")

		del("orphan", api.DeletePropagationOrphan)
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Deployments, "default", "orphan") == nil })
		c.Settle()
		rss, pods := ownedBy("orphan")
		assert.Equal(t, [2]int{1, 2}, [2]int{rss, pods}, "orphan: the dependents stay")
		for _, rs := range c.List(t, app.ReplicaSets, "default") {
			if strings.HasPrefix(rs.GetName(), "orphan-") {
				assert.Empty(t, rs.GetOwnerReferences(), "and lose their owner reference")
			}
		}

		del("fg", api.DeletePropagationForeground)
		d := c.Get(t, app.Deployments, "default", "fg")
		require.NotNil(t, d, "foreground: the owner stays while its dependents go")
		assert.NotNil(t, d.GetDeletionTimestamp())
		assert.Contains(t, d.GetFinalizers(), "foregroundDeletion")
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Deployments, "default", "fg") == nil },
			"the owner goes once its blocking dependents are gone")
		rss, pods = ownedBy("fg")
		assert.Equal(t, [2]int{0, 0}, [2]int{rss, pods})
	})
}
