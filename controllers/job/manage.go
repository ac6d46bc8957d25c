package job

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/store"
)

// manageJob mirrors manageJob: delete pods while suspended or above the wanted number,
// else create the missing ones, in slow-start batches, after the failure back-off. It
// returns the active count as it will be.
func (c *Controller) manageJob(ctx context.Context, j *job, jc *syncJobCtx) (int32, error) {
	key := j.key()
	active := int32(len(jc.activePods))
	parallelism := deref(j.Spec.Parallelism, 1)
	if j.suspended() {
		rm := activePodsForRemoval(j, jc.activePods, int(active))
		c.expectations.expectDeletions(key, len(rm))
		removedReady, removed, err := c.deleteJobPods(ctx, j, rm, "suspended")
		jc.terminating += removed
		jc.ready -= removedReady
		return active - removed, err
	}
	var wantActive int32
	if j.Spec.Completions == nil {
		// Without completions: parallelism, until one pod succeeded; then what runs runs.
		wantActive = parallelism
		if jc.succeeded > 0 {
			wantActive = active
		}
	} else {
		wantActive = max(0, min(*j.Spec.Completions-jc.succeeded, parallelism))
	}
	rm := activePodsForRemoval(j, jc.activePods, int(max(0, active-wantActive)))
	if len(rm) > MaxPodCreateDeletePerSync {
		rm = rm[:MaxPodCreateDeletePerSync]
	}
	if len(rm) > 0 {
		// Deleting and creating in one sync is never done; deletion wins.
		c.expectations.expectDeletions(key, len(rm))
		removedReady, removed, err := c.deleteJobPods(ctx, j, rm, "too many active pods")
		jc.terminating += removed
		jc.ready -= removedReady
		return active - removed, err
	}
	var terminating int32
	if j.onlyReplaceFailedPods() {
		terminating = jc.terminating
	}
	diff := wantActive - terminating - active
	if diff <= 0 {
		return active, nil
	}
	if remaining := jc.newBackoffRecord.getRemainingTime(time.Now(), DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff); remaining > 0 {
		c.hop("backoff", key, j.obj.GetResourceVersion(), slog.Duration("remaining", remaining), slog.Int("failures", int(jc.newBackoffRecord.failuresAfterLastSuccess)))
		c.queue.AddAfter(key, remaining)
		return active, nil
	}
	diff = min(diff, MaxPodCreateDeletePerSync)
	var indexes []int
	if j.isIndexed() {
		indexes = firstPendingIndexes(jc, int(diff), int(j.completions()))
		diff = int32(len(indexes))
	}
	c.expectations.expectCreations(key, int(diff))
	active += diff
	template := deepCopyMap(app.NestedMap(j.obj.Object, "spec", "template"))
	if template == nil {
		template = map[string]any{}
	}
	spec, _ := template["spec"].(map[string]any)
	if j.isIndexed() && spec != nil {
		addCompletionIndexEnvVariables(spec)
	}
	ref := app.NewControllerRef(j.obj)
	var firstErr error
	var mu sync.Mutex
	for batch := min(diff, slowStartInitialBatchSize); diff > 0; batch = min(2*batch, diff) {
		var failed atomic.Int32
		var wg sync.WaitGroup
		for range batch {
			ix := unknownCompletionIndex
			if len(indexes) > 0 {
				ix, indexes = indexes[0], indexes[1:]
			}
			wg.Go(func() {
				if err := c.createPod(ctx, j, template, &ref, ix); err != nil {
					c.expectations.creationObserved(key) // the informer will not see it
					failed.Add(1)
					mu.Lock()
					firstErr = cmpErr(firstErr, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		active -= failed.Load()
		if skipped := diff - batch; failed.Load() > 0 && skipped > 0 {
			// Slow start: one failure in a batch stops the rest; the next sync retries.
			active -= skipped
			for range skipped {
				c.expectations.creationObserved(key)
			}
			break
		}
		diff -= batch
	}
	return active, firstErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// createPod mirrors the pod creation of manageJob and RealPodControl.CreatePods: the
// template with the tracking finalizer and, for an Indexed Job, the index annotation,
// label, hostname and generated name.
func (c *Controller) createPod(ctx context.Context, j *job, template map[string]any, ref *api.OwnerReference, ix int) error {
	pod := app.GetPodFromTemplate(template, j.obj, ref)
	fin := pod.GetFinalizers()
	if !hasString(fin, JobTrackingFinalizer) {
		pod.SetFinalizers(append(fin, JobTrackingFinalizer))
	}
	if ix != unknownCompletionIndex {
		ann := pod.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann[JobCompletionIndexAnnotation] = strconv.Itoa(ix)
		pod.SetAnnotations(ann)
		lbl := pod.GetLabels()
		if lbl == nil {
			lbl = map[string]string{}
		}
		lbl[JobCompletionIndexAnnotation] = strconv.Itoa(ix)
		pod.SetLabels(lbl)
		if spec := app.NestedMap(pod.Object, "spec"); spec != nil {
			spec["hostname"] = j.name() + "-" + strconv.Itoa(ix)
		}
		pod.SetGenerateName(podGenerateNameWithIndex(j.name(), ix))
	}
	created, err := c.cc.Client.Resource(app.Pods).Namespace(j.namespace()).Create(ctx, pod, api.CreateOptions{})
	if err != nil {
		c.hop("create-pod", j.key(), j.obj.GetResourceVersion(), slog.String("cause", "too few active pods"), slog.Any("err", err))
		c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		return err
	}
	c.hop("create-pod", j.key(), j.obj.GetResourceVersion(), slog.String("cause", "too few active pods"), slog.Int("index", ix))
	c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", created.GetName())
	return nil
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// deleteActivePods mirrors deleteActivePods: delete, keeping the finalizers, so the
// failed pods are still counted afterwards. It returns the ready and all deleted pods.
func (c *Controller) deleteActivePods(ctx context.Context, j *job, pods []*api.Unstructured) (int32, int32, error) {
	var deleted, ready int32
	var firstErr error
	for _, p := range pods {
		if err := c.deletePodCall(ctx, j, p, "job finished"); err != nil && !api.IsNotFound(err) {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		deleted++
		if app.IsPodReady(p) {
			ready++
		}
	}
	return ready, deleted, firstErr
}

// deleteJobPods mirrors deleteJobPods: remove the tracking finalizer (the pod is not to be
// counted), then delete.
func (c *Controller) deleteJobPods(ctx context.Context, j *job, pods []*api.Unstructured, cause string) (int32, int32, error) {
	var deleted, ready int32
	var firstErr error
	for _, p := range pods {
		err := c.removeTrackingFinalizer(ctx, j.key(), p)
		if err == nil {
			err = c.deletePodCall(ctx, j, p, cause)
		}
		if err != nil {
			c.expectations.deletionObserved(j.key())
			if !api.IsNotFound(err) {
				firstErr = cmpErr(firstErr, err)
				continue
			}
		}
		deleted++
		if app.IsPodReady(p) {
			ready++
		}
	}
	return ready, deleted, firstErr
}

// deletePodCall mirrors RealPodControl.DeletePod with its events.
func (c *Controller) deletePodCall(ctx context.Context, j *job, p *api.Unstructured, cause string) error {
	err := c.cc.Client.Resource(app.Pods).Namespace(p.GetNamespace()).Delete(ctx, p.GetName(), api.DeleteOptions{})
	c.hop("delete-pod", j.key(), j.obj.GetResourceVersion(), slog.String("pod", p.GetName()), slog.String("cause", cause), slog.Any("err", err))
	switch {
	case err == nil:
		c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", p.GetName())
	case !api.IsNotFound(err):
		c.cc.Recorder.Eventf(ctx, component, j.obj, app.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
	}
	return err
}

// removeTrackingFinalizer patches the finalizer away as removeTrackingFinalizerPatch does,
// with a strategic merge patch that touches no other finalizer.
func (c *Controller) removeTrackingFinalizer(ctx context.Context, key string, p *api.Unstructured) error {
	if !hasJobTrackingFinalizer(p) {
		return nil
	}
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": []string{JobTrackingFinalizer}}})
	_, err := c.cc.Client.Resource(app.Pods).Namespace(p.GetNamespace()).Patch(ctx, p.GetName(), api.StrategicMergePatchType, patch, api.PatchOptions{})
	c.hop("remove-finalizer", key, p.GetResourceVersion(), slog.String("pod", p.GetName()), slog.String("cause", "pod counted"), slog.Any("err", err))
	return err
}

// activePodsForRemoval mirrors activePodsForRemoval: an Indexed Job's duplicate and
// out-of-range pods first, then the least valuable (activePodsLess).
func activePodsForRemoval(j *job, pods []*api.Unstructured, rmAtLeast int) []*api.Unstructured {
	var rm, left []*api.Unstructured
	if j.isIndexed() {
		rm, left = appendDuplicatedIndexPodsForRemoval(pods, int(j.completions()))
	} else {
		left = append(left, pods...)
	}
	if len(rm) < rmAtLeast {
		sort.SliceStable(left, func(a, b int) bool { return activePodsLess(left[a], left[b]) })
		rm = append(rm, left[:rmAtLeast-len(rm)]...)
	}
	return rm
}

// activePodsLess mirrors controller.ActivePods' Less: unscheduled before scheduled,
// Pending before Unknown before Running, not ready before ready, more restarts first,
// newer first.
func activePodsLess(a, b *api.Unstructured) bool {
	if (app.NodeName(a) == "") != (app.NodeName(b) == "") {
		return app.NodeName(a) == ""
	}
	rank := map[string]int{"Pending": 0, "Unknown": 1, "Running": 2}
	if ra, rb := rank[phase(a)], rank[phase(b)]; ra != rb {
		return ra < rb
	}
	if app.IsPodReady(a) != app.IsPodReady(b) {
		return !app.IsPodReady(a)
	}
	if ra, rb := restartCount(a), restartCount(b); ra != rb {
		return ra > rb
	}
	ta, tb := a.GetCreationTimestamp().Time, b.GetCreationTimestamp().Time
	if !ta.Equal(tb) {
		return ta.After(tb)
	}
	return a.GetName() < b.GetName()
}

// releaseOrphanPods mirrors the orphan pod handling of the Job controller: once a Job is
// gone, its pods must not keep the tracking finalizer, or they could never be deleted.
func (c *Controller) releaseOrphanPods(ctx context.Context, key string) error {
	ns, name := splitKey(key)
	var orphans []*api.Unstructured
	_ = store.ListAllByNamespace(c.pods.GetIndexer(), ns, labels.Everything(), func(obj any) {
		p, ok := app.AsUnstructured(obj)
		if !ok || !hasJobTrackingFinalizer(p) {
			return
		}
		if ref := app.GetControllerOf(p); ref != nil && ref.Kind == "Job" && ref.Name == name {
			orphans = append(orphans, p)
		}
	})
	var firstErr error
	for _, p := range orphans {
		if err := c.removeTrackingFinalizer(ctx, key, p); err != nil && !api.IsNotFound(err) {
			firstErr = cmpErr(firstErr, err)
		}
	}
	return firstErr
}

func splitKey(key string) (string, string) {
	for i := range len(key) {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// deepCopyMap copies a JSON-shaped map, keeping its number types.
func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return (&api.Unstructured{Object: m}).DeepCopy().Object
}
