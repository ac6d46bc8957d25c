package disruption

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sync"
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

// Name mirrors the controller's name in NewControllerDescriptors, as --controllers spells it.
const Name = "disruption"

const component = "controllermanager" // upstream's recorder reports as the controller manager

// DeletionTimeout mirrors the constant of that name: how long an evicted pod may stay before
// the budget stops counting it as disrupted.
const DeletionTimeout = 2 * time.Minute

// Controller mirrors DisruptionController.
type Controller struct {
	cc          *app.ControllerContext
	pdbs        informer.SharedIndexInformer
	pods        informer.SharedIndexInformer
	rss         informer.SharedIndexInformer
	deployments informer.SharedIndexInformer
	sets        informer.SharedIndexInformer
	scales      *app.ScaleClient
	queue       workqueue.TypedRateLimitingInterface[string]
	staleQueue  workqueue.TypedRateLimitingInterface[string] // pods whose DisruptionTarget may go stale
	now         func() time.Time
}

// New mirrors NewDisruptionController: budgets queue themselves, pods queue the budgets
// that select them.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, pdbs: cc.Informer(app.PodDisruptionBudgets), pods: cc.Informer(app.Pods),
		rss: cc.Informer(app.ReplicaSets), deployments: cc.Informer(app.Deployments), sets: cc.Informer(app.StatefulSets),
		scales: app.NewScaleClient(cc), queue: cc.NewQueue(Name), staleQueue: cc.NewQueue(Name + "-stale-pod-disruption"), now: time.Now}
	key := func(obj any) {
		if u, ok := app.AsUnstructured(obj); ok {
			c.queue.Add(u.GetNamespace() + "/" + u.GetName())
		}
	}
	if _, err := c.pdbs.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: key, UpdateFunc: func(_, n any) { key(n) }, DeleteFunc: key,
	}); err != nil {
		return nil, err
	}
	if _, err := c.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.queueBudgetsOf(obj); c.enqueueStale(obj) },
		UpdateFunc: func(_, n any) { c.queueBudgetsOf(n); c.enqueueStale(n) },
		DeleteFunc: c.queueBudgetsOf,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors Controller.Name of k8s.io/controller-manager: "disruption".
func (c *Controller) Name() string { return Name }

// Run mirrors DisruptionController.Run: workers on the budgets (the recheck queue is the
// same queue, delayed) and on the pods whose DisruptionTarget condition may go stale; a
// failing key is retried for ever. It returns when both loops have.
func (c *Controller) Run(ctx context.Context, workers int) {
	budgets := controller.NewLoop(c.queue, c.sync)
	budgets.MaxRetries = 1 << 30
	stale := controller.NewLoop(c.staleQueue, c.syncStalePodDisruption)
	stale.MaxRetries = 1 << 30
	var wg sync.WaitGroup
	wg.Go(func() { stale.Run(ctx, workers) })
	budgets.Run(ctx, workers)
	wg.Wait()
}

// queueBudgetsOf mirrors addPod/updatePod/deletePod with getPdbForPod: the budgets of the
// pod's namespace that select it (upstream queues the first one and warns about others).
func (c *Controller) queueBudgetsOf(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	objs, _ := c.pdbs.GetIndexer().ByIndex(store.NamespaceIndex, pod.GetNamespace())
	for _, o := range objs {
		b := o.(*api.Unstructured)
		sel, err := app.SelectorOf(b, "spec", "selector")
		if err == nil && sel.Matches(labels.Set(pod.GetLabels())) {
			c.queue.Add(b.GetNamespace() + "/" + b.GetName())
		}
	}
}

// sync mirrors DisruptionController.sync: a failure other than a conflict leaves the budget
// allowing no disruption (failSafe).
func (c *Controller) sync(ctx context.Context, key string) error {
	obj, exists, err := c.pdbs.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	u := obj.(*api.Unstructured)
	trace.Hop(c.cc.Logger, Name, "sync", key, u.GetResourceVersion())
	b, err := app.FromUnstructured[pdb](u)
	if err != nil {
		return err
	}
	err = c.trySync(ctx, u, b)
	if err == nil || api.IsConflict(err) {
		return err
	}
	return c.failSafe(ctx, u, b, err)
}

