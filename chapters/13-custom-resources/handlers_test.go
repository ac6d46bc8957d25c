package ch13

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// handlerFixture is a Controller with only what the event handlers touch: a Foo lister over
// an indexer the test fills, a queue, and an error handler that records.
func handlerFixture(t *testing.T, foos ...*api.Unstructured) (*Controller, *[]error) {
	t.Helper()
	idx := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc})
	for _, f := range foos {
		require.NoError(t, idx.Add(f))
	}
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	t.Cleanup(q.ShutDown)
	var errs []error
	return &Controller{
		foosLister:   store.NewGenericLister(idx, FooGVR.GroupResource()),
		workqueue:    q,
		errorHandler: func(err error) { errs = append(errs, err) },
	}, &errs
}

func handlerFoo(name string) *api.Unstructured {
	f := &api.Unstructured{Object: map[string]any{"apiVersion": FooGVK.APIVersion(), "kind": "Foo",
		"metadata": map[string]any{"name": name, "namespace": "default", "uid": "uid-" + name}}}
	return f
}

func handlerDeployment(name string, owner *api.Unstructured, gvk api.GroupVersionKind) *api.Unstructured {
	d := &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": "7"}}}
	if owner != nil {
		d.SetOwnerReferences([]api.OwnerReference{NewControllerRef(owner, gvk)})
	}
	return d
}

// TestCh13_HandleObject_EnqueuesTheController: a Deployment's event (add, update, delete, a
// tombstone too) enqueues the key of the Foo that controls it, and only while the cache still
// holds that Foo; a Deployment with no controller, or one another kind controls, is not this
// controller's business.
func TestCh13_HandleObject_EnqueuesTheController(t *testing.T) {
	foo := handlerFoo("example-foo")
	gone := handlerFoo("gone")
	other := api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}
	tests := []struct {
		name string
		obj  any
		want []string
	}{
		{"controlled by a cached Foo", handlerDeployment("d", foo, FooGVK), []string{"default/example-foo"}},
		{"a tombstone of one", store.DeletedFinalStateUnknown{Key: "default/d", Obj: handlerDeployment("d", foo, FooGVK)}, []string{"default/example-foo"}},
		{"its Foo is gone from the cache", handlerDeployment("d", gone, FooGVK), nil},
		{"no controller", handlerDeployment("d", nil, FooGVK), nil},
		{"controlled by another kind", handlerDeployment("d", foo, other), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, errs := handlerFixture(t, foo)
			c.handleObject(tt.obj)
			var got []string
			for c.workqueue.Len() > 0 {
				k, _ := c.workqueue.Get()
				got = append(got, k)
				c.workqueue.Done(k)
			}
			assert.Equal(t, tt.want, got)
			assert.Empty(t, *errs)
		})
	}
	c, errs := handlerFixture(t, foo)
	c.handleObject("not a deployment")
	assert.Zero(t, c.workqueue.Len())
	require.Len(t, *errs, 1, "an object of the wrong type is reported, not enqueued")
}

// TestCh13_EnqueueFoo_KeysAndTombstones: a Foo's event enqueues "namespace/name", a tombstone's
// too (its key, not its object's), and an object without a key is reported, never enqueued.
func TestCh13_EnqueueFoo_KeysAndTombstones(t *testing.T) {
	c, errs := handlerFixture(t)
	c.enqueueFoo(handlerFoo("a"), "OnAdd")
	c.enqueueFoo(store.DeletedFinalStateUnknown{Key: "default/b", Obj: nil}, "OnDelete")
	c.enqueueFoo(handlerFoo("a"), "OnUpdate") // already queued: collapses
	var got []string
	for c.workqueue.Len() > 0 {
		k, _ := c.workqueue.Get()
		got = append(got, k)
		c.workqueue.Done(k)
	}
	assert.Equal(t, []string{"default/a", "default/b"}, got)
	assert.Empty(t, *errs)
	c.enqueueFoo(42, "OnAdd")
	require.Len(t, *errs, 1)
	assert.ErrorContains(t, (*errs)[0], "OnAdd")
	assert.Zero(t, c.workqueue.Len())
}
