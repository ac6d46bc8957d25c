package deployment

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// maxRetries mirrors maxRetries of the deployment controller: a Deployment whose sync fails
// 15 times in a row is dropped from the queue until its next event.
const maxRetries = 15

// component names the controller in events, as upstream's event source does.
const component = "deployment-controller"

// Controller mirrors DeploymentController of pkg/controller/deployment: it rolls a
// Deployment's pods from one ReplicaSet to the next, one per template.
type Controller struct {
	cc          *app.ControllerContext
	dInformer   informer.SharedIndexInformer
	rsInformer  informer.SharedIndexInformer
	podInformer informer.SharedIndexInformer
	queue       workqueue.TypedRateLimitingInterface[string]
	now         func() time.Time
}

// New mirrors NewDeploymentController: it asks for the Deployment, ReplicaSet and Pod
// informers and adds the handlers that feed the queue.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{
		cc:          cc,
		dInformer:   cc.Informer(app.Deployments),
		rsInformer:  cc.Informer(app.ReplicaSets),
		podInformer: cc.Informer(app.Pods),
		queue:       cc.NewQueue("deployment"),
		now:         time.Now,
	}
	opts := informer.HandlerOptions{Name: "deployment"}
	if _, err := c.dInformer.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueObj,
		UpdateFunc: func(_, cur any) { c.enqueueObj(cur) },
		DeleteFunc: c.enqueueObj,
	}, opts); err != nil {
		return nil, err
	}
	if _, err := c.rsInformer.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		AddFunc:    c.addReplicaSet,
		UpdateFunc: c.updateReplicaSet,
		DeleteFunc: c.deleteReplicaSet,
	}, opts); err != nil {
		return nil, err
	}
	if _, err := c.podInformer.AddEventHandlerWithOptions(processor.ResourceEventHandlerFuncs{
		DeleteFunc: c.deletePod,
	}, opts); err != nil {
		return nil, err
	}
	if err := app.AddPodControllerIndexer(c.podInformer); err != nil {
		return nil, err
	}
	return c, nil
}

// Name implements app.Controller.
func (c *Controller) Name() string { return "deployment" }

// Run mirrors DeploymentController.Run.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncDeployment)
	loop.MaxRetries = maxRetries
	loop.Run(ctx, workers)
}

func (c *Controller) enqueueObj(obj any) {
	if d, ok := app.AsUnstructured(obj); ok {
		c.queue.Add(keyOf(d))
	}
}

func keyOf(u *api.Unstructured) string { return u.GetNamespace() + "/" + u.GetName() }

// addReplicaSet mirrors addReplicaSet: wake the owner, or every Deployment that could adopt
// an orphan.
func (c *Controller) addReplicaSet(obj any) {
	rs, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if rs.GetDeletionTimestamp() != nil {
		c.deleteReplicaSet(rs)
		return
	}
	if ref := app.GetControllerOf(rs); ref != nil {
		if d := c.resolveControllerRef(rs.GetNamespace(), ref); d != nil {
			c.queue.Add(keyOf(d))
		}
		return
	}
	for _, d := range c.getDeploymentsForReplicaSet(rs) {
		c.queue.Add(keyOf(d))
	}
}

// updateReplicaSet mirrors updateReplicaSet.
func (c *Controller) updateReplicaSet(oldObj, curObj any) {
	old, ok1 := app.AsUnstructured(oldObj)
	cur, ok2 := app.AsUnstructured(curObj)
	if !ok1 || !ok2 || old.GetResourceVersion() == cur.GetResourceVersion() {
		return
	}
	curRef, oldRef := app.GetControllerOf(cur), app.GetControllerOf(old)
	changed := (curRef == nil) != (oldRef == nil) || (curRef != nil && curRef.UID != oldRef.UID)
	if changed && oldRef != nil {
		if d := c.resolveControllerRef(old.GetNamespace(), oldRef); d != nil {
			c.queue.Add(keyOf(d))
		}
	}
	if curRef != nil {
		if d := c.resolveControllerRef(cur.GetNamespace(), curRef); d != nil {
			c.queue.Add(keyOf(d))
		}
		return
	}
	if changed || !maps.Equal(old.GetLabels(), cur.GetLabels()) {
		for _, d := range c.getDeploymentsForReplicaSet(cur) {
			c.queue.Add(keyOf(d))
		}
	}
}

