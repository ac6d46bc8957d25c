package controllerruntime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	cr "github.com/informer-lab/informer-lab/interop/controllerruntime"
)

// managedBy returns the managedFields entry of manager on obj (nil if none) and its fields
// as JSON text.
func managedBy(obj metav1.Object, manager string) (*metav1.ManagedFieldsEntry, string) {
	for _, e := range obj.GetManagedFields() {
		if e.Manager == manager {
			fields := ""
			if e.FieldsV1 != nil {
				fields = e.FieldsV1.GetRawString()
			}
			return &e, fields
		}
	}
	return nil, ""
}

// TestCh15_FooToDeploymentAndStatus is chapter 13's TestCh13_FooToDeployment and
// TestCh13_ReplicasFollowFoo with controller-runtime: a Foo → its Deployment, applied with
// the controller reference (kind, name, UID) → the Foo's status applied through the status
// subresource. Both writes are server-side apply, so managedFields name the controller's
// field manager with operation Apply. The test plays the deployment controller: the
// Deployment's availableReplicas reaches the Foo's status through Owns. A spec change moves
// the generation, the Deployment and observedGeneration; a label does not, and the reconcile
// it brings applies the same fields again, which the server answers without a write.
func TestCh15_FooToDeploymentAndStatus(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-foo-to-deployment", controller.Options{}, nil)
	ctx := context.Background()

	require.NoError(t, cl.direct.Create(ctx, newFoo("example-foo", "example-foo", 2)))
	foo := &cr.Foo{}
	waitFor(t, "the Foo's status for generation 1", func() bool {
		return run.calls.count("example-foo", cr.ResultApplied) > 0 &&
			cl.get(t, "example-foo", foo) == nil && foo.Status.ObservedGeneration == 1
	})
	d := &appsv1.Deployment{}
	require.NoError(t, cl.get(t, "example-foo", d))
	assert.Equal(t, int32(2), ptr.Deref(d.Spec.Replicas, 0))
	assert.Equal(t, map[string]string{"app": "nginx", "controller": "example-foo"}, d.Spec.Template.Labels)
	require.Len(t, d.OwnerReferences, 1)
	owner := d.OwnerReferences[0]
	assert.Equal(t, []string{"samplecontroller.k8s.io/v1alpha1", "Foo", "example-foo", string(foo.UID)},
		[]string{owner.APIVersion, owner.Kind, owner.Name, string(owner.UID)})
	assert.True(t, metav1.IsControlledBy(d, foo), "controller: true, and the Foo's UID")
	assert.True(t, ptr.Deref(owner.BlockOwnerDeletion, false))

	entry, fields := managedBy(d, cr.FieldManager)
	require.NotNil(t, entry, "the Deployment's managedFields name %q", cr.FieldManager)
	assert.Equal(t, metav1.ManagedFieldsOperationApply, entry.Operation)
	assert.Empty(t, entry.Subresource)
	for _, f := range []string{`"f:replicas"`, `"f:ownerReferences"`, `"f:selector"`, `"f:template"`} {
		assert.Contains(t, fields, f, "the controller owns the fields it applied")
	}
	assert.NotContains(t, fields, `"f:strategy"`, "defaulted fields are nobody's")
	entry, fields = managedBy(foo, cr.FieldManager)
	require.NotNil(t, entry, "the Foo's managedFields name %q", cr.FieldManager)
	assert.Equal(t, metav1.ManagedFieldsOperationApply, entry.Operation)
	assert.Equal(t, "status", entry.Subresource, "the status was applied through the subresource")
	assert.Contains(t, fields, `"f:observedGeneration"`)
	assert.Equal(t, cr.FooStatus{AvailableReplicas: 0, ObservedGeneration: 1}, foo.Status,
		"no deployment controller runs: nothing is available yet")

	// Play the deployment controller: two replicas become available.
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	n := run.calls.count("example-foo", cr.ResultApplied)
	require.NoError(t, cl.direct.Status().Update(ctx, d, client.FieldOwner("deployment-controller")))
	waitFor(t, "the Foo's availableReplicas to follow its Deployment", func() bool {
		return run.calls.count("example-foo", cr.ResultApplied) > n &&
			cl.get(t, "example-foo", foo) == nil && foo.Status.AvailableReplicas == 2
	})

	// A spec change: generation 2, the Deployment at 3, observedGeneration 2.
	n = run.calls.count("example-foo", cr.ResultApplied)
	require.NoError(t, cl.direct.Patch(ctx, foo, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":3}}`))))
	waitFor(t, "observedGeneration 2", func() bool {
		return run.calls.count("example-foo", cr.ResultApplied) > n &&
			cl.get(t, "example-foo", foo) == nil && foo.Status.ObservedGeneration == 2
	})
	assert.Equal(t, int64(2), foo.Generation)
	require.NoError(t, cl.get(t, "example-foo", d))
	assert.Equal(t, int32(3), ptr.Deref(d.Spec.Replicas, 0))

	// Apply is idempotent: a label on the Foo brings one more reconcile, whose two applies
	// change nothing, so the server writes nothing (no new resourceVersion, no event, no loop).
	applied := run.calls.count("example-foo", cr.ResultApplied)
	require.NoError(t, cl.direct.Patch(ctx, foo, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"web"}}}`))))
	run.waitApplied(t, "example-foo", applied+1)
	before := d.ResourceVersion
	require.NoError(t, cl.get(t, "example-foo", d))
	assert.Equal(t, before, d.ResourceVersion, "a no-op apply is no write")

	for _, c := range run.calls.all() {
		assert.Equal(t, types.NamespacedName{Namespace: "default", Name: "example-foo"}, c.Req.NamespacedName)
		assert.NoError(t, c.Err)
	}
}

// TestCh15_OwnsDriftAndDeletion: Owns(&appsv1.Deployment{}) is chapter 13's handleObject.
// Someone scales the Deployment by hand (an update, field manager "kubectl-edit"): the
// Deployment's event is mapped to its Foo through the controller reference, and the
// controller's forced apply takes spec.replicas back, so managedFields list the field under
// the controller again, and kubectl-edit's entry, which held nothing else, is gone. Deleting the Deployment brings it
// back, with a new UID, controlled by the same Foo (TestCh13_DeletedDeploymentRecreated).
func TestCh15_OwnsDriftAndDeletion(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-owns-drift", controller.Options{}, nil)
	ctx := context.Background()

	require.NoError(t, cl.direct.Create(ctx, newFoo("drift", "drift-web", 2)))
	run.waitApplied(t, "drift", 1)
	d := &appsv1.Deployment{}
	require.NoError(t, cl.get(t, "drift-web", d), "applied before the reconcile returned")
	firstUID := d.UID

	d.Spec.Replicas = ptr.To(int32(5))
	n := run.calls.count("drift", cr.ResultApplied)
	require.NoError(t, cl.direct.Update(ctx, d, client.FieldOwner("kubectl-edit")))
	waitFor(t, "the controller to take replicas back", func() bool {
		return run.calls.count("drift", cr.ResultApplied) > n &&
			cl.get(t, "drift-web", d) == nil && ptr.Deref(d.Spec.Replicas, 0) == 2
	})
	_, mine := managedBy(d, cr.FieldManager)
	assert.Contains(t, mine, `"f:replicas"`)
	theirs, _ := managedBy(d, "kubectl-edit")
	assert.Nil(t, theirs, "ForceOwnership took replicas, kubectl-edit's only field, so its entry is gone")

	n = run.calls.count("drift", cr.ResultApplied)
	require.NoError(t, cl.direct.Delete(ctx, d))
	foo := &cr.Foo{}
	require.NoError(t, cl.get(t, "drift", foo))
	waitFor(t, "a new Deployment", func() bool {
		return run.calls.count("drift", cr.ResultApplied) > n &&
			cl.get(t, "drift-web", d) == nil && d.UID != firstUID
	})
	assert.True(t, metav1.IsControlledBy(d, foo))
	for _, c := range run.calls.all() {
		assert.Equal(t, "drift", c.Req.Name, "a Deployment's events arrive as its owner's key, never its own")
	}
}

// TestCh15_ErrResourceExists is TestCh13_ErrResourceExists: a Deployment that no Foo
// controls is never adopted nor touched. Reconcile returns an error, and controller-runtime
// requeues the key with the rate limiter's backoff (no MaxRetries: it never gives up). Once
// the Deployment is deleted a retry creates the Foo's own; nothing else enqueues the Foo,
// as the deleted Deployment had no controller reference to map.
func TestCh15_ErrResourceExists(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-resource-exists", controller.Options{}, nil)
	ctx := context.Background()

	taken := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "taken"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}},
			Template: corePodTemplate("other"),
		},
	}
	require.NoError(t, cl.direct.Create(ctx, taken, client.FieldOwner("someone-else")))
	require.NoError(t, cl.direct.Create(ctx, newFoo("squatter", "taken", 1)))
	waitFor(t, "three failed reconciles", func() bool { return run.calls.count("squatter", cr.ResultNotControlled) >= 3 })
	c := run.calls.of("squatter")[0]
	assert.EqualError(t, c.Err, fmt.Sprintf(cr.MessageResourceExists, "taken"))
	assert.Positive(t, run.queue(t).NumRequeues(c.Req), "the key is in the rate limiter's backoff")

	require.NoError(t, cl.get(t, "taken", taken))
	entry, _ := managedBy(taken, cr.FieldManager)
	assert.Nil(t, entry, "the controller never wrote to it")
	assert.Empty(t, taken.OwnerReferences)

	require.NoError(t, cl.direct.Delete(ctx, taken))
	foo := &cr.Foo{}
	require.NoError(t, cl.get(t, "squatter", foo))
	run.waitApplied(t, "squatter", 1)
	d := &appsv1.Deployment{}
	require.NoError(t, cl.get(t, "taken", d))
	assert.True(t, metav1.IsControlledBy(d, foo), "a retry created the Foo's own Deployment")
}

// TestCh15_InvalidFooIsTerminal is the bad-input half of TestCh13_BadInput: a Foo with no
// deploymentName is reported once and not retried. Chapter 13's syncHandler returns nil for
// it; a Reconciler returns reconcile.TerminalError, which controller-runtime counts and logs
// but does not requeue.
func TestCh15_InvalidFooIsTerminal(t *testing.T) {
	cl := startCluster(t)
	run := cl.startController(t, "ch15-invalid-foo", controller.Options{}, nil)
	ctx := context.Background()
	terminal := map[string]string{"controller": "ch15-invalid-foo"}
	terminalBefore := counter(t, "controller_runtime_terminal_reconcile_errors_total", terminal)

	require.NoError(t, cl.direct.Create(ctx, newFoo("nameless", "", 1)))
	waitFor(t, "the invalid Foo's reconcile", func() bool { return run.calls.count("nameless", cr.ResultInvalid) == 1 })
	// A second Foo, reconciled by the same worker, gives a retry time to show.
	require.NoError(t, cl.direct.Create(ctx, newFoo("good", "good", 1)))
	run.waitApplied(t, "good", 1)

	got := run.calls.of("nameless")
	require.Len(t, got, 1, "never retried")
	assert.True(t, errors.Is(got[0].Err, reconcile.TerminalError(nil)))
	assert.True(t, strings.HasSuffix(got[0].Err.Error(), "deployment name must be specified"), got[0].Err.Error())
	assert.Zero(t, run.queue(t).NumRequeues(got[0].Req), "a terminal error is not rate-limited")
	assert.Equal(t, terminalBefore+1, counter(t, "controller_runtime_terminal_reconcile_errors_total", terminal))
	assert.False(t, cl.exists(t, "nameless", &appsv1.Deployment{}))
}
