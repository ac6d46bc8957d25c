package daemonset

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// dsControl is one pass over one DaemonSet.
type dsControl struct {
	c     *Controller
	d     *daemonSet
	key   string
	hash  string
	nodes []*api.Unstructured
	now   time.Time

	adoptChecked bool  // canAdopt asked the server
	adoptErr     error // and its answer
}

// canAdopt runs app.CanAdopt once per pass, before the first adoption.
func (dc *dsControl) canAdopt(ctx context.Context) error {
	if !dc.adoptChecked {
		dc.adoptChecked = true
		dc.adoptErr = app.CanAdopt(ctx, dc.c.cc.Client, app.DaemonSets, dc.d.u)
	}
	return dc.adoptErr
}

// update mirrors updateDaemonSet: manage the pods, roll them when the strategy says so and
// the expectations are met, then trim the history.
func (dc *dsControl) update(ctx context.Context, old []*api.Unstructured) error {
	if err := dc.manage(ctx); err != nil {
		return err
	}
	if dc.c.expectations.satisfied(dc.key, dc.now) && dc.d.Spec.UpdateStrategy.Type == rollingUpdateStrategy {
		if err := dc.rollingUpdate(ctx); err != nil {
			return err
		}
	}
	return dc.cleanupHistory(ctx, old)
}

