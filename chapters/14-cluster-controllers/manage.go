package ch14

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// BurstReplicas mirrors BurstReplicas in pkg/controller/replicaset/replica_set.go: at most
// this many pods are created or deleted by one sync; the rest wait for the next.
const BurstReplicas = 500

// SlowStartInitialBatchSize mirrors controller.SlowStartInitialBatchSize: the first batch of
// creations is one pod.
const SlowStartInitialBatchSize = 1

// PodControl mirrors controller.PodControlInterface, reduced to the two calls manageReplicas
// makes. The controller's own writes the pod with the dynamic client; tests count and fail
// them.
type PodControl interface {
	// CreatePod creates pod (from the template, with its owner reference) and returns it as
	// the server stored it, named.
	CreatePod(ctx context.Context, pod *api.Unstructured) (*api.Unstructured, error)
	// DeletePod deletes namespace/name.
	DeletePod(ctx context.Context, namespace, name string) error
}

// slowStartBatch mirrors slowStartBatch in pkg/controller/replicaset/replica_set.go: call fn
// count times, in batches of initialBatchSize, then twice as many each time (1, 2, 4, 8, …),
// the calls of one batch in parallel. It stops after the first batch in which a call failed
// and returns how many calls succeeded and the first error. A quota or admission error then
// costs one failed call, not hundreds.
//
//lab:14.1
func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	remaining := count
	successes := 0
	for batch := min(remaining, initialBatchSize); batch > 0; batch = min(2*batch, remaining) {
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

// manageReplicas mirrors ReplicaSetController.manageReplicas: compare the active pods the
// ReplicaSet controls (filtered, from the cache) with spec.replicas and create or delete the
// difference, at most BurstReplicas at a time. Before the first write it records what it
// expects to see, so that the syncs that follow, whose cache does not yet show these writes,
// do nothing until the informer has caught up. A creation that fails or is never attempted
// will never be observed, so it is observed now; likewise a deletion that fails.
//
//lab:14.1
func (c *ReplicaSetController) manageReplicas(ctx context.Context, filteredPods []*api.Unstructured, rs *api.Unstructured) error {
	key := rsKey(rs)
	diff := len(filteredPods) - specReplicas(rs)
	switch {
	case diff < 0:
		diff = min(-diff, BurstReplicas)
		c.expectations.ExpectCreations(key, diff)
		c.hop("expect-creations", key, rs.GetResourceVersion(), slog.Int("add", diff))
		ref := app.NewControllerRef(rs)
		template := app.NestedMap(rs.Object, "spec", "template")
		successes, err := slowStartBatch(diff, SlowStartInitialBatchSize, func() error {
			pod := app.GetPodFromTemplate(template, rs, &ref)
			created, err := c.podControl.CreatePod(ctx, pod)
			if err != nil {
				return err
			}
			c.hop("create-pod", created.GetNamespace()+"/"+created.GetName(), created.GetResourceVersion(),
				slog.String("cause", fmt.Sprintf("%d of %d replicas missing", diff, specReplicas(rs))))
			return nil
		})
		for range diff - successes {
			c.expectations.CreationObserved(key)
		}
		return err
	case diff > 0:
		diff = min(diff, BurstReplicas)
		doomed := getPodsToDelete(filteredPods, diff)
		keys := make([]string, len(doomed))
		for i, p := range doomed {
			keys[i] = p.GetNamespace() + "/" + p.GetName()
		}
		c.expectations.ExpectDeletions(key, keys)
		c.hop("expect-deletions", key, rs.GetResourceVersion(), slog.Int("del", len(keys)))
		errs := make(chan error, len(doomed))
		var wg sync.WaitGroup
		for i, p := range doomed {
			wg.Go(func() {
				err := c.podControl.DeletePod(ctx, p.GetNamespace(), p.GetName())
				if err != nil && !api.IsNotFound(err) {
					c.expectations.DeletionObserved(key, keys[i])
					errs <- err
					return
				}
				c.hop("delete-pod", keys[i], p.GetResourceVersion(),
					slog.String("cause", fmt.Sprintf("%d replicas over %d", diff, specReplicas(rs))))
			})
		}
		wg.Wait()
		close(errs)
		return <-errs // nil when every delete succeeded
	}
	return nil
}

// getPodsToDelete mirrors getPodsToDelete with the ranking of controller.ActivePods
// (pkg/controller/controller_utils.go), reduced to the rules that tell our pods apart: the
// pods least worth keeping go first. Unscheduled before scheduled; Pending before Unknown
// before Running; not ready before ready; then the most recently created (a newer pod has done
// less work); ties by name, so the choice is stable.
//
//lab:14.1
func getPodsToDelete(pods []*api.Unstructured, diff int) []*api.Unstructured {
	ranked := slices.Clone(pods)
	slices.SortStableFunc(ranked, func(a, b *api.Unstructured) int {
		if d := boolRank(app.NodeName(a) != "") - boolRank(app.NodeName(b) != ""); d != 0 {
			return d
		}
		if d := phaseRank(app.PodPhase(a)) - phaseRank(app.PodPhase(b)); d != 0 {
			return d
		}
		if d := boolRank(app.IsPodReady(a)) - boolRank(app.IsPodReady(b)); d != 0 {
			return d
		}
		if ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp(); !ta.Time.Equal(tb.Time) {
			if ta.After(tb.Time) {
				return -1
			}
			return 1
		}
		switch {
		case a.GetName() < b.GetName():
			return -1
		case a.GetName() > b.GetName():
			return 1
		}
		return 0
	})
	return ranked[:min(diff, len(ranked))]
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// phaseRank orders phases as ActivePods does: Pending < Unknown < Running.
func phaseRank(phase string) int {
	switch phase {
	case "Pending":
		return 0
	case "Running":
		return 2
	}
	return 1
}

// specReplicas is spec.replicas, 1 when unset (the server's default).
func specReplicas(rs *api.Unstructured) int {
	if n, ok := app.NestedInt64(rs.Object, "spec", "replicas"); ok {
		return int(n)
	}
	return 1
}

func rsKey(rs *api.Unstructured) string { return rs.GetNamespace() + "/" + rs.GetName() }

// hop logs one hop of the controller (trace.Hop costs nothing when the logger is off).
func (c *ReplicaSetController) hop(op, key, rv string, extra ...slog.Attr) {
	trace.Hop(c.logger, Component, op, key, rv, extra...)
}
