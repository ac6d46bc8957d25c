package deployment

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// rolloutRecreate mirrors rolloutRecreate: every old pod goes first; the new ReplicaSet is
// created and scaled up only once none of them runs.
func (c *Controller) rolloutRecreate(ctx context.Context, d *deployment, rsList []*api.Unstructured, podMap map[string][]*api.Unstructured) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(append([]*api.Unstructured(nil), oldRSs...), newRS)
	scaled := false
	for _, rs := range filterActive(oldRSs) {
		s, _, err := c.scaleReplicaSet(ctx, rs, 0, d, false, "recreate: scale old replica sets to 0")
		if err != nil {
			return err
		}
		scaled = scaled || s
	}
	if scaled {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if oldPodsRunning(newRS, oldRSs, podMap) {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(append([]*api.Unstructured(nil), oldRSs...), newRS)
	}
	if _, _, err := c.scaleReplicaSet(ctx, newRS, d.replicas, d, false, "recreate: old pods gone, scale up"); err != nil {
		return err
	}
	if d.deploymentComplete(&d.status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// oldPodsRunning mirrors oldPodsRunning: an old ReplicaSet still reports pods, or one of
// its pods has not finished (Succeeded or Failed).
func oldPodsRunning(newRS *api.Unstructured, oldRSs []*api.Unstructured, podMap map[string][]*api.Unstructured) bool {
	if sumStatus(oldRSs, actual) > 0 {
		return true
	}
	for uid, pods := range podMap {
		if newRS != nil && newRS.GetUID() == uid {
			continue
		}
		for _, p := range pods {
			if ph := app.PodPhase(p); ph != "Failed" && ph != "Succeeded" {
				return true
			}
		}
	}
	return false
}
