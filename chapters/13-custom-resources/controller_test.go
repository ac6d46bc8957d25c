package ch13_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	ch13 "github.com/informer-lab/informer-lab/chapters/13-custom-resources"
)

// TestCh13_FooToDeployment follows one Foo: the controller creates its Deployment with a
// controller reference to the Foo, writes the Foo's status through the status subresource,
// and records a Synced event. The test then plays the deployment controller (the simulated
// apiserver runs none) and the Foo's status follows the Deployment's available replicas.
func TestCh13_FooToDeployment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		foo := l.createFoo(t, "example-foo", "example-foo", 1)

		d := l.get(t, ch13.DeploymentGVR, "example-foo")
		assert.Equal(t, int64(1), ch13.Replicas(d))
		ref := ch13.GetControllerOf(d)
		require.NotNil(t, ref, "the Deployment has a controller reference")
		assert.Equal(t, "samplecontroller.k8s.io/v1alpha1", ref.APIVersion)
		assert.Equal(t, "Foo", ref.Kind)
		assert.Equal(t, "example-foo", ref.Name)
		assert.Equal(t, foo.GetUID(), ref.UID)
		assert.True(t, ch13.IsControlledBy(d, foo))
		assert.Equal(t, ch13.FooStatus{AvailableReplicas: 0, ObservedGeneration: 1}, ch13.StatusOf(l.get(t, ch13.FooGVR, "example-foo")))

		l.playDeploymentController(t, "example-foo")
		assert.Equal(t, ch13.FooStatus{AvailableReplicas: 1, ObservedGeneration: 1}, ch13.StatusOf(l.get(t, ch13.FooGVR, "example-foo")))

		t.Logf("controller hops:%s", joinLines(l.rec.take()))
		assert.Contains(t, l.events(t, "example-foo"), "Normal Synced: Foo synced successfully")
		assert.Empty(t, l.errors())
	})
}

// TestCh13_ReplicasFollowFoo: a spec change bumps the Foo's generation; the sync updates the
// Deployment's replicas and records the new generation as status.observedGeneration. The
// Deployment's own generation counts its spec writes: exactly one. (The Foo status write
// comes back as an event, and its sync may read the Deployment cache before the informer has
// delivered the replicas update: it then tries the same update with the cached, older
// resourceVersion, gets 409 Conflict, and its retry finds the cache caught up. The
// resourceVersion precondition is what keeps that stale read from writing twice.)
func TestCh13_ReplicasFollowFoo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		l.createFoo(t, "example-foo", "example-foo", 1)
		foo := l.setReplicas(t, "example-foo", 3)
		assert.Equal(t, int64(2), foo.GetGeneration())
		assert.Equal(t, int64(3), ch13.Replicas(l.get(t, ch13.DeploymentGVR, "example-foo")))
		assert.Equal(t, ch13.FooStatus{ObservedGeneration: 2}, ch13.StatusOf(l.get(t, ch13.FooGVR, "example-foo")))
		assert.Equal(t, int64(2), l.get(t, ch13.DeploymentGVR, "example-foo").GetGeneration(), "one spec write after the create")
		assert.Empty(t, l.errors())
	})
}

// TestCh13_LevelTriggeredAfterDroppedEvent: the server loses the event of a spec change
// (replicas 1 → 3), so the controller never hears of it and the Deployment stays at 1. The
// next event about the Foo, here a label someone adds, carries the whole object, not a diff:
// the sync reads replicas 3 from the cache and converges. What the lost event said is not
// lost, because the sync never asks what changed, only what the cache holds now (T17).
func TestCh13_LevelTriggeredAfterDroppedEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		l.createFoo(t, "example-foo", "example-foo", 1)
		l.rec.take()

		l.srv.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/example-foo", Type: watch.Modified})
		l.setReplicas(t, "example-foo", 3)
		assert.Empty(t, l.rec.take(), "the controller heard nothing")
		assert.Equal(t, int64(1), ch13.Replicas(l.get(t, ch13.DeploymentGVR, "example-foo")), "the Deployment lags behind")

		foo := l.get(t, ch13.FooGVR, "example-foo")
		foo.SetLabels(map[string]string{"team": "web"})
		labelled, err := l.dc.Resource(ch13.FooGVR).Namespace("default").Update(context.Background(), foo, api.UpdateOptions{})
		require.NoError(t, err)
		synctest.Wait()

		hops := l.rec.take()
		t.Logf("after the label:%s", joinLines(hops))
		assert.Contains(t, hops, "sync default/example-foo@"+labelled.GetResourceVersion()+" result=replicas=3,status")
		assert.Equal(t, int64(3), ch13.Replicas(l.get(t, ch13.DeploymentGVR, "example-foo")), "converged")
		assert.Equal(t, int64(2), ch13.StatusOf(l.get(t, ch13.FooGVR, "example-foo")).ObservedGeneration)
		assert.Empty(t, l.errors())
	})
}

