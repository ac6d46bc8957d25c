package ch13

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// The messages of sample-controller's events, in our words.
const (
	// MessageResourceExists is the ErrResourceExists message; %q is the Deployment's name.
	MessageResourceExists = "Resource %q already exists and is not managed by Foo"
	// MessageResourceSynced is the Synced message.
	MessageResourceSynced = "Foo synced successfully"
)

// syncHandler mirrors syncHandler in sample-controller: compare the Foo the cache holds with
// its Deployment and make them agree. It is level-triggered: it never asks which event
// brought the key, only what the cache holds now. It returns an error to have the key
// retried with backoff. The sync hop's "result" lists what it did.
//
//lab:13.2
func (c *Controller) syncHandler(ctx context.Context, key string) error {
	namespace, name, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		c.errorHandler(fmt.Errorf("invalid resource key %q: %w", key, err))
		return nil // retrying a malformed key cannot help
	}
	obj, err := c.foosLister.ByNamespace(namespace).Get(name)
	if api.IsNotFound(err) {
		// The Foo is gone. Its Deployment stays: deleting it is the garbage collector's job
		// (through the owner reference), and the simulated apiserver runs none.
		c.traceSync(key, "", "foo-gone")
		return nil
	}
	if err != nil {
		return err
	}
	foo := obj.(*api.Unstructured)
	spec, err := SpecOf(foo)
	if err == nil && spec.DeploymentName == "" {
		err = fmt.Errorf("%s: deployment name must be specified", key)
	}
	if err != nil {
		c.errorHandler(err)
		return nil // the Foo must change before a retry can succeed, and that change enqueues it
	}

	var did []string
	deployments := c.client.Resource(DeploymentGVR).Namespace(namespace)
	obj, err = c.deploymentsLister.ByNamespace(namespace).Get(spec.DeploymentName)
	var deployment *api.Unstructured
	switch {
	case api.IsNotFound(err):
		deployment, err = deployments.Create(ctx, newDeployment(foo, spec), api.CreateOptions{})
		did = append(did, "created-deployment")
	case err == nil:
		deployment = obj.(*api.Unstructured)
	}
	if err != nil {
		return err // a failed create or lister read: try again later
	}

	// A Deployment of that name that this Foo does not control is left alone: warn and retry,
	// so the Foo converges once someone removes or hands over the Deployment.
	if !IsControlledBy(deployment, foo) {
		msg := fmt.Sprintf(MessageResourceExists, deployment.GetName())
		c.recorder.Event(ctx, foo, EventTypeWarning, ErrResourceExists, msg)
		c.traceSync(key, foo.GetResourceVersion(), "not-controlled")
		return fmt.Errorf("%s", msg)
	}

	// Replicas differ: write the Foo's number. The update starts from the cached Deployment (a
	// copy: the cache is never written to) and keeps its resourceVersion, so a concurrent
	// change is a 409 and a retry rather than a lost write.
	if spec.Replicas != nil && *spec.Replicas != Replicas(deployment) {
		d := deployment.DeepCopy()
		if err := api.SetNestedField(d.Object, *spec.Replicas, "spec", "replicas"); err != nil {
			return err
		}
		if deployment, err = deployments.Update(ctx, d, api.UpdateOptions{}); err != nil {
			return err
		}
		did = append(did, fmt.Sprintf("replicas=%d", *spec.Replicas))
	}

	wrote, err := c.updateFooStatus(ctx, foo, deployment)
	if err != nil {
		return err
	}
	if wrote {
		did = append(did, "status")
	}
	if len(did) == 0 {
		did = append(did, "up-to-date")
	}
	c.traceSync(key, foo.GetResourceVersion(), strings.Join(did, ","))
	c.recorder.Event(ctx, foo, EventTypeNormal, SuccessSynced, MessageResourceSynced)
	return nil
}

// updateFooStatus mirrors updateFooStatus: copy the Deployment's available replicas into the
// Foo's status, with the generation this sync acted on, through the status subresource
// (UpdateStatus: PUT .../foos/NAME/status), which ignores spec changes and leaves
// metadata.generation alone. Unlike sample-controller it skips the write when the status
// already says so, so that the sync caused by its own write does nothing.
//
//lab:13.2
func (c *Controller) updateFooStatus(ctx context.Context, foo, deployment *api.Unstructured) (bool, error) {
	want := FooStatus{AvailableReplicas: AvailableReplicas(deployment), ObservedGeneration: foo.GetGeneration()}
	if StatusOf(foo) == want {
		return false, nil
	}
	fooCopy := foo.DeepCopy() // never modify the cache
	status := map[string]any{"availableReplicas": want.AvailableReplicas, "observedGeneration": want.ObservedGeneration}
	if err := api.SetNestedField(fooCopy.Object, status, "status"); err != nil {
		return false, err
	}
	_, err := c.client.Resource(FooGVR).Namespace(foo.GetNamespace()).UpdateStatus(ctx, fooCopy, api.UpdateOptions{})
	return err == nil, err
}

// newDeployment mirrors newDeployment in sample-controller: an nginx Deployment named by the
// Foo, with its replicas, whose controller reference points at the Foo.
func newDeployment(foo *api.Unstructured, spec FooSpec) *api.Unstructured {
	labels := map[string]any{"app": "nginx", "controller": foo.GetName()}
	d := &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": spec.DeploymentName, "namespace": foo.GetNamespace()},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{
					map[string]any{"name": "nginx", "image": "nginx:latest"},
				}},
			},
		},
	}}
	if spec.Replicas != nil {
		_ = api.SetNestedField(d.Object, *spec.Replicas, "spec", "replicas")
	}
	d.SetOwnerReferences([]api.OwnerReference{NewControllerRef(foo, FooGVK)})
	return d
}

// traceSync logs the sync hop with what it did.
func (c *Controller) traceSync(key, rv, result string) {
	if trace.Enabled(c.logger) {
		trace.Hop(c.logger, traceComponent, "sync", key, rv, slog.String("result", result))
	}
}
