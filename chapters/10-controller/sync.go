package ch10

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// The results a sync reports in its trace hop.
const (
	resultUpdateStatus = "update-status" // the status differs: write it
	resultUpToDate     = "up-to-date"    // nothing to do (e.g. the sync caused by our own write)
	resultStopped      = "stopped"       // the pod is gone: its images were stopped
	resultAbsent       = "absent"        // the pod is gone and nothing ran for it
)

// ReadyReason is ours: the reason of the Ready condition the controller writes.
const ReadyReason = "Started"

// syncHandler mirrors syncHandler in sample-controller: compare the state the cache holds for
// key with the world, and make the world match. It reads the lister, never the event that
// enqueued the key, which is what makes the controller level-triggered (T17).
//
//lab:10.2
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	namespace, name, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		// A bad key will not get better: report it and do not retry.
		c.errorHandler(fmt.Errorf("invalid resource key: %s", key))
		return nil
	}
	pod, err := c.podsLister.ByNamespace(namespace).Get(name)
	if err != nil {
		if !api.IsNotFound(err) {
			return err
		}
		// The pod is gone. A delete event and a tombstone after a relist both end here.
		result := resultAbsent
		if c.stop(key) {
			result = resultStopped
		}
		c.traceSync(key, "", "", result)
		return nil
	}

	images := imagesOf(pod)
	c.run(key, images)
	want := desiredStatus(images)
	if statusUpToDate(pod.Status, want) {
		c.traceSync(key, pod.ResourceVersion, images, resultUpToDate)
		return nil
	}
	c.traceSync(key, pod.ResourceVersion, images, resultUpdateStatus)
	// Never mutate the cache: the lister hands out the informer's own object.
	podCopy := pod.DeepCopy()
	podCopy.Status = want
	// The copy carries the cached resourceVersion, so a cache that lags the server gets a
	// 409 Conflict, and handleErr retries once the informer has caught up.
	_, err = c.client.UpdateStatus(ctx, podCopy)
	return err
}

// traceSync logs the sync hop. It is logged before the write, so that in a trace it precedes
// the apiserver's update and the events that follow from it.
func (c *Controller) traceSync(key, rv, images, result string) {
	if !trace.Enabled(c.logger) {
		return
	}
	attrs := []slog.Attr{slog.String("result", result)}
	if images != "" {
		attrs = append(attrs, slog.String("images", images))
	}
	trace.Hop(c.logger, traceComponent, "sync", key, rv, attrs...)
}

// DesiredStatus is the status the controller wants pod to have: phase Running and a Ready
// condition whose message names the images. It plays the part of newDeployment and the Foo
// status in sample-controller: state derived from the spec.
func DesiredStatus(pod *api.Pod) api.PodStatus { return desiredStatus(imagesOf(pod)) }

func desiredStatus(images string) api.PodStatus {
	return api.PodStatus{
		Phase: api.PodRunning,
		Conditions: []api.PodCondition{{
			Type:    api.PodReady,
			Status:  api.ConditionTrue,
			Reason:  ReadyReason,
			Message: "running " + images,
		}},
	}
}

// statusUpToDate compares the fields the controller owns.
func statusUpToDate(have, want api.PodStatus) bool {
	if have.Phase != want.Phase || len(have.Conditions) != len(want.Conditions) {
		return false
	}
	for i, w := range want.Conditions {
		h := have.Conditions[i]
		if h.Type != w.Type || h.Status != w.Status || h.Reason != w.Reason || h.Message != w.Message {
			return false
		}
	}
	return true
}

// imagesOf lists a pod's images, comma-separated, in container order.
func imagesOf(pod *api.Pod) string {
	images := make([]string, len(pod.Spec.Containers))
	for i, ctr := range pod.Spec.Containers {
		images[i] = ctr.Image
	}
	return strings.Join(images, ",")
}

// run records that key runs images (starting or restarting them).
func (c *Controller) run(key, images string) {
	c.mu.Lock()
	c.running[key] = images
	c.mu.Unlock()
}

// stop forgets key and reports whether anything ran for it.
func (c *Controller) stop(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.running[key]
	delete(c.running, key)
	return ok
}