// TestCh13_DeletedDeploymentRecreated: someone deletes the Deployment. Its delete event reaches
// handleObject, whose controller reference leads back to the Foo; the sync finds no
// Deployment in the cache and creates a new one (a new UID), owned by the same Foo.
func TestCh13_DeletedDeploymentRecreated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		l.createFoo(t, "example-foo", "example-foo", 2)
		foo := l.get(t, ch13.FooGVR, "example-foo") // with its status
		first := l.get(t, ch13.DeploymentGVR, "example-foo")
		l.rec.take()

		require.NoError(t, l.dc.Resource(ch13.DeploymentGVR).Namespace("default").Delete(context.Background(), "example-foo", api.DeleteOptions{}))
		synctest.Wait()

		again := l.get(t, ch13.DeploymentGVR, "example-foo")
		assert.NotEqual(t, first.GetUID(), again.GetUID(), "a new Deployment")
		assert.True(t, ch13.IsControlledBy(again, foo))
		assert.Equal(t, int64(2), ch13.Replicas(again))
		hops := l.rec.take()
		t.Logf("after the delete:%s", joinLines(hops))
		enqueues := only(hops, "enqueue ")
		require.NotEmpty(t, enqueues)
		assert.True(t, strings.HasSuffix(enqueues[0], " handler=deployment example-foo"), "the delete event, mapped to the Foo: %s", enqueues[0])
		assert.Empty(t, l.errors())
	})
}

// TestCh13_FooDeletedDeploymentStays: the Foo is deleted. The sync finds it gone and does
// nothing. In a cluster the garbage collector would now delete the Deployment, because its
// owner reference names a UID that no longer exists; the simulated apiserver runs no garbage
// collector, so the Deployment stays, its owner reference pointing at nothing. Later events
// of that Deployment find no Foo in the cache and are ignored.
func TestCh13_FooDeletedDeploymentStays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		foo := l.createFoo(t, "example-foo", "example-foo", 1)
		l.rec.take()

		require.NoError(t, l.dc.Resource(ch13.FooGVR).Namespace("default").Delete(context.Background(), "example-foo", api.DeleteOptions{}))
		synctest.Wait()
		assert.Contains(t, l.rec.take(), "sync default/example-foo@ result=foo-gone")

		d := l.get(t, ch13.DeploymentGVR, "example-foo")
		assert.Equal(t, []api.OwnerReference{ch13.NewControllerRef(foo, ch13.FooGVK)}, d.GetOwnerReferences(),
			"the owner reference still names the deleted Foo's UID")

		l.playDeploymentController(t, "example-foo")
		assert.Equal(t, []string{"orphan default/example-foo@" + l.get(t, ch13.DeploymentGVR, "example-foo").GetResourceVersion() + " owner=example-foo"},
			l.rec.take(), "no Foo to enqueue")
		assert.Empty(t, l.errors())
	})
}

// TestCh13_ErrResourceExists: a Deployment of the name the Foo asks for exists already and no
// Foo controls it. The controller leaves it alone, records a Warning event with reason
// ErrResourceExists, and returns an error, so the key is retried with backoff; once the
// Deployment is gone, a retry creates the Foo's own.
func TestCh13_ErrResourceExists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		_, err := l.dc.Resource(ch13.DeploymentGVR).Namespace("default").Create(context.Background(), plainDeployment("taken"), api.CreateOptions{})
		require.NoError(t, err)
		synctest.Wait() // the Deployment informer has it
		l.createFoo(t, "example-foo", "taken", 1)

		assert.Equal(t, []string{`Warning ErrResourceExists: Resource "taken" already exists and is not managed by Foo`},
			l.events(t, "example-foo"))
		assert.Nil(t, ch13.GetControllerOf(l.get(t, ch13.DeploymentGVR, "taken")), "the foreign Deployment is untouched")
		assert.Equal(t, 0, l.requests("update", "deployments.apps"))

		require.NoError(t, l.dc.Resource(ch13.DeploymentGVR).Namespace("default").Delete(context.Background(), "taken", api.DeleteOptions{}))
		<-time.After(time.Second) // virtual time: the retries' backoff (5 ms, 10 ms, …) runs out
		synctest.Wait()
		assert.True(t, ch13.IsControlledBy(l.get(t, ch13.DeploymentGVR, "taken"), l.get(t, ch13.FooGVR, "example-foo")))
		assert.Empty(t, l.errors())
	})
}

