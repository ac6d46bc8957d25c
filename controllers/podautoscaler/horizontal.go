package podautoscaler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name mirrors the controller's name in NewControllerDescriptors, as --controllers spells it.
const Name = "podautoscaler"

const component = "horizontal-pod-autoscaler"

// resyncPeriod mirrors --horizontal-pod-autoscaler-sync-period.
const resyncPeriod = 15 * time.Second

// Controller mirrors HorizontalController.
type Controller struct {
	cc      *app.ControllerContext
	hpas    informer.SharedIndexInformer
	pods    informer.SharedIndexInformer
	scales  *app.ScaleClient
	metrics *metricsClient
	queue   workqueue.TypedRateLimitingInterface[string]
	hist    *history
	now     func() time.Time
}

// New mirrors NewHorizontalController.
func New(cc *app.ControllerContext) (app.Controller, error) {
	rc, err := rest.RESTClientFor(cc.Config)
	if err != nil {
		return nil, err
	}
	c := &Controller{cc: cc, hpas: cc.Informer(app.HorizontalPodAutoscalers), pods: cc.Informer(app.Pods),
		scales: app.NewScaleClient(cc), metrics: &metricsClient{rc: rc}, queue: cc.NewQueue(Name), hist: newHistory(), now: time.Now}
	// enqueueHPA: every HPA is processed once per resyncPeriod, whatever its events; a key
	// already waiting keeps its turn, so the echo of the controller's own status write does
	// not bring the next sync forward. A deleted HPA is forgotten at its next turn.
	key := func(obj any) {
		if u, ok := app.AsUnstructured(obj); ok {
			c.queue.AddAfter(u.GetNamespace()+"/"+u.GetName(), resyncPeriod)
		}
	}
	if _, err := c.hpas.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: key, UpdateFunc: func(_, n any) { key(n) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors Controller.Name of k8s.io/controller-manager: "podautoscaler".
func (c *Controller) Name() string { return Name }

// Run mirrors HorizontalController.Run: workers until ctx ends; every HPA is synced again
// after resyncPeriod.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.reconcileKey)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

// reconcileKey mirrors reconcileKey with processNextWorkItem: an HPA that still exists comes
// back after resyncPeriod, failed or not (upstream's fixed-interval rate limiter), so the
// loop never sees an error to retry sooner.
func (c *Controller) reconcileKey(ctx context.Context, key string) error {
	obj, exists, err := c.hpas.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		c.hist.forget(key)
		return nil
	}
	c.queue.AddAfter(key, resyncPeriod)
	if err := c.reconcile(ctx, key, obj.(*api.Unstructured)); err != nil {
		trace.Hop(c.cc.Logger, component, "error", key, "", slog.Any("err", err))
	}
	return nil
}

// state is one reconcile's working copy of the HPA.
type state struct {
	u        *api.Unstructured
	h        *hpa
	original hpaStatus
	now      time.Time
	ref      string
}

func (s *state) setCondition(t, status, reason, format string, args ...any) {
	s.h.Status.Conditions = setConditionInList(s.h.Status.Conditions, t, status, reason, fmt.Sprintf(format, args...), s.now)
}

// setConditionInList mirrors the function of that name: the transition time moves with the
// status only.
func setConditionInList(list []hpaCondition, t, status, reason, msg string, now time.Time) []hpaCondition {
	for i := range list {
		if list[i].Type == t {
			if list[i].Status != status {
				list[i].LastTransitionTime = now.UTC().Format(time.RFC3339)
			}
			list[i].Status, list[i].Reason, list[i].Message = status, reason, msg
			return list
		}
	}
	return append(list, hpaCondition{Type: t, Status: status, Reason: reason, Message: msg, LastTransitionTime: now.UTC().Format(time.RFC3339)})
}

func (c *Controller) event(ctx context.Context, s *state, typ, reason, format string, args ...any) {
	c.cc.Recorder.Eventf(ctx, component, s.u, typ, reason, format, args...)
}

// reconcile mirrors reconcileAutoscaler.
func (c *Controller) reconcile(ctx context.Context, key string, u *api.Unstructured) error {
	h, err := app.FromUnstructured[hpa](u)
	if err != nil {
		return err
	}
	s := &state{u: u, h: h, now: c.now(), ref: fmt.Sprintf("%s/%s/%s", h.Spec.ScaleTargetRef.Kind, u.GetNamespace(), h.Spec.ScaleTargetRef.Name)}
	s.original = cloneStatus(h.Status)
	trace.Hop(c.cc.Logger, component, "sync", key, u.GetResourceVersion())
	target := h.Spec.ScaleTargetRef
	scale, gvr, err := c.scales.Get(ctx, u.GetNamespace(), target.APIVersion, target.Kind, target.Name)
	if err != nil {
		c.event(ctx, s, app.EventTypeWarning, "FailedGetScale", "%v", err)
		s.setCondition(ableToScale, "False", "FailedGetScale", "the HPA controller was unable to get the target's current scale: %v", err)
		c.updateStatusIfNeeded(ctx, s, "the target's scale cannot be read")
		return fmt.Errorf("failed to query scale subresource for %s: %v", s.ref, err)
	}
	s.setCondition(ableToScale, "True", "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	current := scale.Spec.Replicas
	c.hist.recordInitial(key, current, s.now)
	minReplicas := int32(1)
	if h.Spec.MinReplicas != nil {
		minReplicas = *h.Spec.MinReplicas
	}
	var statuses []metricStatus
	desired, reason, rescale := int32(0), "", true
	var retErr error
	switch {
	case current == 0 && minReplicas != 0:
		rescale = false
		s.setCondition(scalingActive, "False", "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
	case current > h.Spec.MaxReplicas:
		reason, desired = "Current number of replicas above Spec.MaxReplicas", h.Spec.MaxReplicas
	case current < minReplicas:
		reason, desired = "Current number of replicas below Spec.MinReplicas", minReplicas
	default:
		var metricDesired int32
		var metricName string
		metricDesired, metricName, statuses, err = c.computeReplicasForMetrics(ctx, s, scale)
		if err != nil && metricDesired == -1 {
			c.setStatus(s, current, h.Status.DesiredReplicas, statuses, false)
			c.updateStatusIfNeeded(ctx, s, "the metrics cannot be computed")
			c.event(ctx, s, app.EventTypeWarning, "FailedComputeMetricsReplicas", "%v", err)
			return fmt.Errorf("failed to compute desired number of replicas based on listed metrics for %s: %v", s.ref, err)
		}
		retErr = err
		rescaleMetric := ""
		if metricDesired > desired {
			desired, rescaleMetric = metricDesired, metricName
		}
		if desired > current {
			reason = fmt.Sprintf("%s above target", rescaleMetric)
		}
		if desired < current {
			reason = "All metrics below target"
		}
		if h.Spec.Behavior == nil {
			desired = c.normalize(s, key, current, desired, minReplicas)
		} else {
			desired = c.normalizeWithBehaviors(s, key, current, desired, minReplicas)
		}
		rescale = desired != current
	}
	if rescale {
		err := c.rescale(ctx, s, scale, gvr, desired)
		if err != nil {
			c.event(ctx, s, app.EventTypeWarning, "FailedRescale", "New size: %d; reason: %s; error: %v", desired, reason, err)
			s.setCondition(ableToScale, "False", "FailedUpdateScale", "the HPA controller was unable to update the target scale: %v", err)
			c.setStatus(s, current, h.Status.DesiredReplicas, statuses, false)
			c.updateStatusIfNeeded(ctx, s, "the scale cannot be written")
			return fmt.Errorf("failed to rescale %s: %v", s.ref, err)
		}
		s.setCondition(ableToScale, "True", "SucceededRescale", "the HPA controller was able to update the target scale to %d", desired)
		c.event(ctx, s, app.EventTypeNormal, "SuccessfulRescale", "New size: %d; reason: %s", desired, reason)
		c.hist.storeScaleEvent(key, h.Spec.Behavior, current, desired, s.now)
	} else {
		desired = current
	}
	c.setStatus(s, current, desired, statuses, rescale)
	if err := c.updateStatusIfNeeded(ctx, s, fmt.Sprintf("%d replicas, %d desired", current, desired)); err != nil {
		return err
	}
	return retErr
}

// rescale writes the target's scale, re-reading it on a conflict (RetryOnConflict's default
// of 5 tries).
func (c *Controller) rescale(ctx context.Context, s *state, scale *app.Scale, gvr api.GroupVersionResource, desired int32) error {
	var err error
	for range 5 {
		prev := scale.Spec.Replicas
		scale.Spec.Replicas = desired
		var out *app.Scale
		out, err = c.scales.Update(ctx, gvr, scale)
		rv := ""
		if out != nil {
			rv = out.Metadata.ResourceVersion
		}
		trace.Hop(c.cc.Logger, component, "scale", s.u.GetNamespace()+"/"+scale.Metadata.Name, rv,
			slog.String("cause", fmt.Sprintf("%s from %d to %d", s.ref, prev, desired)), slog.Any("err", err))
		if err == nil || !api.IsConflict(err) {
			return err
		}
		latest, _, gerr := c.scales.Get(ctx, s.u.GetNamespace(), s.h.Spec.ScaleTargetRef.APIVersion, s.h.Spec.ScaleTargetRef.Kind, s.h.Spec.ScaleTargetRef.Name)
		if gerr == nil {
			scale = latest
		}
	}
	return err
}

// normalize mirrors normalizeDesiredReplicas (no spec.behavior).
func (c *Controller) normalize(s *state, key string, current, desired, minReplicas int32) int32 {
	stabilized := c.hist.stabilize(key, desired, s.now)
	if stabilized != desired {
		s.setCondition(ableToScale, "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation")
	} else {
		s.setCondition(ableToScale, "True", "ReadyForNewScale", "recommended size matches current size")
	}
	out, reason, msg := convertWithRules(current, stabilized, minReplicas, s.h.Spec.MaxReplicas)
	limited := "True"
	if out == stabilized {
		limited = "False"
	}
	s.setCondition(scalingLimited, limited, reason, "%s", msg)
	return out
}

// normalizeWithBehaviors mirrors normalizeDesiredReplicasWithBehaviors.
func (c *Controller) normalizeWithBehaviors(s *state, key string, current, desired, minReplicas int32) int32 {
	b := *s.h.Spec.Behavior
	defaultBehavior(&b)
	stabilized, reason, msg := c.hist.stabilizeWithBehaviors(key, current, desired, b.ScaleUp, b.ScaleDown, s.now)
	if stabilized != desired {
		s.setCondition(ableToScale, "True", reason, "%s", msg)
	} else {
		s.setCondition(ableToScale, "True", "ReadyForNewScale", "recommended size matches current size")
	}
	out, reason, msg := c.hist.convertWithBehaviorRate(key, current, stabilized, minReplicas, s.h.Spec.MaxReplicas, b.ScaleUp, b.ScaleDown, s.now)
	limited := "True"
	if out == stabilized {
		limited = "False"
	}
	s.setCondition(scalingLimited, limited, reason, "%s", msg)
	return out
}

// computeReplicasForMetrics mirrors the method of that name: the largest proposal over the
// metrics; -1 when every metric (or, scaling down, any) failed.
func (c *Controller) computeReplicasForMetrics(ctx context.Context, s *state, scale *app.Scale) (int32, string, []metricStatus, error) {
	if scale.Status.Selector == "" {
		c.event(ctx, s, app.EventTypeWarning, "SelectorRequired", "selector is required")
		s.setCondition(scalingActive, "False", "InvalidSelector", "the HPA target's scale is missing a selector")
		return -1, "", nil, errors.New("selector is required")
	}
	sel, err := labels.Parse(scale.Status.Selector)
	if err != nil {
		msg := fmt.Sprintf("couldn't convert selector into a corresponding internal selector object: %v", err)
		c.event(ctx, s, app.EventTypeWarning, "InvalidSelector", "%s", msg)
		s.setCondition(scalingActive, "False", "InvalidSelector", "%s", msg)
		return -1, "", nil, errors.New(msg)
	}
	var pods []*api.Unstructured
	objs, err := c.pods.GetIndexer().ByIndex(store.NamespaceIndex, s.u.GetNamespace())
	if err != nil {
		return -1, "", nil, err
	}
	for _, o := range objs {
		if p := o.(*api.Unstructured); sel.Matches(labels.Set(p.GetLabels())) {
			pods = append(pods, p)
		}
	}
	specs := s.h.Spec.Metrics
	statuses := make([]metricStatus, len(specs))
	var replicas int32
	var metric string
	invalid := 0
	var firstErr error
	var firstCond [3]string
	for i, m := range specs {
		n, name, reason, err := c.computeReplicasForMetric(ctx, s, m, scale.Spec.Replicas, pods, &statuses[i])
		if err != nil {
			if invalid == 0 {
				c.event(ctx, s, app.EventTypeWarning, reason, "%v", err)
				firstErr, firstCond = err, [3]string{"False", reason, fmt.Sprintf("the HPA was unable to compute the replica count: %v", err)}
			}
			invalid++
			continue
		}
		if replicas == 0 || n > replicas {
			replicas, metric = n, name
		}
	}
	if firstErr != nil {
		firstErr = fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %v", invalid, len(specs), firstErr)
	}
	if invalid >= len(specs) || (invalid > 0 && replicas < scale.Spec.Replicas) {
		s.setCondition(scalingActive, firstCond[0], firstCond[1], "%s", firstCond[2])
		return -1, "", statuses, firstErr
	}
	s.setCondition(scalingActive, "True", "ValidMetricFound", "the HPA was able to successfully calculate a replica count from %s", metric)
	return replicas, metric, statuses, firstErr
}

// computeReplicasForMetric mirrors the method of that name for Resource and Pods metrics.
func (c *Controller) computeReplicasForMetric(ctx context.Context, s *state, m metricSpec, current int32, pods []*api.Unstructured, st *metricStatus) (int32, string, string, error) {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.GetName()
	}
	switch {
	case m.Type == "Resource" && m.Resource != nil:
		res := m.Resource.Name
		readings, err := c.metrics.readings(ctx, s.u.GetNamespace(), res, names)
		if err != nil {
			return 0, "", "FailedGetResourceMetric", fmt.Errorf("failed to get %s resource metric value: failed to get %s utilization: %v", res, res, err)
		}
		t := m.Resource.Target
		if t.AverageValue != nil {
			tv, err := parseMilli(*t.AverageValue)
			if err != nil {
				return 0, "", "FailedGetResourceMetric", err
			}
			n, _, avg, err := resourceReplicas(current, 0, tv, res, pods, readings, s.now)
			if err != nil {
				return 0, "", "FailedGetResourceMetric", fmt.Errorf("failed to get %s resource metric value: failed to get %s usage: %v", res, res, err)
			}
			v := formatMilli(avg)
			*st = metricStatus{Type: "Resource", Resource: &resourceMetricStatus{Name: res, Current: metricValueStatus{AverageValue: &v}}}
			return n, res + " resource", "", nil
		}
		if t.AverageUtilization == nil {
			return 0, "", "FailedGetResourceMetric", fmt.Errorf("failed to get %s resource metric value: invalid resource metric source: neither an average utilization target nor an average value (usage) target was set", res)
		}
		n, util, avg, err := resourceReplicas(current, *t.AverageUtilization, 0, res, pods, readings, s.now)
		if err != nil {
			return 0, "", "FailedGetResourceMetric", fmt.Errorf("failed to get %s resource metric value: failed to get %s utilization: %v", res, res, err)
		}
		v := formatMilli(avg)
		*st = metricStatus{Type: "Resource", Resource: &resourceMetricStatus{Name: res, Current: metricValueStatus{AverageUtilization: &util, AverageValue: &v}}}
		return n, res + " resource utilization (percentage of request)", "", nil
	case m.Type == "Pods" && m.Pods != nil && m.Pods.Target.AverageValue != nil:
		name := m.Pods.Metric.Name
		tv, err := parseMilli(*m.Pods.Target.AverageValue)
		if err != nil {
			return 0, "", "FailedGetPodsMetric", err
		}
		readings, err := c.metrics.readings(ctx, s.u.GetNamespace(), name, names)
		if err == nil && len(readings) == 0 {
			err = fmt.Errorf("no metrics returned from custom metrics API")
		}
		if err != nil {
			return 0, "", "FailedGetPodsMetric", fmt.Errorf("failed to get pods metric value: unable to get metric %s: %v", name, err)
		}
		n, _, avg, err := resourceReplicas(current, 0, tv, "", pods, readings, s.now)
		if err != nil {
			return 0, "", "FailedGetPodsMetric", fmt.Errorf("failed to get pods metric value: %v", err)
		}
		v := formatMilli(avg)
		*st = metricStatus{Type: "Pods", Pods: &podsMetricStatus{Metric: metricIdentifier{Name: name}, Current: metricValueStatus{AverageValue: &v}}}
		return n, "pods metric " + name, "", nil
	case m.Type == "Object":
		return 0, "", "FailedGetObjectMetric", fmt.Errorf("failed to get object metric value: the simulated cluster serves no object metrics")
	case m.Type == "External":
		return 0, "", "FailedGetExternalMetric", fmt.Errorf("failed to get external metric value: the simulated cluster serves no external metrics")
	case m.Type == "ContainerResource":
		return 0, "", "FailedGetContainerResourceMetric", fmt.Errorf("failed to get container metric value: the simulated cluster serves no per-container metrics")
	}
	return 0, "", "InvalidMetricSourceType", fmt.Errorf("unknown metric source type %q", m.Type)
}

// setStatus mirrors setStatus.
func (c *Controller) setStatus(s *state, current, desired int32, statuses []metricStatus, rescale bool) {
	st := &s.h.Status
	st.CurrentReplicas, st.DesiredReplicas, st.CurrentMetrics = current, desired, statuses
	if rescale {
		t := s.now.UTC().Format(time.RFC3339)
		st.LastScaleTime = &t
	}
}

// updateStatusIfNeeded mirrors the method of that name.
func (c *Controller) updateStatusIfNeeded(ctx context.Context, s *state, cause string) error {
	if reflect.DeepEqual(normalizedStatus(s.original), normalizedStatus(s.h.Status)) {
		return nil
	}
	su, err := app.ToUnstructured(s.h.Status)
	if err != nil {
		return err
	}
	next := s.u.DeepCopy()
	next.Object["status"] = su.Object
	out, err := c.cc.Client.Resource(app.HorizontalPodAutoscalers).Namespace(s.u.GetNamespace()).UpdateStatus(ctx, next, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(c.cc.Logger, component, "update-status", s.u.GetNamespace()+"/"+s.u.GetName(), rv, slog.String("cause", cause), slog.Any("err", err))
	return err
}

func cloneStatus(st hpaStatus) hpaStatus {
	out := st
	out.Conditions = append([]hpaCondition(nil), st.Conditions...)
	out.CurrentMetrics = append([]metricStatus(nil), st.CurrentMetrics...)
	return out
}

// normalizedStatus makes empty and absent lists compare equal.
func normalizedStatus(st hpaStatus) hpaStatus {
	if len(st.Conditions) == 0 {
		st.Conditions = nil
	}
	if len(st.CurrentMetrics) == 0 {
		st.CurrentMetrics = nil
	}
	return st
}
