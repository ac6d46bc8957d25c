package replicaset

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// SlowStartInitialBatchSize mirrors controller.SlowStartInitialBatchSize: creates go out in
// batches of 1, 2, 4, … so that a ReplicaSet over its quota fails once, not 500 times.
const SlowStartInitialBatchSize = 1

// manageReplicas mirrors manageReplicas: create the missing pods in slow-start batches, or
// delete the surplus, the best candidates first, recording expectations before writing.
func (c *Controller) manageReplicas(ctx context.Context, active []*api.Unstructured, u *api.Unstructured, rs *replicaSet, key string) error {
	diff := len(active) - int(rs.replicas)
	switch {
	case diff < 0:
		diff = min(-diff, c.burst)
		// expect before writing: the informer may deliver a pod before Create returns
		c.expectations.ExpectCreations(key, diff)
		ref := app.NewControllerRef(u)
		n, err := slowStartBatch(diff, SlowStartInitialBatchSize, func() error {
			err := c.createPod(ctx, u, rs, &ref, len(active), diff)
			if err != nil && api.HasStatusCause(err, "NamespaceTerminating") {
				return nil // every create will fail until the namespace is gone
			}
			return err
		})
		// the pods never attempted will never be seen: stop waiting for them
		for range diff - n {
			c.expectations.CreationObserved(key)
		}
		return err
	case diff > 0:
		diff = min(diff, c.burst)
		related := c.getIndirectlyRelatedPods(u)
		victims := getPodsToDelete(active, related, diff, c.now())
		keys := make([]string, len(victims))
		for i, p := range victims {
			keys[i] = keyOf(p)
		}
		c.expectations.ExpectDeletions(key, keys)
		errs := make([]error, len(victims))
		var wg sync.WaitGroup
		for i, p := range victims {
			wg.Go(func() {
				if err := c.deletePodOf(ctx, u, p, len(active), rs.replicas); err != nil {
					c.expectations.DeletionObserved(key, keyOf(p)) // never coming
					if !api.IsNotFound(err) {
						errs[i] = err
					}
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err // they are likely all the same: report the first
			}
		}
	}
	return nil
}

// createPod mirrors RealPodControl.CreatePods: a pod from the template, owned by rs, and
// the SuccessfulCreate or FailedCreate event.
func (c *Controller) createPod(ctx context.Context, u *api.Unstructured, rs *replicaSet, ref *api.OwnerReference, have, creating int) error {
	pod := app.GetPodFromTemplate(rs.template, u, ref)
	if len(pod.GetLabels()) == 0 {
		return errors.New("unable to create pods, no labels")
	}
	out, err := c.cc.Client.Resource(app.Pods).Namespace(u.GetNamespace()).Create(ctx, pod, api.CreateOptions{})
	name := ""
	if out != nil {
		name = out.GetNamespace() + "/" + out.GetName()
	}
	if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
		trace.Hop(c.cc.Logger, "replicaset", "create", name, "", slog.String("cause", "too few replicas: "+keyOf(u)+" has "+
			strconv.Itoa(have)+", wants "+strconv.Itoa(int(rs.replicas))), slog.Any("err", err))
	}
	if err != nil {
		if !api.HasStatusCause(err, "NamespaceTerminating") {
			c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		}
		return err
	}
	c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", out.GetName())
	return nil
}

// deletePodOf mirrors RealPodControl.DeletePod with its events.
func (c *Controller) deletePodOf(ctx context.Context, u, pod *api.Unstructured, have int, want int32) error {
	err := c.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).Delete(ctx, pod.GetName(), api.DeleteOptions{})
	if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
		trace.Hop(c.cc.Logger, "replicaset", "delete", keyOf(pod), pod.GetResourceVersion(), slog.String("cause", "too many replicas: "+keyOf(u)+" has "+
			strconv.Itoa(have)+", wants "+strconv.Itoa(int(want))), slog.Any("err", err))
	}
	if err != nil {
		if api.IsNotFound(err) {
			return err
		}
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
		return err
	}
	c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", pod.GetName())
	return nil
}

// slowStartBatch mirrors slowStartBatch: call fn count times, in concurrent batches that
// start at initial and double while every call of a batch succeeds; stop after the first
// batch with a failure. It returns how many calls succeeded and the first error.
func slowStartBatch(count, initial int, fn func() error) (int, error) {
	remaining, successes := count, 0
	for batch := min(remaining, initial); batch > 0; batch = min(2*batch, remaining) {
		errs := make(chan error, batch)
		var wg sync.WaitGroup
		for range batch {
			wg.Go(func() {
				if err := fn(); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		successes += batch - len(errs)
		if len(errs) > 0 {
			return successes, <-errs
		}
		remaining -= batch
	}
	return successes, nil
}

// getIndirectlyRelatedPods mirrors getIndirectlyRelatedPods: the pods of every ReplicaSet
// with the same controller (the Deployment's other ReplicaSets), to rank by co-location.
func (c *Controller) getIndirectlyRelatedPods(rs *api.Unstructured) []*api.Unstructured {
	ref := app.GetControllerOf(rs)
	if ref == nil {
		return nil
	}
	objs, _ := c.rsInformer.GetIndexer().ByIndex(controllerUIDIndex, ref.UID)
	seen := map[string]bool{}
	var out []*api.Unstructured
	for _, o := range objs {
		r, _ := app.AsUnstructured(o)
		if r == nil {
			continue
		}
		pods, _ := app.FilterPodsByOwner(c.podInformer.GetIndexer(), r, "ReplicaSet", false)
		for _, p := range pods {
			if !seen[p.GetUID()] {
				seen[p.GetUID()] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// getPodsToDelete mirrors getPodsToDelete: rank the pods (ActivePodsWithRanks) and take the
// first diff. The rank of a pod is how many related active pods share its node.
func getPodsToDelete(active, related []*api.Unstructured, diff int, now time.Time) []*api.Unstructured {
	pods := append([]*api.Unstructured(nil), active...)
	if diff < len(pods) {
		onNode := map[string]int{}
		for _, p := range related {
			if app.IsPodActive(p) {
				onNode[app.NodeName(p)]++
			}
		}
		ranks := make([]int, len(pods))
		for i, p := range pods {
			ranks[i] = onNode[app.NodeName(p)]
		}
		sort.Sort(ActivePodsWithRanks{Pods: pods, Rank: ranks, Now: now})
	}
	return pods[:diff]
}