// TestCh13_StatusWriteNoSpecReconcile: generation versus observedGeneration. The status
// subresource ignores metadata.generation: writing the Foo's status (the controller's own
// write, or the availableReplicas it copies from the Deployment) bumps the resourceVersion
// but not the generation. The update event it causes brings the Foo back through the
// controller, which finds observedGeneration equal to generation and the Deployment right,
// and writes nothing: no Deployment update, no second status write.
func TestCh13_StatusWriteNoSpecReconcile(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := startLab(t)
		l.createFoo(t, "example-foo", "example-foo", 1)
		before := l.get(t, ch13.FooGVR, "example-foo")
		require.Equal(t, int64(1), before.GetGeneration())
		l.rec.take()
		l.srv.ResetRequestCounts()

		d := l.playDeploymentController(t, "example-foo") // the Deployment reports 1 available
		after := l.get(t, ch13.FooGVR, "example-foo")
		assert.NotEqual(t, before.GetResourceVersion(), after.GetResourceVersion(), "the status write is a write")
		assert.Equal(t, int64(1), after.GetGeneration(), "but not a spec change")
		assert.Equal(t, ch13.FooStatus{AvailableReplicas: 1, ObservedGeneration: 1}, ch13.StatusOf(after))

		hops := l.rec.take()
		t.Logf("after the Deployment's status:%s", joinLines(hops))
		assert.Equal(t, []string{
			"sync default/example-foo@" + before.GetResourceVersion() + " result=status",
			"sync default/example-foo@" + after.GetResourceVersion() + " result=up-to-date",
		}, only(hops, "sync "))
		assert.Equal(t, d.GetResourceVersion(), l.get(t, ch13.DeploymentGVR, "example-foo").GetResourceVersion(), "no Deployment write")
		assert.Equal(t, 1, l.requests("update", "foos.samplecontroller.k8s.io"), "one Foo status write")
		assert.Empty(t, l.errors())
	})
}

// TestCh13_BadInput: what the controller refuses or reports, without panicking. A Foo it
// cannot act on (no deploymentName, replicas not a number) is reported and not retried: only
// a change of the Foo can fix it, and that change enqueues it again.
func TestCh13_BadInput(t *testing.T) {
	t.Run("NewController", func(t *testing.T) {
		_, err := ch13.NewController(nil, nil, nil, ch13.Options{})
		assert.ErrorContains(t, err, "needs a dynamic client and two informers")
	})
	t.Run("Run with no worker", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			l := startLab(t)
			assert.ErrorContains(t, l.ctrl.Run(context.Background(), 0), "at least one worker")
		})
	})
	// The CRD's schema refuses a Foo whose fields have the wrong type before any controller
	// sees it, with the real server's messages.
	for _, tc := range []struct {
		name string
		spec map[string]any
		want string
	}{
		{"replicas not a number", map[string]any{"deploymentName": "bad", "replicas": "three"},
			`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`},
		{"deploymentName not a string", map[string]any{"deploymentName": int64(7)},
			`spec.deploymentName: Invalid value: "integer": spec.deploymentName in body must be of type string: "integer"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := startLab(t)
				foo := ch13.NewFoo("default", "bad", "", 0)
				foo.Object["spec"] = tc.spec
				_, err := l.dc.Resource(ch13.FooGVR).Namespace("default").Create(context.Background(), foo, api.CreateOptions{})
				require.Error(t, err)
				assert.True(t, api.IsInvalid(err), "%v", err)
				assert.ErrorContains(t, err, tc.want)
			})
		})
	}
	// A Foo the schema accepts but the controller cannot act on is reported once, not retried.
	for _, tc := range []struct {
		name string
		spec map[string]any
		want string
	}{
		{"no deploymentName", map[string]any{"replicas": int64(1)}, "default/bad: deployment name must be specified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := startLab(t)
				foo := ch13.NewFoo("default", "bad", "", 0)
				foo.Object["spec"] = tc.spec
				_, err := l.dc.Resource(ch13.FooGVR).Namespace("default").Create(context.Background(), foo, api.CreateOptions{})
				require.NoError(t, err)
				synctest.Wait()
				errs := l.errors()
				require.Len(t, errs, 1, "reported once, not retried")
				assert.ErrorContains(t, errs[0], tc.want)
				assert.Equal(t, 0, l.requests("create", "deployments.apps"))
			})
		})
	}
}