// deleteReplicaSet mirrors deleteReplicaSet.
func (c *Controller) deleteReplicaSet(obj any) {
	rs, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if ref := app.GetControllerOf(rs); ref != nil {
		if d := c.resolveControllerRef(rs.GetNamespace(), ref); d != nil {
			c.queue.Add(keyOf(d))
		}
	}
}

// deletePod mirrors deletePod: a Recreate Deployment waits for its last old pod to go.
func (c *Controller) deletePod(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	ref := app.GetControllerOf(pod)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return
	}
	o, exists, _ := c.rsInformer.GetIndexer().GetByKey(pod.GetNamespace() + "/" + ref.Name)
	rs, _ := app.AsUnstructured(o)
	if !exists || rs == nil || rs.GetUID() != ref.UID {
		return
	}
	dref := app.GetControllerOf(rs)
	if dref == nil {
		return
	}
	d := c.resolveControllerRef(rs.GetNamespace(), dref)
	if d == nil || app.NestedString(d.Object, "spec", "strategy", "type") != "Recreate" {
		return
	}
	// upstream lists the ReplicaSets from the server here; the cache is enough for the count
	for _, r := range c.ownedReplicaSets(d) {
		if pods, _ := app.FilterPodsByOwner(c.podInformer.GetIndexer(), r, "ReplicaSet", false); len(pods) > 0 {
			return
		}
	}
	c.queue.Add(keyOf(d))
}

func (c *Controller) ownedReplicaSets(d *api.Unstructured) []*api.Unstructured {
	var out []*api.Unstructured
	objs, _ := c.rsInformer.GetIndexer().ByIndex(store.NamespaceIndex, d.GetNamespace())
	for _, o := range objs {
		if rs, ok := app.AsUnstructured(o); ok {
			if ref := app.GetControllerOf(rs); ref != nil && ref.UID == d.GetUID() {
				out = append(out, rs)
			}
		}
	}
	return out
}

