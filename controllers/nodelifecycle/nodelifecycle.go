package nodelifecycle

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// NodeMonitorPeriod and NodeMonitorGracePeriod mirror the defaults of
// --node-monitor-period and v1.36's --node-monitor-grace-period.
const (
	NodeMonitorPeriod      = 5 * time.Second
	NodeMonitorGracePeriod = 50 * time.Second
	leaseNamespace         = "kube-node-lease"
)

// TaintUnreachable and TaintNotReady mirror v1.TaintNodeUnreachable and
// v1.TaintNodeNotReady, the keys of UnreachableTaintTemplate and NotReadyTaintTemplate.
const (
	TaintUnreachable = "node.kubernetes.io/unreachable"
	TaintNotReady    = "node.kubernetes.io/not-ready"
)

// Controller mirrors nodelifecycle.Controller together with tainteviction.Controller.
type Controller struct {
	cc     *app.ControllerContext
	nodes  informer.SharedIndexInformer
	leases informer.SharedIndexInformer
	pods   informer.SharedIndexInformer
	queue  workqueue.TypedRateLimitingInterface[string]

	mu      sync.Mutex
	health  map[string]probe // node → what was last seen and when
	evicted map[string]bool  // pod UIDs evicted, as the taint manager cancels a fired work
}

// probe mirrors nodeHealthData: the heartbeat seen last and when it was seen.
type probe struct {
	seen string
	at   time.Time
}

// New mirrors NewNodeLifecycleController and tainteviction.New.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, health: map[string]probe{}, evicted: map[string]bool{}}
	c.nodes = cc.Informer(app.Nodes)
	c.leases = cc.Informer(app.Leases)
	c.pods = cc.Informer(app.Pods)
	c.queue = cc.NewQueue("nodelifecycle")
	if _, err := c.nodes.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueNode,
		UpdateFunc: func(_, obj any) { c.enqueueNode(obj) },
	}); err != nil {
		return nil, err
	}
	_, err := c.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueuePod,
		UpdateFunc: func(_, obj any) { c.enqueuePod(obj) },
		DeleteFunc: func(obj any) {
			if p, ok := app.AsUnstructured(obj); ok {
				c.mu.Lock()
				delete(c.evicted, p.GetUID())
				c.mu.Unlock()
			}
		},
	})
	return c, err
}

// Name mirrors the controller interface's Name: "nodelifecycle".
func (c *Controller) Name() string { return "nodelifecycle" }

// Run mirrors Controller.Run: it probes every node each NodeMonitorPeriod and runs the
// workers until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(NodeMonitorPeriod)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for _, k := range c.nodes.GetIndexer().ListKeys() {
					c.queue.Add("node/" + k)
				}
			}
		}
	})
	loop := controller.NewLoop(c.queue, c.sync)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
	wg.Wait()
}

func (c *Controller) enqueueNode(obj any) {
	if n, ok := app.AsUnstructured(obj); ok {
		c.queue.Add("node/" + n.GetName())
	}
}

func (c *Controller) enqueuePod(obj any) {
	p, ok := app.AsUnstructured(obj)
	if !ok || app.NodeName(p) == "" || p.GetDeletionTimestamp() != nil {
		return
	}
	c.queue.Add("pod/" + p.GetNamespace() + "/" + p.GetName())
}

func (c *Controller) sync(ctx context.Context, key string) error {
	if name, ok := strings.CutPrefix(key, "node/"); ok {
		return c.syncNode(ctx, name)
	}
	return c.syncPod(ctx, strings.TrimPrefix(key, "pod/"))
}

func (c *Controller) node(name string) *api.Unstructured {
	obj, ok, _ := c.nodes.GetIndexer().GetByKey(name)
	if !ok {
		return nil
	}
	n, _ := app.AsUnstructured(obj)
	return n
}

// syncNode mirrors tryUpdateNodeHealth followed by the tainting passes for one node.
func (c *Controller) syncNode(ctx context.Context, name string) error {
	node := c.node(name)
	if node == nil {
		c.mu.Lock()
		delete(c.health, name)
		c.mu.Unlock()
		return nil
	}
	now := time.Now()
	if c.stale(node, now) {
		if done, err := c.markUnknown(ctx, node, now); err != nil || done {
			return err // the update's event brings the node back for its taints
		}
	}
	return c.syncTaints(ctx, node, now)
}

