package namespace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// finalizerEstimateSeconds mirrors the estimate given when content waits on finalizers.
const finalizerEstimateSeconds = 15

// ResourcesRemainingError mirrors deletion.ResourcesRemainingError: content is left that
// should go by itself within Estimate seconds.
type ResourcesRemainingError struct {
	Estimate int64
}

func (e *ResourcesRemainingError) Error() string {
	return fmt.Sprintf("some content remains in the namespace, estimate %d seconds before it is removed", e.Estimate)
}

// resourcesDeleter mirrors namespacedResourcesDeleter of
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go.
type resourcesDeleter struct {
	cc        *app.ControllerContext
	discovery *discovery.DiscoveryClient
}

// gvrInfo is one namespaced resource that supports delete.
type gvrInfo struct {
	gvr              api.GroupVersionResource
	deleteCollection bool
	list             bool
}

// Delete mirrors namespacedResourcesDeleter.Delete.
func (d *resourcesDeleter) Delete(ctx context.Context, name string) error {
	nsClient := d.cc.Client.Resource(app.Namespaces)
	ns, err := nsClient.Get(ctx, name, api.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if ns.GetDeletionTimestamp() == nil {
		return nil
	}
	if phase, _, _ := api.NestedString(ns.Object, "status", "phase"); phase != string(api.NamespaceTerminating) {
		// updateNamespaceStatusFunc: the phase says Terminating before anything goes.
		cp := ns.DeepCopy()
		_ = api.SetNestedField(cp.Object, string(api.NamespaceTerminating), "status", "phase")
		if ns, err = nsClient.UpdateStatus(ctx, cp, api.UpdateOptions{}); err != nil {
			if api.IsNotFound(err) {
				return nil
			}
			return err
		}
	}
	if finalized(ns) {
		return nil
	}
	estimate, err := d.deleteAllContent(ctx, ns)
	if err != nil {
		return err
	}
	if estimate > 0 {
		return &ResourcesRemainingError{Estimate: estimate}
	}
	err = d.retryOnConflict(ctx, ns, d.finalizeNamespace)
	if api.IsNotFound(err) {
		return nil
	}
	return err
}

// retryOnConflict mirrors retryOnConflictError: on a conflict the namespace is read again
// and the update tried again on the latest version (the status write of deleteAllContent
// has just changed it).
func (d *resourcesDeleter) retryOnConflict(ctx context.Context, ns *api.Unstructured, fn func(context.Context, *api.Unstructured) error) error {
	for {
		err := fn(ctx, ns)
		if !api.IsConflict(err) {
			return err
		}
		latest, gerr := d.cc.Client.Resource(app.Namespaces).Get(ctx, ns.GetName(), api.GetOptions{})
		if gerr != nil {
			return gerr
		}
		if latest.GetUID() != ns.GetUID() {
			return nil // another namespace of that name: this one is gone
		}
		ns = latest
	}
}

// finalized mirrors finalized: no "kubernetes" spec finalizer is left.
func finalized(ns *api.Unstructured) bool {
	return !slices.Contains(specFinalizers(ns), api.FinalizerKubernetes)
}

func specFinalizers(ns *api.Unstructured) []string {
	raw, _ := app.Nested(ns.Object, "spec", "finalizers")
	list, _ := raw.([]any)
	var out []string
	for _, f := range list {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// finalizeNamespace mirrors finalizeNamespace: PUT …/finalize without "kubernetes"; the
// server deletes a namespace left with no finalizer. A conflict retries from the queue.
func (d *resourcesDeleter) finalizeNamespace(ctx context.Context, ns *api.Unstructured) error {
	cp := ns.DeepCopy()
	keep := []any{}
	for _, f := range specFinalizers(ns) {
		if f != api.FinalizerKubernetes {
			keep = append(keep, f)
		}
	}
	if err := api.SetNestedField(cp.Object, keep, "spec", "finalizers"); err != nil {
		return err
	}
	trace.Hop(d.cc.Logger, component, "finalize", ns.GetName(), ns.GetResourceVersion(), causeAttr("content-removed"))
	_, err := d.cc.Client.Resource(app.Namespaces).Update(ctx, cp, api.UpdateOptions{}, "finalize")
	return err
}

// discoverResources mirrors ServerPreferredNamespacedResources filtered to delete: the
// preferred version of every namespaced resource that supports delete.
func (d *resourcesDeleter) discoverResources(ctx context.Context) ([]gvrInfo, error) {
	groups, lists, err := d.discovery.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return nil, err
	}
	preferred := map[string]bool{}
	for _, g := range groups {
		preferred[g.PreferredVersion.GroupVersion] = true
	}
	var out []gvrInfo
	for _, rl := range lists {
		if !preferred[rl.GroupVersion] {
			continue
		}
		group, version, ok := strings.Cut(rl.GroupVersion, "/")
		if !ok {
			group, version = "", rl.GroupVersion
		}
		for _, r := range rl.APIResources {
			if !r.Namespaced || strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "delete") {
				continue
			}
			out = append(out, gvrInfo{
				gvr:              api.GroupVersionResource{Group: group, Version: version, Resource: r.Name},
				deleteCollection: slices.Contains(r.Verbs, "deletecollection"),
				list:             slices.Contains(r.Verbs, "list"),
			})
		}
	}
	return out, err
}

// deleteAllContent mirrors namespacedResourcesDeleter.deleteAllContent: every resource is
// emptied in the background, what remains is counted, and the conditions are written.
func (d *resourcesDeleter) deleteAllContent(ctx context.Context, ns *api.Unstructured) (int64, error) {
	var errs []error
	var u conditionUpdater
	resources, err := d.discoverResources(ctx)
	if err != nil {
		errs = append(errs, err)
		u.discoveryErr(err)
	}
	estimate := int64(0)
	remaining := map[string]int{}
	byFinalizer := map[string]int{}
	for _, r := range resources {
		est, n, fins, err := d.deleteAllContentFor(ctx, r, ns.GetName())
		if err != nil {
			errs = append(errs, err)
			u.deleteContentErr(err)
		}
		estimate = max(estimate, est)
		if n > 0 {
			remaining[r.gvr.Resource+"."+r.gvr.Group] = n
			for f, c := range fins {
				byFinalizer[f] += c
			}
		}
	}
	u.contentTotals(remaining, byFinalizer)
	cp := ns.DeepCopy()
	if u.update(cp, d.now()) {
		trace.Hop(d.cc.Logger, component, "update-status", ns.GetName(), ns.GetResourceVersion(), causeAttr("conditions"), slog.String("failing", u.failing()))
		if _, err := d.cc.Client.Resource(app.Namespaces).UpdateStatus(ctx, cp, api.UpdateOptions{}); err != nil {
			// As upstream: reported, not returned; the next sync writes them again.
			trace.Hop(d.cc.Logger, component, "update-status-failed", ns.GetName(), ns.GetResourceVersion(), causeAttr(err.Error()))
		}
	}
	return estimate, errors.Join(errs...)
}

// deleteAllContentFor mirrors deleteAllContentForGroupVersionResource: DeleteCollection
// (or each item), then a list of what is left. Items with finalizers are expected to take a
// while; items without are an error.
func (d *resourcesDeleter) deleteAllContentFor(ctx context.Context, r gvrInfo, ns string) (int64, int, map[string]int, error) {
	rc := d.cc.Client.Resource(r.gvr).Namespace(ns)
	estimate := int64(0)
	if r.gvr.Group == "" && r.gvr.Resource == "pods" {
		var err error
		if estimate, err = d.estimateGracefulTerminationForPods(ctx, ns); err != nil {
			return 0, 0, nil, err
		}
	}
	bg := api.DeletePropagationBackground
	opts := api.DeleteOptions{PropagationPolicy: &bg}
	switch {
	case r.deleteCollection:
		if err := rc.DeleteCollection(ctx, opts, api.ListOptions{}); err != nil && !api.IsNotFound(err) && !api.IsMethodNotSupported(err) {
			return 0, 0, nil, err
		}
	case r.list:
		l, err := rc.List(ctx, api.ListOptions{})
		if err != nil {
			return 0, 0, nil, err
		}
		for _, it := range l.Items {
			if err := rc.Delete(ctx, it.GetName(), opts); err != nil && !api.IsNotFound(err) {
				return 0, 0, nil, err
			}
		}
	}
	if !r.list {
		return 0, 0, nil, nil
	}
	l, err := rc.List(ctx, api.ListOptions{})
	if err != nil {
		return 0, 0, nil, err
	}
	if len(l.Items) == 0 {
		return 0, 0, nil, nil
	}
	fins := map[string]int{}
	for _, it := range l.Items {
		for _, f := range it.GetFinalizers() {
			fins[f]++
		}
	}
	if estimate != 0 {
		return estimate, len(l.Items), fins, nil // pods still terminating gracefully
	}
	if len(fins) > 0 {
		return finalizerEstimateSeconds, len(l.Items), fins, nil
	}
	return 0, len(l.Items), nil, fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %v", ns, gvrString(r.gvr))
}

// gvrString prints a GroupVersionResource as schema.GroupVersionResource's String does.
func gvrString(g api.GroupVersionResource) string {
	return g.Group + "/" + g.Version + ", Resource=" + g.Resource
}

func sortedJoin(items []string) string {
	sort.Strings(items)
	return strings.Join(items, ", ")
}

// now is the time conditions are stamped with (virtual in tests).
func (d *resourcesDeleter) now() time.Time { return time.Now() }

// estimateGracefulTerminationForPods mirrors the function of that name: the longest
// terminationGracePeriodSeconds of the namespace's pods that have not finished.
func (d *resourcesDeleter) estimateGracefulTerminationForPods(ctx context.Context, ns string) (int64, error) {
	l, err := d.cc.Client.Resource(app.Pods).Namespace(ns).List(ctx, api.ListOptions{})
	if err != nil {
		return 0, err
	}
	estimate := int64(0)
	for _, p := range l.Items {
		if phase := app.NestedString(p.Object, "status", "phase"); phase == "Succeeded" || phase == "Failed" {
			continue
		}
		if g, ok := app.NestedInt64(p.Object, "spec", "terminationGracePeriodSeconds"); ok && g > estimate {
			estimate = g
		}
	}
	return estimate, nil
}
