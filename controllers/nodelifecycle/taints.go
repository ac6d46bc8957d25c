package nodelifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// syncTaints mirrors doNoExecuteTaintingPass and doNoScheduleTaintingPass for one node: the
// taints its Ready condition calls for, then its pods' evictions.
func (c *Controller) syncTaints(ctx context.Context, node *api.Unstructured, now time.Time) error {
	var want string
	switch toString(readyCondition(node)["status"]) {
	case "Unknown":
		want = TaintUnreachable
	case "False":
		want = TaintNotReady
	}
	var kept []any
	have := map[string]bool{}
	changed := false
	for _, x := range asList(app.NestedMap(node.Object, "spec")["taints"]) {
		m, _ := x.(map[string]any)
		k := toString(m["key"])
		if (k == TaintUnreachable || k == TaintNotReady) && k != want {
			changed = true // the condition changed: the old taint goes
			continue
		}
		if k == want {
			have[toString(m["effect"])] = true
		}
		kept = append(kept, m)
	}
	if want != "" {
		ts := now.UTC().Truncate(time.Second).Format(time.RFC3339)
		for _, effect := range []string{"NoSchedule", "NoExecute"} {
			if have[effect] {
				continue
			}
			t := map[string]any{"key": want, "effect": effect}
			if effect == "NoExecute" {
				t["timeAdded"] = ts
			}
			kept = append(kept, t)
			changed = true
		}
	}
	if changed {
		u := node.DeepCopy()
		spec := app.NestedMap(u.Object, "spec")
		if spec == nil {
			spec = map[string]any{}
			u.Object["spec"] = spec
		}
		if len(kept) == 0 {
			delete(spec, "taints")
		} else {
			spec["taints"] = kept
		}
		out, err := c.cc.Client.Resource(app.Nodes).Update(ctx, u, api.UpdateOptions{})
		if err != nil {
			return err
		}
		cause := "node is Ready: taints removed"
		if want != "" {
			cause = "node Ready condition is " + toString(readyCondition(node)["status"]) + ": tainted " + want
		}
		trace.Hop(c.cc.Logger, "nodelifecycle", "update", node.GetName(), out.GetResourceVersion(), slog.String("cause", cause))
		return nil // the update's event brings the node back
	}
	if want == "" {
		return nil
	}
	for _, obj := range c.pods.GetIndexer().List() {
		if pod, ok := app.AsUnstructured(obj); ok && app.NodeName(pod) == node.GetName() {
			c.enqueuePod(pod)
		}
	}
	return nil
}

// noExecuteTaint is a NoExecute taint with when it was added.
type noExecuteTaint struct {
	key, value string
	added      time.Time
}

func noExecuteTaints(node *api.Unstructured) []noExecuteTaint {
	var out []noExecuteTaint
	for _, x := range asList(app.NestedMap(node.Object, "spec")["taints"]) {
		m, _ := x.(map[string]any)
		if m["effect"] != "NoExecute" {
			continue
		}
		added, _ := time.Parse(time.RFC3339, toString(m["timeAdded"]))
		out = append(out, noExecuteTaint{key: toString(m["key"]), value: toString(m["value"]), added: added})
	}
	return out
}

// evictionTime mirrors the taint manager's processPodOnNode: when the pod must go (zero:
// never), given the node's NoExecute taints and the pod's tolerations.
func evictionTime(pod *api.Unstructured, taints []noExecuteTaint) (time.Time, bool) {
	var at time.Time
	evict := false
	for _, t := range taints {
		var best *time.Time
		tolerated, forever := false, false
		for _, x := range asList(app.NestedMap(pod.Object, "spec")["tolerations"]) {
			m, _ := x.(map[string]any)
			if !tolerates(m, t) {
				continue
			}
			tolerated = true
			secs, ok := app.NestedInt64(m, "tolerationSeconds")
			if !ok {
				forever = true
				continue
			}
			when := t.added.Add(time.Duration(max(secs, 0)) * time.Second)
			if best == nil || when.Before(*best) {
				best = &when
			}
		}
		switch {
		case !tolerated:
			return time.Time{}, true // at once
		case best != nil:
			if !evict || best.Before(at) {
				at, evict = *best, true
			}
		case forever:
		}
	}
	return at, evict
}

func tolerates(tol map[string]any, t noExecuteTaint) bool {
	if e := toString(tol["effect"]); e != "" && e != "NoExecute" {
		return false
	}
	if k := toString(tol["key"]); k != "" && k != t.key {
		return false
	}
	switch toString(tol["operator"]) {
	case "", "Equal":
		return toString(tol["value"]) == t.value
	case "Exists":
		return true
	}
	return false
}

// syncPod mirrors the taint manager's handling of one pod: evict now, later or never.
func (c *Controller) syncPod(ctx context.Context, key string) error {
	obj, ok, err := c.pods.GetIndexer().GetByKey(key)
	if err != nil || !ok {
		return err
	}
	pod, _ := app.AsUnstructured(obj)
	if pod.GetDeletionTimestamp() != nil {
		return nil
	}
	node := c.node(app.NodeName(pod))
	if node == nil {
		return nil
	}
	taints := noExecuteTaints(node)
	if len(taints) == 0 {
		return nil
	}
	at, evict := evictionTime(pod, taints)
	if !evict {
		return nil
	}
	if wait := time.Until(at); wait > 0 {
		c.queue.AddAfter("pod/"+key, wait)
		return nil
	}
	return c.evict(ctx, pod)
}

// evict mirrors addConditionAndDeletePod: the DisruptionTarget condition, the event, the
// delete.
func (c *Controller) evict(ctx context.Context, pod *api.Unstructured) error {
	c.mu.Lock()
	done := c.evicted[pod.GetUID()]
	c.mu.Unlock()
	if done {
		return nil
	}
	pods := c.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace())
	key := pod.GetNamespace() + "/" + pod.GetName()
	if app.PodConditionStatus(pod, "DisruptionTarget") != "True" {
		patch, _ := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{map[string]any{
			"type": "DisruptionTarget", "status": "True", "reason": "DeletionByTaintManager",
			"message": "Taint manager: deleting due to NoExecute taint", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
		}}}})
		if _, err := pods.Patch(ctx, pod.GetName(), api.StrategicMergePatchType, patch, api.PatchOptions{}, "status"); err != nil {
			if api.IsNotFound(err) {
				return nil
			}
			return err
		}
	}
	c.cc.Recorder.Eventf(ctx, "taint-eviction-controller", pod, app.EventTypeNormal, "TaintManagerEviction", "Marking for deletion Pod %s", key)
	uid := pod.GetUID()
	err := pods.Delete(ctx, pod.GetName(), api.DeleteOptions{Preconditions: &api.Preconditions{UID: &uid}})
	if err != nil && !api.IsNotFound(err) {
		return fmt.Errorf("evicting %s: %w", key, err)
	}
	c.mu.Lock()
	c.evicted[pod.GetUID()] = true
	c.mu.Unlock()
	trace.Hop(c.cc.Logger, "nodelifecycle", "delete", key, pod.GetResourceVersion(),
		slog.String("cause", "NoExecute taint of node "+app.NodeName(pod)+" not tolerated any longer"))
	return nil
}