// stale reports whether nothing was heard from the node for the grace period.
func (c *Controller) stale(node *api.Unstructured, now time.Time) bool {
	seen := readyCondition(node)["lastHeartbeatTime"]
	renew := ""
	if obj, ok, _ := c.leases.GetIndexer().GetByKey(leaseNamespace + "/" + node.GetName()); ok {
		if l, ok := app.AsUnstructured(obj); ok {
			renew = app.NestedString(l.Object, "spec", "renewTime")
		}
	}
	mark := renew + "|" + toString(seen)
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.health[node.GetName()]
	if !ok || p.seen != mark {
		c.health[node.GetName()] = probe{seen: mark, at: now}
		return false
	}
	return now.Sub(p.at) >= NodeMonitorGracePeriod
}

// markUnknown sets the node's conditions Unknown and its pods not Ready. done is false when
// the node was already Unknown.
func (c *Controller) markUnknown(ctx context.Context, node *api.Unstructured, now time.Time) (bool, error) {
	u := node.DeepCopy()
	status := app.NestedMap(u.Object, "status")
	if status == nil {
		status = map[string]any{}
		u.Object["status"] = status
	}
	conds, _ := status["conditions"].([]any)
	changed := false
	ts := now.UTC().Truncate(time.Second).Format(time.RFC3339)
	for _, t := range []string{"Ready", "MemoryPressure", "DiskPressure", "PIDPressure"} {
		var cur map[string]any
		for _, x := range conds {
			if m, _ := x.(map[string]any); m["type"] == t {
				cur = m
			}
		}
		switch {
		case cur == nil:
			conds = append(conds, map[string]any{"type": t, "status": "Unknown", "reason": "NodeStatusNeverUpdated",
				"message": "Kubelet never posted node status.", "lastHeartbeatTime": node.GetCreationTimestamp().UTC().Format(time.RFC3339),
				"lastTransitionTime": ts})
			changed = true
		case cur["status"] != "Unknown":
			cur["status"], cur["reason"], cur["message"], cur["lastTransitionTime"] = "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", ts
			changed = true
		}
	}
	if !changed {
		return false, nil
	}
	status["conditions"] = conds
	out, err := c.cc.Client.Resource(app.Nodes).UpdateStatus(ctx, u, api.UpdateOptions{})
	if err != nil {
		return false, err
	}
	trace.Hop(c.cc.Logger, "nodelifecycle", "update-status", node.GetName(), out.GetResourceVersion(),
		slog.String("cause", "no heartbeat for the grace period"), slog.String("ready", "Unknown"))
	return true, c.markPodsNotReady(ctx, node.GetName())
}

// markPodsNotReady mirrors MarkPodsNotReady: the Ready condition of every pod on the node
// becomes False.
func (c *Controller) markPodsNotReady(ctx context.Context, nodeName string) error {
	ts := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
	for _, obj := range c.pods.GetIndexer().List() {
		pod, ok := app.AsUnstructured(obj)
		if !ok || app.NodeName(pod) != nodeName || app.PodConditionStatus(pod, "Ready") != "True" {
			continue
		}
		p := pod.DeepCopy()
		for _, x := range asList(app.NestedMap(p.Object, "status")["conditions"]) {
			if m, _ := x.(map[string]any); m["type"] == "Ready" {
				m["status"], m["lastTransitionTime"] = "False", ts
			}
		}
		out, err := c.cc.Client.Resource(app.Pods).Namespace(p.GetNamespace()).UpdateStatus(ctx, p, api.UpdateOptions{})
		if err != nil && !api.IsNotFound(err) && !api.IsConflict(err) {
			return err
		}
		if err == nil {
			trace.Hop(c.cc.Logger, "nodelifecycle", "update-status", p.GetNamespace()+"/"+p.GetName(), out.GetResourceVersion(),
				slog.String("cause", "node "+nodeName+" is not ready"))
		}
	}
	return nil
}

func readyCondition(node *api.Unstructured) map[string]any {
	for _, x := range asList(app.NestedMap(node.Object, "status")["conditions"]) {
		if m, _ := x.(map[string]any); m["type"] == "Ready" {
			return m
		}
	}
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

func toString(v any) string { s, _ := v.(string); return s }
