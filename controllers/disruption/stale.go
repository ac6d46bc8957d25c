package disruption

import (
	"context"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// stalePodDisruptionTimeout mirrors the constant of that name: how long a pod may carry a
// DisruptionTarget condition without being deleted before the controller takes it back.
const stalePodDisruptionTimeout = 2 * time.Minute

// podReasonTerminationByKubelet mirrors v1.PodReasonTerminationByKubelet: the kubelet's own
// DisruptionTarget, which the controller leaves alone.
const podReasonTerminationByKubelet = "TerminationByKubelet"

// staleDisruption mirrors nonTerminatingPodHasStaleDisruptionCondition: whether the pod,
// not being deleted and not terminal, carries a DisruptionTarget True condition that is not
// the kubelet's, and how long until it is stale.
func (c *Controller) staleDisruption(pod *api.Unstructured) (bool, time.Duration) {
	if pod.GetDeletionTimestamp() != nil {
		return false, 0
	}
	if p := app.PodPhase(pod); p == "Succeeded" || p == "Failed" {
		return false, 0
	}
	cond := podCondition(pod, "DisruptionTarget")
	if cond == nil || cond["status"] != "True" || cond["reason"] == podReasonTerminationByKubelet {
		return false, 0
	}
	ts, _ := cond["lastTransitionTime"].(string)
	at, _ := time.Parse(time.RFC3339, ts)
	return true, max(stalePodDisruptionTimeout-c.now().Sub(at), 0)
}

func podCondition(pod *api.Unstructured, t string) map[string]any {
	list, _ := app.Nested(pod.Object, "status", "conditions")
	items, _ := list.([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && m["type"] == t {
			return m
		}
	}
	return nil
}

// enqueueStale mirrors the pod handlers' call of enqueueStalePodDisruptionCleanup.
func (c *Controller) enqueueStale(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if has, after := c.staleDisruption(pod); has {
		c.staleQueue.AddAfter(pod.GetNamespace()+"/"+pod.GetName(), after)
	}
}

// syncStalePodDisruption mirrors the method of that name: once stale, the condition is set
// back to False through the pod's status.
func (c *Controller) syncStalePodDisruption(ctx context.Context, key string) error {
	obj, exists, err := c.pods.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	pod := obj.(*api.Unstructured)
	has, after := c.staleDisruption(pod)
	if !has {
		return nil
	}
	if after > 0 {
		c.staleQueue.AddAfter(key, after)
		return nil
	}
	next := pod.DeepCopy()
	cond := podCondition(next, "DisruptionTarget")
	// UpdatePodCondition with a bare False condition: reason and message go
	cond["status"], cond["lastTransitionTime"] = "False", c.now().UTC().Format(time.RFC3339)
	delete(cond, "reason")
	delete(cond, "message")
	out, err := c.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).UpdateStatus(ctx, next, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(c.cc.Logger, Name, "update-pod-status", key, rv,
		slog.String("cause", "stale DisruptionTarget condition: the pod was not deleted"), slog.Any("err", err))
	return err
}