// trySync mirrors DisruptionController.trySync.
func (c *Controller) trySync(ctx context.Context, u *api.Unstructured, b *pdb) error {
	pods, err := c.podsFor(u)
	if err != nil {
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "NoPods", "Failed to get pods: %v", err)
		return err
	}
	if len(pods) == 0 {
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeNormal, "NoPods", "No matching pods found")
	}
	expected, desired, unmanaged, err := c.expectedPodCount(ctx, b, pods)
	if err != nil {
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return err
	}
	if len(unmanaged) > 0 {
		c.cc.Recorder.Eventf(ctx, component, u, app.EventTypeWarning, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", selectorString(b.Spec.Selector))
	}
	now := c.now()
	disrupted, recheck := c.disruptedPodMap(ctx, u, b, pods, now)
	healthy := countHealthyPods(pods, disrupted, now)
	if err := c.updateStatus(ctx, u, b, healthy, desired, expected, disrupted); err != nil {
		return err
	}
	if recheck != nil {
		c.queue.AddAfter(u.GetNamespace()+"/"+u.GetName(), recheck.Sub(now))
	}
	return nil
}

func selectorString(s *app.LabelSelector) string {
	if s == nil {
		return "nil"
	}
	return fmt.Sprintf("&LabelSelector{MatchLabels:%v,MatchExpressions:%v,}", s.MatchLabels, s.MatchExpressions)
}

// podsFor mirrors getPodsForPdb.
func (c *Controller) podsFor(u *api.Unstructured) ([]*api.Unstructured, error) {
	sel, err := app.SelectorOf(u, "spec", "selector")
	if err != nil {
		return nil, err
	}
	objs, err := c.pods.GetIndexer().ByIndex(store.NamespaceIndex, u.GetNamespace())
	if err != nil {
		return nil, err
	}
	var out []*api.Unstructured
	for _, o := range objs {
		if p := o.(*api.Unstructured); sel.Matches(labels.Set(p.GetLabels())) {
			out = append(out, p)
		}
	}
	return out, nil
}

