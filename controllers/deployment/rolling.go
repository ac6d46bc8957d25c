package deployment

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// rolloutRolling mirrors rolloutRolling: scale the new ReplicaSet up as far as maxSurge
// allows, else the old ones down as far as maxUnavailable allows, then report; clean up old
// ReplicaSets once the rollout is complete.
func (c *Controller) rolloutRolling(ctx context.Context, d *deployment, rsList []*api.Unstructured) error {
	newRS, oldRSs, err := c.getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(append([]*api.Unstructured(nil), oldRSs...), newRS)
	scaledUp, err := c.reconcileNewReplicaSet(ctx, allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	scaledDown, err := c.reconcileOldReplicaSets(ctx, allRSs, filterActive(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(ctx, allRSs, newRS, d)
	}
	if d.deploymentComplete(&d.status) {
		if err := c.cleanupDeployment(ctx, oldRSs, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(ctx, allRSs, newRS, d)
}

// reconcileNewReplicaSet mirrors reconcileNewReplicaSet.
func (c *Controller) reconcileNewReplicaSet(ctx context.Context, allRSs []*api.Unstructured, newRS *api.Unstructured, d *deployment) (bool, error) {
	cur := specReplicas(newRS)
	if cur == d.replicas {
		return false, nil
	}
	if cur > d.replicas {
		scaled, _, err := c.scaleReplicaSet(ctx, newRS, d.replicas, d, false, "new replica set above spec.replicas")
		return scaled, err
	}
	n, err := d.newRSNewReplicas(allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := c.scaleReplicaSet(ctx, newRS, n, d, false, "rolling update: scale up within maxSurge")
	return scaled, err
}

// reconcileOldReplicaSets mirrors reconcileOldReplicaSets: how many old pods may go now
// without going below spec.replicas - maxUnavailable available, counting the new
// ReplicaSet's unavailable pods; unhealthy old pods go first.
func (c *Controller) reconcileOldReplicaSets(ctx context.Context, allRSs, oldRSs []*api.Unstructured, newRS *api.Unstructured, d *deployment) (bool, error) {
	if sumSpec(oldRSs) == 0 {
		return false, nil
	}
	minAvailable := d.replicas - d.MaxUnavailable()
	newUnavailable := specReplicas(newRS) - rsStatus(newRS).AvailableReplicas
	maxScaledDown := sumSpec(allRSs) - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	oldRSs, cleaned, err := c.cleanupUnhealthyReplicas(ctx, oldRSs, d, maxScaledDown)
	if err != nil {
		return false, nil // as upstream: the next sync tries again
	}
	all := append(append([]*api.Unstructured(nil), oldRSs...), newRS)
	scaled, err := c.scaleDownOldReplicaSetsForRollingUpdate(ctx, all, oldRSs, d)
	if err != nil {
		return false, nil
	}
	return cleaned+scaled > 0, nil
}

// cleanupUnhealthyReplicas mirrors cleanupUnhealthyReplicas: scale old ReplicaSets down by
// their unavailable pods, oldest first, up to maxCleanup.
func (c *Controller) cleanupUnhealthyReplicas(ctx context.Context, oldRSs []*api.Unstructured, d *deployment, maxCleanup int32) ([]*api.Unstructured, int32, error) {
	sortByCreation(oldRSs)
	total := int32(0)
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		n, avail := specReplicas(rs), rsStatus(rs).AvailableReplicas
		if n == 0 || n == avail {
			continue
		}
		down := min(maxCleanup-total, n-avail)
		if n-down > n {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s %d -> %d", keyOf(rs), n, n-down)
		}
		_, updated, err := c.scaleReplicaSet(ctx, rs, n-down, d, false, "rolling update: remove unavailable old pods")
		if err != nil {
			return nil, total, err
		}
		total += down
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate mirrors scaleDownOldReplicaSetsForRollingUpdate:
// scale old ReplicaSets down, oldest first, by the available pods above minAvailable.
func (c *Controller) scaleDownOldReplicaSetsForRollingUpdate(ctx context.Context, allRSs, oldRSs []*api.Unstructured, d *deployment) (int32, error) {
	minAvailable := d.replicas - d.MaxUnavailable()
	avail := sumStatus(allRSs, available)
	if avail <= minAvailable {
		return 0, nil
	}
	sortByCreation(oldRSs)
	total, want := int32(0), avail-minAvailable
	for _, rs := range oldRSs {
		if total >= want {
			break
		}
		n := specReplicas(rs)
		if n == 0 {
			continue
		}
		down := min(n, want-total)
		if _, _, err := c.scaleReplicaSet(ctx, rs, n-down, d, false, "rolling update: scale down within maxUnavailable"); err != nil {
			return total, err
		}
		total += down
	}
	return total, nil
}