// daemonPods mirrors getDaemonPods with ClaimPods: the DaemonSet's pods, orphans matching
// its selector adopted, own pods no longer matching released.
func (dc *dsControl) daemonPods(ctx context.Context) ([]*api.Unstructured, error) {
	sel, err := app.LabelSelectorAsSelector(dc.d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var candidates []*api.Unstructured
	_ = store.ListAllByNamespace(dc.c.pods.GetIndexer(), dc.d.u.GetNamespace(), labels.Everything(), func(obj any) {
		if p, ok := obj.(*api.Unstructured); ok {
			candidates = append(candidates, p)
		}
	})
	uid := dc.d.u.GetUID()
	var out []*api.Unstructured
	for _, p := range candidates {
		ref := app.GetControllerOf(p)
		matches := sel.Matches(labels.Set(p.GetLabels()))
		switch {
		case ref != nil && ref.UID == uid && matches:
			out = append(out, p)
		case ref != nil && ref.UID == uid && p.GetDeletionTimestamp() == nil:
			cp := p.DeepCopy()
			var keep []api.OwnerReference
			for _, r := range cp.GetOwnerReferences() {
				if r.UID != uid {
					keep = append(keep, r)
				}
			}
			cp.SetOwnerReferences(keep)
			if err := dc.writePod(ctx, cp, "release: the pod no longer matches the selector"); err != nil {
				return nil, err
			}
		case ref == nil && matches && p.GetDeletionTimestamp() == nil:
			if err := dc.canAdopt(ctx); err != nil {
				return nil, err
			}
			cp := p.DeepCopy()
			cp.SetOwnerReferences(append(cp.GetOwnerReferences(), dc.d.controllerRef()))
			if err := dc.writePod(ctx, cp, "adopt: an orphan pod matches the selector"); err != nil {
				return nil, err
			}
			out = append(out, cp)
		}
	}
	return out, nil
}

func (dc *dsControl) writePod(ctx context.Context, p *api.Unstructured, cause string) error {
	out, err := dc.c.cc.Client.Resource(app.Pods).Namespace(p.GetNamespace()).Update(ctx, p, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(dc.c.cc.Logger, name, "update", p.GetNamespace()+"/"+p.GetName(), rv,
		slog.String("resource", "pods"), slog.String("cause", cause), slog.Any("err", err))
	if api.IsNotFound(err) {
		return nil
	}
	return err
}

// nodesToDaemonPods mirrors getNodesToDaemonPods: the DaemonSet's pods by the node they are
// bound or pinned to; finished pods already being deleted are left out unless asked for.
func (dc *dsControl) nodesToDaemonPods(ctx context.Context, includeDeletedTerminal bool) (map[string][]*api.Unstructured, error) {
	pods, err := dc.daemonPods(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]*api.Unstructured{}
	for _, p := range pods {
		phase := app.PodPhase(p)
		if !includeDeletedTerminal && (phase == "Succeeded" || phase == "Failed") && p.GetDeletionTimestamp() != nil {
			continue // terminal and going away: nothing left for the DaemonSet to do with it
		}
		if n := targetNodeName(p); n != "" {
			out[n] = append(out[n], p)
		}
	}
	return out, nil
}

// byCreation mirrors podByCreationTimestampAndPhase: scheduled before unscheduled (a pod
// with a node first), then the oldest first.
func byCreation(pods []*api.Unstructured) {
	sort.SliceStable(pods, func(i, j int) bool {
		ni, nj := app.NodeName(pods[i]) != "", app.NodeName(pods[j]) != ""
		if ni != nj {
			return ni
		}
		ti, tj := pods[i].GetCreationTimestamp(), pods[j].GetCreationTimestamp()
		if ti.Time.Equal(tj.Time) {
			return pods[i].GetName() < pods[j].GetName()
		}
		return ti.Time.Before(tj.Time)
	})
}

// manage mirrors manage and podsShouldBeOnNode: a pod for each node that should run one
// and has none, and the deletion of pods on nodes that no longer fit, of finished pods, of
// extra pods, and of unscheduled pods pinned to nodes that are gone.
func (dc *dsControl) manage(ctx context.Context) error {
	byNode, err := dc.nodesToDaemonPods(ctx, false)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", dc.d.u.GetName(), err)
	}
	var create []string
	var del []victim
	surge := dc.d.allowsSurge()
	for _, node := range dc.nodes {
		shouldRun, shouldContinue := nodeShouldRunDaemonPod(node, dc.d)
		pods, exists := byNode[node.GetName()]
		switch {
		case shouldRun && !exists:
			create = append(create, node.GetName())
		case shouldContinue:
			var running []*api.Unstructured
			for _, p := range pods {
				if p.GetDeletionTimestamp() != nil {
					continue
				}
				switch app.PodPhase(p) {
				case "Failed":
					bk := fmt.Sprintf("%s/%d/%s", dc.d.u.GetUID(), dc.d.Status.ObservedGeneration, node.GetName())
					if in, delay := dc.c.failedPods.inBackoff(bk, dc.now); in {
						dc.c.queue.AddAfter(dc.key, delay)
						continue
					}
					dc.c.failedPods.next(bk, dc.now)
					dc.event(ctx, app.EventTypeWarning, "FailedDaemonPod", "Found failed daemon pod %s/%s on node %s, will try to kill it", p.GetNamespace(), p.GetName(), node.GetName())
					del = append(del, victim{p, "the pod failed: it is replaced"})
				case "Succeeded":
					dc.event(ctx, app.EventTypeNormal, "SucceededDaemonPod", "Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.GetNamespace(), p.GetName(), node.GetName())
					del = append(del, victim{p, "the pod succeeded: it is replaced"})
				default:
					running = append(running, p)
				}
			}
			byCreation(running)
			if !surge {
				for i := 1; i < len(running); i++ {
					del = append(del, victim{running[i], "more than one daemon pod on node " + node.GetName()})
				}
				break
			}
			if len(running) == 0 && shouldRun {
				create = append(create, node.GetName())
			}
			if len(running) <= 1 {
				break
			}
			var oldestNew, oldestOld *api.Unstructured
			for _, p := range running {
				if p.GetLabels()[hashLabel] == dc.hash {
					if oldestNew == nil {
						oldestNew = p
						continue
					}
				} else if oldestOld == nil {
					oldestOld = p
					continue
				}
				del = append(del, victim{p, "more than one daemon pod of a revision on node " + node.GetName()})
			}
			if oldestNew != nil && oldestOld != nil &&
				(!app.IsPodReady(oldestOld) || app.IsPodAvailable(oldestNew, dc.d.Spec.MinReadySeconds, dc.now)) {
				del = append(del, victim{oldestOld, "surge: the new pod on node " + node.GetName() + " is available"})
			}
		case !shouldContinue && exists:
			for _, p := range pods {
				if p.GetDeletionTimestamp() == nil {
					del = append(del, victim{p, "node " + node.GetName() + " no longer fits the daemon pod"})
				}
			}
		}
	}
	present := map[string]bool{}
	for _, n := range dc.nodes {
		present[n.GetName()] = true
	}
	var gone []string
	for n := range byNode {
		if !present[n] {
			gone = append(gone, n)
		}
	}
	sort.Strings(gone)
	for _, n := range gone {
		for _, p := range byNode[n] {
			if app.NodeName(p) == "" {
				del = append(del, victim{p, "node " + n + " is gone"})
			}
		}
	}
	return dc.syncNodes(ctx, del, create)
}

// victim is a pod to delete and why.
type victim struct {
	pod   *api.Unstructured
	cause string
}

// syncNodes mirrors syncNodes: record the expectations, then create a pinned pod for each
// node and delete each pod named (at most burstReplicas of each).
func (dc *dsControl) syncNodes(ctx context.Context, del []victim, create []string) error {
	create = create[:min(len(create), burstReplicas)]
	del = del[:min(len(del), burstReplicas)]
	dc.c.expectations.expect(dc.key, len(create), len(del), dc.now)
	var errs []error
	template := podTemplate(dc.d, dc.hash)
	ref := dc.d.controllerRef()
	ns := dc.d.u.GetNamespace()
	for _, node := range create {
		t := deepCopy(template)
		spec, _ := t["spec"].(map[string]any)
		pinToNode(spec, node)
		pod := app.GetPodFromTemplate(t, dc.d.u, &ref)
		out, err := dc.c.cc.Client.Resource(app.Pods).Namespace(ns).Create(ctx, pod, api.CreateOptions{})
		rv, podName := "", ""
		if out != nil {
			rv, podName = out.GetResourceVersion(), out.GetName()
		}
		trace.Hop(dc.c.cc.Logger, name, "create", ns+"/"+podName, rv, slog.String("resource", "pods"),
			slog.String("node", node), slog.String("cause", "node "+node+" should run a daemon pod"), slog.Any("err", err))
		if err != nil {
			dc.c.expectations.creationObserved(dc.key)
			dc.event(ctx, app.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
			errs = append(errs, err)
			continue
		}
		dc.event(ctx, app.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", podName)
	}
	for _, v := range del {
		podName := v.pod.GetName()
		err := dc.c.cc.Client.Resource(app.Pods).Namespace(ns).Delete(ctx, podName, api.DeleteOptions{})
		trace.Hop(dc.c.cc.Logger, name, "delete", ns+"/"+podName, v.pod.GetResourceVersion(), slog.String("resource", "pods"),
			slog.String("node", targetNodeName(v.pod)), slog.String("cause", v.cause), slog.Any("err", err))
		if err != nil {
			dc.c.expectations.deletionObserved(dc.key)
			if !api.IsNotFound(err) {
				dc.event(ctx, app.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
				errs = append(errs, err)
			}
			continue
		}
		dc.event(ctx, app.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", podName)
	}
	return errors.Join(errs...)
}

func (dc *dsControl) event(ctx context.Context, typ, reason, format string, args ...any) {
	dc.c.cc.Recorder.Eventf(ctx, eventComponent, dc.d.u, typ, reason, format, args...)
}

// updateStatus mirrors updateDaemonSetStatus and storeDaemonSetStatus: count desired,
// scheduled, misscheduled, ready, available and updated pods over the nodes, and write the
// status when it changed.
func (dc *dsControl) updateStatus(ctx context.Context, updateObservedGen bool) error {
	byNode, err := dc.nodesToDaemonPods(ctx, false)
	if err != nil {
		return err
	}
	var st dsStatus
	gen := dc.d.templateGeneration()
	for _, node := range dc.nodes {
		shouldRun, _ := nodeShouldRunDaemonPod(node, dc.d)
		pods := byNode[node.GetName()]
		if !shouldRun {
			if len(pods) > 0 {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if len(pods) == 0 {
			continue
		}
		st.CurrentNumberScheduled++
		byCreation(pods)
		p := pods[0]
		if app.IsPodReady(p) {
			st.NumberReady++
			if app.IsPodAvailable(p, dc.d.Spec.MinReadySeconds, dc.now) {
				st.NumberAvailable++
			}
		}
		if isPodUpdated(p, dc.hash, gen) {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	old := dc.d.Status
	st.ObservedGeneration = old.ObservedGeneration
	if updateObservedGen {
		st.ObservedGeneration = dc.d.u.GetGeneration()
	}
	st.CollisionCount = old.CollisionCount
	if statusEqual(st, old) && (old.ObservedGeneration >= dc.d.u.GetGeneration() || !updateObservedGen) {
		return dc.requeueForAvailability(st)
	}
	u := dc.d.u.DeepCopy()
	m, err := app.ToUnstructured(st)
	if err != nil {
		return err
	}
	if conds, ok := app.Nested(u.Object, "status", "conditions"); ok {
		m.Object["conditions"] = conds
	}
	u.Object["status"] = m.Object
	out, err := dc.c.cc.Client.Resource(app.DaemonSets).Namespace(u.GetNamespace()).UpdateStatus(ctx, u, api.UpdateOptions{})
	rv := ""
	if out != nil {
		rv = out.GetResourceVersion()
	}
	trace.Hop(dc.c.cc.Logger, name, "update-status", dc.key, rv, slog.String("cause", "the pods or nodes changed"),
		slog.Int("desired", int(st.DesiredNumberScheduled)), slog.Int("ready", int(st.NumberReady)),
		slog.Int("updated", int(st.UpdatedNumberScheduled)), slog.Any("err", err))
	if err != nil {
		return fmt.Errorf("error storing status for daemon set %s: %w", dc.key, err)
	}
	return dc.requeueForAvailability(st)
}

func statusEqual(a, b dsStatus) bool {
	a.CollisionCount, b.CollisionCount = nil, nil
	return a == b
}

// requeueForAvailability mirrors the end of updateDaemonSetStatus: with minReadySeconds,
// ready pods become available later, so look again then.
func (dc *dsControl) requeueForAvailability(st dsStatus) error {
	if dc.d.Spec.MinReadySeconds > 0 && st.NumberReady != st.NumberAvailable {
		dc.c.queue.AddAfter(dc.key, time.Duration(dc.d.Spec.MinReadySeconds)*time.Second)
	}
	return nil
}