// expectedPodCount mirrors getExpectedPodCount.
func (c *Controller) expectedPodCount(ctx context.Context, b *pdb, pods []*api.Unstructured) (expected, desired int32, unmanaged []string, err error) {
	switch {
	case b.Spec.MaxUnavailable != nil:
		if expected, unmanaged, err = c.expectedScale(ctx, pods); err != nil {
			return
		}
		var maxUnavailable int
		if maxUnavailable, err = app.GetScaledValueFromIntOrPercent(b.Spec.MaxUnavailable, int(expected), true); err != nil {
			return
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case b.Spec.MinAvailable != nil && !b.Spec.MinAvailable.IsString:
		desired, expected = b.Spec.MinAvailable.IntVal, int32(len(pods))
	case b.Spec.MinAvailable != nil:
		if expected, unmanaged, err = c.expectedScale(ctx, pods); err != nil {
			return
		}
		var minAvailable int
		if minAvailable, err = app.GetScaledValueFromIntOrPercent(b.Spec.MinAvailable, int(expected), true); err != nil {
			return
		}
		desired = int32(minAvailable)
	}
	return
}

// expectedScale mirrors getExpectedScale: the sum of the scales of the pods' controllers,
// each counted once; pods without a controller are unmanaged.
func (c *Controller) expectedScale(ctx context.Context, pods []*api.Unstructured) (int32, []string, error) {
	scales := map[string]int32{}
	var unmanaged []string
	seen := map[string]bool{}
	for _, pod := range pods {
		ref := app.GetControllerOf(pod)
		if ref == nil {
			unmanaged = append(unmanaged, pod.GetName())
			continue
		}
		if seen[ref.UID] {
			continue
		}
		seen[ref.UID] = true
		uid, n, found, err := c.findScale(ctx, ref, pod.GetNamespace())
		if err != nil {
			return 0, nil, err
		}
		if !found {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", pod.GetName())
		}
		scales[uid] = n
	}
	var total int32
	for _, n := range scales {
		total += n
	}
	return total, unmanaged, nil
}

// findScale mirrors the finders in their order: a ReplicaSet's Deployment, a ReplicaSet, a
// StatefulSet (from the caches), then the scale subresource of any kind.
func (c *Controller) findScale(ctx context.Context, ref *api.OwnerReference, ns string) (uid string, replicas int32, found bool, err error) {
	cached := func(inf informer.SharedIndexInformer, name, wantUID string) *api.Unstructured {
		o, ok, _ := inf.GetIndexer().GetByKey(ns + "/" + name)
		if !ok {
			return nil
		}
		u := o.(*api.Unstructured)
		if wantUID != "" && u.GetUID() != wantUID {
			return nil
		}
		return u
	}
	specReplicas := func(u *api.Unstructured) int32 {
		n, ok := app.NestedInt64(u.Object, "spec", "replicas")
		if !ok {
			n = 1
		}
		return int32(n)
	}
	group := groupOf(ref.APIVersion)
	switch {
	case ref.Kind == "ReplicaSet" && (group == "apps" || group == "extensions"):
		rs := cached(c.rss, ref.Name, ref.UID)
		if rs == nil {
			return "", 0, false, nil
		}
		if dref := app.GetControllerOf(rs); dref != nil && dref.Kind == "Deployment" {
			d := cached(c.deployments, dref.Name, dref.UID)
			if d == nil {
				return "", 0, false, nil
			}
			return d.GetUID(), specReplicas(d), true, nil
		}
		return rs.GetUID(), specReplicas(rs), true, nil
	case ref.Kind == "StatefulSet" && group == "apps":
		ss := cached(c.sets, ref.Name, ref.UID)
		if ss == nil {
			return "", 0, false, nil
		}
		return ss.GetUID(), specReplicas(ss), true, nil
	}
	sc, _, err := c.scales.Get(ctx, ns, ref.APIVersion, ref.Kind, ref.Name)
	if api.IsNotFound(err) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	if sc.Metadata.UID != ref.UID {
		return "", 0, false, nil
	}
	return sc.Metadata.UID, sc.Spec.Replicas, true, nil
}

func groupOf(apiVersion string) string {
	for i := range len(apiVersion) {
		if apiVersion[i] == '/' {
			return apiVersion[:i]
		}
	}
	return ""
}

// disruptedPodMap mirrors buildDisruptedPodMap: the recorded evictions of pods still there
// and not deleting, younger than DeletionTimeout, and when the youngest expires.
func (c *Controller) disruptedPodMap(ctx context.Context, u *api.Unstructured, b *pdb, pods []*api.Unstructured, now time.Time) (map[string]string, *time.Time) {
	out := map[string]string{}
	var recheck *time.Time
	if b.Status.DisruptedPods == nil {
		return out, nil
	}
	for _, pod := range pods {
		if pod.GetDeletionTimestamp() != nil {
			continue
		}
		ts, found := b.Status.DisruptedPods[pod.GetName()]
		if !found {
			continue
		}
		at, err := time.Parse(time.RFC3339, ts)
		if err != nil {
			continue
		}
		expected := at.Add(DeletionTimeout)
		if expected.Before(now) {
			c.cc.Recorder.Eventf(ctx, component, pod, app.EventTypeWarning, "NotDeleted",
				"Pod was expected by PDB %s/%s to be deleted but it wasn't", u.GetNamespace(), u.GetNamespace())
			continue
		}
		if recheck == nil || expected.Before(*recheck) {
			recheck = &expected
		}
		out[pod.GetName()] = ts
	}
	return out, recheck
}

// countHealthyPods mirrors the function of that name.
func countHealthyPods(pods []*api.Unstructured, disrupted map[string]string, now time.Time) int32 {
	var n int32
	for _, pod := range pods {
		if pod.GetDeletionTimestamp() != nil {
			continue
		}
		if ts, found := disrupted[pod.GetName()]; found {
			if at, err := time.Parse(time.RFC3339, ts); err == nil && at.Add(DeletionTimeout).After(now) {
				continue
			}
		}
		if app.IsPodReady(pod) {
			n++
		}
	}
	return n
}

// updateStatus mirrors updatePdbStatus with UpdateDisruptionAllowedCondition: nothing is
// written when the status already says it.
func (c *Controller) updateStatus(ctx context.Context, u *api.Unstructured, b *pdb, healthy, desired, expected int32, disrupted map[string]string) error {
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := b.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected &&
		st.DisruptionsAllowed == allowed && maps.Equal(nilIfEmpty(st.DisruptedPods), nilIfEmpty(disrupted)) &&
		st.ObservedGeneration == u.GetGeneration() && conditionsUpToDate(&st, u.GetGeneration()) {
		return nil
	}
	next := pdbStatus{CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed,
		DisruptedPods: disrupted, ObservedGeneration: u.GetGeneration(), Conditions: st.Conditions}
	cond := condition{Type: disruptionAllowedCondition, Status: "False", Reason: insufficientPodsReason, ObservedGeneration: next.ObservedGeneration}
	if allowed > 0 {
		cond.Status, cond.Reason = "True", sufficientPodsReason
	}
	cond.LastTransitionTime = c.now().UTC().Format(time.RFC3339)
	next.Conditions = setStatusCondition(next.Conditions, cond)
	cause := fmt.Sprintf("%d healthy of %d expected, %d desired: %d disruptions allowed", healthy, expected, desired, allowed)
	return c.writeStatus(ctx, u, next, cause)
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// conditionsUpToDate mirrors pdbhelper.ConditionsAreUpToDate.
func conditionsUpToDate(st *pdbStatus, generation int64) bool {
	cond := findCondition(st.Conditions, disruptionAllowedCondition)
	if cond == nil || st.ObservedGeneration != generation {
		return false
	}
	if st.DisruptionsAllowed > 0 {
		return cond.Status == "True" && cond.Reason == sufficientPodsReason
	}
	return cond.Status == "False" && cond.Reason == insufficientPodsReason
}

// failSafe mirrors DisruptionController.failSafe: no disruption allowed, and why.
func (c *Controller) failSafe(ctx context.Context, u *api.Unstructured, b *pdb, cause error) error {
	next := b.Status
	next.DisruptionsAllowed = 0
	next.Conditions = setStatusCondition(append([]condition(nil), next.Conditions...), condition{Type: disruptionAllowedCondition,
		Status: "False", Reason: syncFailedReason, Message: cause.Error(), ObservedGeneration: next.ObservedGeneration,
		LastTransitionTime: c.now().UTC().Format(time.RFC3339)})
	// as upstream, only a failed write retries: the next pod or budget event syncs again
	return c.writeStatus(ctx, u, next, "sync failed: "+cause.Error())
}

// writeStatus replaces the budget's status through the status subresource.
func (c *Controller) writeStatus(ctx context.Context, u *api.Unstructured, st pdbStatus, cause string) error {
	su, err := app.ToUnstructured(st)
	if err != nil {
		return err
	}
	next := u.DeepCopy()
	next.Object["status"] = su.Object
	out, err := c.cc.Client.Resource(app.PodDisruptionBudgets).Namespace(u.GetNamespace()).UpdateStatus(ctx, next, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(c.cc.Logger, Name, "update-status", u.GetNamespace()+"/"+u.GetName(), rv, slog.String("cause", cause), slog.Any("err", err))
	return err
}
