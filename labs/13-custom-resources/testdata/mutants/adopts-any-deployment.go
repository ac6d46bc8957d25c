// The sync takes over any Deployment that has the name the Foo asks for, without checking
// that this Foo controls it.
//
// Plausible because the name matches and "make the world match the spec" sounds like the
// whole job; but a Deployment another owner (or nobody) controls is not the Foo's to scale,
// and sample-controller warns with ErrResourceExists and retries instead.
//
// File: chapters/13-custom-resources/sync.go
// Caught by: TestCh13_ErrResourceExists
package ch13

import (
	"context"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

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
	if false && !IsControlledBy(deployment, foo) { // the mutant: any Deployment of that name will do
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