// resolveControllerRef mirrors resolveControllerRef.
func (c *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Unstructured {
	if ref.Kind != "Deployment" {
		return nil
	}
	o, ok, _ := c.dInformer.GetIndexer().GetByKey(namespace + "/" + ref.Name)
	if !ok {
		return nil
	}
	d, _ := app.AsUnstructured(o)
	if d == nil || d.GetUID() != ref.UID {
		return nil
	}
	return d
}

// getDeploymentsForReplicaSet mirrors GetDeploymentsForReplicaSet: the Deployments whose
// non-empty selector matches the ReplicaSet's labels.
func (c *Controller) getDeploymentsForReplicaSet(rs *api.Unstructured) []*api.Unstructured {
	if len(rs.GetLabels()) == 0 {
		return nil
	}
	var out []*api.Unstructured
	objs, _ := c.dInformer.GetIndexer().ByIndex(store.NamespaceIndex, rs.GetNamespace())
	for _, o := range objs {
		d, _ := app.AsUnstructured(o)
		if d == nil {
			continue
		}
		sel, err := app.SelectorOf(d, "spec", "selector")
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(rs.GetLabels())) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// getReplicaSetsForDeployment mirrors getReplicaSetsForDeployment: claim the namespace's
// ReplicaSets with the ref manager.
func (c *Controller) getReplicaSetsForDeployment(ctx context.Context, d *deployment) ([]*api.Unstructured, error) {
	objs, err := c.rsInformer.GetIndexer().ByIndex(store.NamespaceIndex, d.u.GetNamespace())
	if err != nil {
		return nil, err
	}
	sel, err := app.SelectorOf(d.u, "spec", "selector")
	if err != nil {
		return nil, fmt.Errorf("deployment %s has invalid label selector: %v", d.key(), err)
	}
	var rss []*api.Unstructured
	for _, o := range objs {
		if rs, ok := app.AsUnstructured(o); ok {
			rss = append(rss, rs)
		}
	}
	dc := c.cc.Client.Resource(app.Deployments).Namespace(d.u.GetNamespace())
	m := &app.RefManager{
		Controller: d.u,
		Selector:   sel,
		CanAdoptFunc: app.RecheckDeletionTimestamp(d.u.GetUID(), func(ctx context.Context) (*api.Unstructured, error) {
			return dc.Get(ctx, d.u.GetName(), api.GetOptions{})
		}),
		Patch: func(ctx context.Context, ns, name string, data []byte) error {
			_, err := c.cc.Client.Resource(app.ReplicaSets).Namespace(ns).Patch(ctx, name, api.StrategicMergePatchType, data, api.PatchOptions{})
			if trace.Enabled(c.cc.Logger) { // the cause is built only when traced
				trace.Hop(c.cc.Logger, "deployment", "patch", ns+"/"+name, "", slog.String("cause", "claim replica set for "+d.key()), slog.Any("err", err))
			}
			return err
		},
	}
	return m.Claim(ctx, rss)
}

// getPodMap mirrors getPodMapForDeployment: each ReplicaSet's pods, by its UID.
func (c *Controller) getPodMap(rss []*api.Unstructured) (map[string][]*api.Unstructured, error) {
	out := make(map[string][]*api.Unstructured, len(rss))
	for _, rs := range rss {
		pods, err := app.FilterPodsByOwner(c.podInformer.GetIndexer(), rs, "ReplicaSet", false)
		if err != nil {
			return nil, err
		}
		out[rs.GetUID()] = pods
	}
	return out, nil
}

// syncDeployment mirrors syncDeployment: pick the path (status only, paused, rollback,
// scaling, or a rollout by strategy).
func (c *Controller) syncDeployment(ctx context.Context, key string) (err error) {
	o, exists, err := c.dInformer.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		trace.Hop(c.cc.Logger, "deployment", "sync", key, "", slog.String("result", "deleted"))
		return nil
	}
	cached, _ := app.AsUnstructured(o)
	trace.Hop(c.cc.Logger, "deployment", "sync", key, cached.GetResourceVersion())
	defer func() {
		trace.Hop(c.cc.Logger, "deployment", "synced", key, cached.GetResourceVersion(), slog.Any("err", err))
	}()
	d, err := newDeployment(cached)
	if err != nil {
		return err
	}
	if sel := app.NestedMap(d.u.Object, "spec", "selector"); sel != nil && len(app.NestedMap(sel, "matchLabels"))+len(asList(sel["matchExpressions"])) == 0 {
		c.cc.Recorder.Eventf(ctx, component, d.u, app.EventTypeWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.status.ObservedGeneration < d.u.GetGeneration() {
			st := d.status
			st.ObservedGeneration = d.u.GetGeneration()
			d.setStatus(st)
			_ = c.updateStatus(ctx, d, "selector selects everything")
		}
		return nil
	}
	rsList, err := c.getReplicaSetsForDeployment(ctx, d)
	if err != nil {
		return err
	}
	podMap, err := c.getPodMap(rsList)
	if err != nil {
		return err
	}
	if d.u.GetDeletionTimestamp() != nil {
		return c.syncStatusOnly(ctx, d, rsList)
	}
	if err := c.checkPausedConditions(ctx, d); err != nil {
		return err
	}
	if d.paused {
		return c.sync(ctx, d, rsList)
	}
	if getRollbackTo(d) != nil {
		return c.rollback(ctx, d, rsList)
	}
	scaling, err := c.isScalingEvent(ctx, d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		return c.sync(ctx, d, rsList)
	}
	switch d.strategy {
	case "Recreate":
		return c.rolloutRecreate(ctx, d, rsList, podMap)
	case "RollingUpdate":
		return c.rolloutRolling(ctx, d, rsList)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.strategy)
}

func asList(v any) []any { l, _ := v.([]any); return l }

// updateStatus writes d's status (and the annotations a status update carries) and keeps
// the answer's resourceVersion, so a second write in the same sync does not conflict.
func (c *Controller) updateStatus(ctx context.Context, d *deployment, cause string) error {
	out, err := c.cc.Client.Resource(app.Deployments).Namespace(d.u.GetNamespace()).UpdateStatus(ctx, d.u, api.UpdateOptions{})
	trace.Hop(c.cc.Logger, "deployment", "update-status", d.key(), d.u.GetResourceVersion(), slog.String("cause", cause),
		slog.Int("replicas", int(d.status.Replicas)), slog.Int("updated", int(d.status.UpdatedReplicas)),
		slog.Int("available", int(d.status.AvailableReplicas)), slog.Any("err", err))
	if err == nil {
		d.u.SetResourceVersion(out.GetResourceVersion())
	}
	return err
}
