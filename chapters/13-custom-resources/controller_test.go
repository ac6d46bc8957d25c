package ch13_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
