package controllerruntime

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	appsac "k8s.io/client-go/applyconfigurations/apps/v1"
	coreac "k8s.io/client-go/applyconfigurations/core/v1"
	metaac "k8s.io/client-go/applyconfigurations/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// FieldManager is the field manager of every write the reconciler makes: server-side apply
// records it in managedFields, next to the fields it set.
const FieldManager = "foo-controller"

// MessageResourceExists mirrors the ErrResourceExists message of sample-controller (and of
// chapter 13's sync.go); %q is the Deployment's name.
const MessageResourceExists = "Resource %q already exists and is not managed by Foo"

// What one Reconcile did, as chapter 13's sync hop reports it.
const (
	ResultApplied       = "applied"        // the Deployment and the Foo's status applied
	ResultFooGone       = "foo-gone"       // the Foo is not in the cache: nothing to do
	ResultInvalid       = "invalid"        // the Foo names no Deployment: a terminal error
	ResultNotControlled = "not-controlled" // the Deployment exists and another owner controls it
)

// FooReconciler is chapter 13's Controller written with controller-runtime: the informers,
// handlers, workqueue and worker loop are the manager's and the builder's, and what is left
// is the sync handler, here Reconcile. Client is the manager's client: its reads come from the
// manager's cache, its writes go to the server.
type FooReconciler struct {
	Client client.Client
	// Observe, when set, is called at the end of every Reconcile with the request, what the
	// reconcile did (a Result… constant, "" on a failed read or write) and its error. Tests
	// read the controller through it, as chapter 13's read its trace.
	Observe func(req reconcile.Request, result string, err error)
}

// SetupWithManager mirrors the SetupWithManager a kubebuilder scaffold writes, and does what
// chapter 13's NewController does by hand: For(&Foo{}) is the Foo informer with a handler that
// enqueues the Foo's key (enqueueFoo), Owns(&appsv1.Deployment{}) the Deployment informer with
// one that enqueues the key of the Foo named by its controller reference (handleObject).
// Predicates, if any, filter the Foo's events before its handler enqueues them.
func (r *FooReconciler) SetupWithManager(mgr manager.Manager, name string, opts controller.Options, fooPredicates ...predicate.Predicate) (controller.Controller, error) {
	return builder.ControllerManagedBy(mgr).
		Named(name).
		For(&Foo{}, builder.WithPredicates(fooPredicates...)).
		Owns(&appsv1.Deployment{}).
		WithOptions(opts).
		Build(r)
}

// Reconcile mirrors syncHandler in sample-controller's controller.go. It is given a key, never
// an event: it reads the Foo and the Deployment from the cache and makes the server agree.
// A returned error requeues the key with the rate limiter's backoff; a TerminalError does not.
func (r *FooReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	result, err := r.reconcile(ctx, req)
	if r.Observe != nil {
		r.Observe(req, result, err)
	}
	return reconcile.Result{}, err
}

func (r *FooReconciler) reconcile(ctx context.Context, req reconcile.Request) (string, error) {
	var foo Foo
	if err := r.Client.Get(ctx, req.NamespacedName, &foo); err != nil {
		if apierrors.IsNotFound(err) {
			// Gone. Its Deployment is the garbage collector's, through the owner reference.
			return ResultFooGone, nil
		}
		return "", err
	}
	if foo.Spec.DeploymentName == "" {
		// Retrying cannot help: the Foo must change first, and that change enqueues it.
		return ResultInvalid, reconcile.TerminalError(fmt.Errorf("%s: deployment name must be specified", req))
	}

	var existing appsv1.Deployment
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: foo.Namespace, Name: foo.Spec.DeploymentName}, &existing)
	switch {
	case err == nil && !metav1.IsControlledBy(&existing, &foo):
		// Never adopt: retry with backoff until someone removes or hands over the Deployment.
		// The message is sample-controller's, capital letter included.
		return ResultNotControlled, fmt.Errorf("%s", fmt.Sprintf(MessageResourceExists, existing.Name))
	case err != nil && !apierrors.IsNotFound(err):
		return "", err
	}

	// Apply states every field this controller owns; the server merges it, keeps other
	// managers' fields, and takes back (ForceOwnership) any of ours someone else changed.
	deployment := deploymentFor(&foo)
	if err := r.Client.Apply(ctx, deployment, client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		return "", err
	}
	var available int32
	if deployment.Status != nil && deployment.Status.AvailableReplicas != nil {
		available = *deployment.Status.AvailableReplicas // the answer is decoded into deployment
	}
	if err := r.Client.Status().Apply(ctx, statusFor(&foo, available), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		return "", err
	}
	return ResultApplied, nil
}

// deploymentFor mirrors newDeployment in sample-controller, as an apply configuration: only
// the fields this controller has an opinion on, with the controller reference to the Foo.
func deploymentFor(foo *Foo) *appsac.DeploymentApplyConfiguration {
	labels := map[string]string{"app": "nginx", "controller": foo.Name}
	spec := appsac.DeploymentSpec().
		WithSelector(metaac.LabelSelector().WithMatchLabels(labels)).
		WithTemplate(coreac.PodTemplateSpec().
			WithLabels(labels).
			WithSpec(coreac.PodSpec().WithContainers(coreac.Container().WithName("nginx").WithImage("nginx:latest"))))
	if foo.Spec.Replicas != nil {
		spec.WithReplicas(*foo.Spec.Replicas)
	}
	return appsac.Deployment(foo.Spec.DeploymentName, foo.Namespace).
		WithOwnerReferences(metaac.OwnerReference().
			WithAPIVersion(GroupVersion.String()).
			WithKind("Foo").
			WithName(foo.Name).
			WithUID(foo.UID).
			WithController(true).
			WithBlockOwnerDeletion(true)).
		WithSpec(spec)
}

// statusFor mirrors updateFooStatus in sample-controller, as an apply configuration of the
// status subresource. Foo has no generated apply configuration, so it is an Unstructured one.
func statusFor(foo *Foo, available int32) runtime.ApplyConfiguration {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": GroupVersion.String(),
		"kind":       "Foo",
		"metadata":   map[string]any{"name": foo.Name, "namespace": foo.Namespace},
		"status": map[string]any{
			"availableReplicas":  int64(available),
			"observedGeneration": foo.Generation,
		},
	}}
	return client.ApplyConfigurationFromUnstructured(u)
}
