package replicaset_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_ReplicaSet_ChaosConverges: create 5, scale to 2; with dropped pod events, 410
// relists and a restart of the controller manager the ReplicaSet ends as on a quiet
// server: 2 ready pods, and the status says so.
func TestCh14_ReplicaSet_ChaosConverges(t *testing.T) {
	const want = "pods=2 status replicas=2 ready=2 available=2"
	for _, chaos := range []bool{false, true} {
		t.Run(fmt.Sprintf("chaos=%v", chaos), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := cluster.Start(t, cluster.Options{Controllers: []string{"replicaset"}})
				fault := func(f func()) {
					if chaos {
						f()
					}
				}
				relist := func() { c.Settle(); c.Server.ClearFaults(); c.Server.CompactAll(); c.Server.CloseAllWatches() }
				fault(func() { c.Server.DropNextEvents(apiserver.DropRule{Count: 3, Type: watch.Added}) })
				rs := c.Create(t, app.ReplicaSets, "default", rsObject("web", 5))
				fault(relist)
				c.Eventually(t, 10*time.Minute, func() bool { readyAll(t, c, rs.GetUID()); return len(podsOf(t, c, rs.GetUID())) == 5 })
				require.Len(t, c.List(t, app.Pods, "default"), 5, "the lagging informer made no extra pod")
				fault(func() {
					c.Manager.Stop()
					c.Server.DropNextEvents(apiserver.DropRule{Count: 2, Type: watch.Deleted})
				})
				// readyAll's status writes above wake the controller, which may still be
				// writing the ReplicaSet's status: scale as kubectl edit would, again on a 409
				scaleTo(t, c, "web", 2)
				fault(func() {
					m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"replicaset"}})
					require.NoError(t, err)
					t.Cleanup(m.Stop)
					relist()
				})
				state := func() string {
					cur := c.Get(t, app.ReplicaSets, "default", "web")
					return fmt.Sprintf("pods=%d status replicas=%d ready=%d available=%d", len(podsOf(t, c, rs.GetUID())),
						nested(cur, "status", "replicas"), nested(cur, "status", "readyReplicas"), nested(cur, "status", "availableReplicas"))
				}
				c.Eventually(t, 10*time.Minute, func() bool { readyAll(t, c, rs.GetUID()); return state() == want }, "converge")
				require.Len(t, c.List(t, app.Pods, "default"), 2)
			})
		})
	}
}
