package ch14

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// TestCh14_Sync_ChaosConverges: the ReplicaSet is scaled while the server drops watch events,
// closes every watch, compacts its history (410, relist) and the controller is restarted
// mid-way (new caches, empty expectations), then a last restart heals what the dropped events
// hid. Level-triggered, with expectations that time out, the controller ends where a quiet run
// ends: the last spec.replicas pods, and the status saying so.
func TestCh14_Sync_ChaosConverges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{})
		_, pc, stop := startRSStoppable(t, c, nil, nil)
		c.Create(t, app.ReplicaSets, "default", replicaSet("web-rs", 4))
		faults := []func(){
			func() { c.Server.DropNextEvents(apiserver.DropRule{Count: 3}) },
			c.Server.CloseAllWatches,
			func() { c.Server.CompactAll(); c.Server.CloseAllWatches() },
			func() { // a restart: a new controller with empty caches and no expectations
				stop()
				_, _, stop = startRSStoppable(t, c, nil, pc)
			},
		}
		for i, replicas := range []int{6, 2, 7, 3, 5} {
			faults[i%len(faults)]()
			scale(t, c, "web-rs", replicas)
			c.Settle()
			time.Sleep(2 * time.Second)
		}
		// Events the server dropped are lost to the caches until they list again (chapter 12).
		// A drop rule not used up would eat the events of that list too (watch-list streams the
		// list as events), so the network heals first; then one more restart: fresh caches, a
		// full list.
		c.Server.ClearFaults()
		stop()
		_, _, stop = startRSStoppable(t, c, nil, pc)
		t.Cleanup(func() { stop() })
		c.Eventually(t, 15*time.Minute, func() bool { return len(podNames(t, c)) == 5 }, "5 pods in the end")
		c.Eventually(t, 15*time.Minute, func() bool {
			n, _ := app.NestedInt64(c.Get(t, app.ReplicaSets, "default", "web-rs").Object, "status", "replicas")
			return n == 5
		}, "the status says 5")
		time.Sleep(ExpectationsTimeout + time.Minute) // and it stays there
		c.Settle()
		assert.Len(t, podNames(t, c), 5)
	})
}
