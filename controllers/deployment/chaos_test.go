package deployment_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
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

// summary is the state a run converges to, without names that vary between runs.
func summary(t *testing.T, c *cluster.Cluster) string {
	t.Helper()
	st := statusOf(t, getDeploy(t, c, "web"))
	var images []string
	for _, p := range activePods(t, c) {
		cs := app.NestedMap(p.Object, "spec")["containers"].([]any)
		images = append(images, cs[0].(map[string]any)["image"].(string))
	}
	sort.Strings(images)
	return fmt.Sprintf("replica sets %s; pods %s; status replicas=%d updated=%d available=%d; revision %s",
		sizes(t, c), strings.Join(images, ","), st.Replicas, st.UpdatedReplicas, st.AvailableReplicas,
		getDeploy(t, c, "web").GetAnnotations()["deployment.kubernetes.io/revision"])
}

// TestCh14_Deployment_ChaosConverges: the same create, scale and image change, once on a
// quiet server and once with dropped events, closed watches, a compaction (410 on rewatch,
// so the informers relist) and a restart of the controller manager in the middle: both end
// in the same state.
func TestCh14_Deployment_ChaosConverges(t *testing.T) {
	const want = "replica sets r1=0 r2=4; pods nginx:2,nginx:2,nginx:2,nginx:2; status replicas=4 updated=4 available=4; revision 2"
	for _, chaos := range []bool{false, true} {
		t.Run(fmt.Sprintf("chaos=%v", chaos), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := startCluster(t)
				fault := func(f func()) {
					if chaos {
						f()
					}
				}
				// a lost event is missed until the informer relists: compact, then close the
				// watches, so every rewatch gets 410 Gone and relists
				relist := func() { c.Settle(); c.Server.ClearFaults(); c.Server.CompactAll(); c.Server.CloseAllWatches() }
				fault(func() { c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Type: watch.Added}) })
				c.Create(t, app.Deployments, "default", deployObject("web", "nginx:1", 3))
				fault(relist)
				c.Eventually(t, 10*time.Minute, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })

				fault(func() { c.Server.DropNextEvents(apiserver.DropRule{Count: 3, Type: watch.Modified}) })
				update(t, c, "web", setReplicas(4))
				fault(relist)
				fault(func() {
					// the manager dies and a new one starts while the Deployment changes
					c.Manager.Stop()
					update(t, c, "web", setImage("nginx:2"))
					m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"deployment", "replicaset"}})
					require.NoError(t, err)
					t.Cleanup(m.Stop)
					c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
					relist()
				})
				if !chaos {
					update(t, c, "web", setImage("nginx:2"))
				}
				c.Eventually(t, 10*time.Minute, func() bool {
					readyAll(t, c)
					return rolledOut(t, c, "web") && summary(t, c) == want
				}, "converge: %s", summary(t, c))
			})
		})
	}
}
