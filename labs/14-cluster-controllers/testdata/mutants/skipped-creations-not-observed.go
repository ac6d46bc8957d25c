// manageReplicas records the expectations, but when a batch fails it leaves the creations
// that failed or were never attempted in them.
//
// Plausible because "the informer observes creations"; but a pod that was never created is
// never observed, so the ReplicaSet waits ExpectationsTimeout (five minutes) before it tries
// again, instead of the retry's backoff.
//
// File: chapters/14-cluster-controllers/manage.go
// Caught by: TestCh14_Sync_CreateFailuresStopTheBatch
package ch14

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

func (c *ReplicaSetController) manageReplicas(ctx context.Context, filteredPods []*api.Unstructured, rs *api.Unstructured) error {
	key := rsKey(rs)
	diff := len(filteredPods) - specReplicas(rs)
	switch {
	case diff < 0:
		diff = min(-diff, BurstReplicas)
		c.expectations.ExpectCreations(key, diff)
		ref := app.NewControllerRef(rs)
		template := app.NestedMap(rs.Object, "spec", "template")
		_, err := slowStartBatch(diff, SlowStartInitialBatchSize, func() error {
			pod := app.GetPodFromTemplate(template, rs, &ref)
			created, err := c.podControl.CreatePod(ctx, pod)
			if err != nil {
				return err
			}
			c.hop("create-pod", created.GetNamespace()+"/"+created.GetName(), created.GetResourceVersion(),
				slog.String("cause", fmt.Sprintf("%d of %d replicas missing", diff, specReplicas(rs))))
			return nil
		})
		return err
	case diff > 0:
		diff = min(diff, BurstReplicas)
		doomed := getPodsToDelete(filteredPods, diff)
		keys := make([]string, len(doomed))
		for i, p := range doomed {
			keys[i] = p.GetNamespace() + "/" + p.GetName()
		}
		c.expectations.ExpectDeletions(key, keys)
		errs := make(chan error, len(doomed))
		var wg sync.WaitGroup
		for i, p := range doomed {
			wg.Go(func() {
				if err := c.podControl.DeletePod(ctx, p.GetNamespace(), p.GetName()); err != nil && !api.IsNotFound(err) {
					c.expectations.DeletionObserved(key, keys[i])
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		return <-errs
	}
	return nil
}
