package ch08_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh08_InformerAfterStartNeverSyncs is the commonest WaitForCacheSync hang: an informer
// obtained from the factory after factory.Start is registered but never run (FA-2, FA-3). The
// factory's WaitForCacheSync considers started informers only, so it returns at once without
// it (FA-4); waiting on the informer's own HasSynced never ends, and only a deadline stops it.
// The fix is to ask for every informer before Start, or to call Start again: Start runs the
// registered informers that are not running yet.
func TestCh08_InformerAfterStartNeverSyncs(t *testing.T) {
	c := startCluster()
	defer c.stop()
	factory := informer.NewSharedInformerFactory(informer.NewRESTSource(c.client), 0)
	stop := make(chan struct{})
	defer factory.Shutdown()
	defer close(stop)

	configMaps := factory.Core().V1().ConfigMaps().Informer() // asked for before Start: runs
	factory.Start(stop)
	pods := factory.Core().V1().Pods().Informer() // asked for after Start: registered, idle

	synced := factory.WaitForCacheSync(stop)
	assert.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.ConfigMap{}): true}, synced,
		"the factory does not wait for an informer it has not started")
	assert.True(t, configMaps.HasSynced())

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	assert.False(t, informer.WaitForCacheSync(ctx.Done(), pods.HasSynced),
		"the hang: the pod informer never runs, so it never syncs; only the deadline ends the wait")

	factory.Start(stop) // the fix: Start again after the last informer was asked for
	assert.True(t, informer.WaitForCacheSync(stop, pods.HasSynced))
	assert.Len(t, pods.GetStore().List(), 3)
}

// lastApplied is the bulky annotation kubectl apply leaves on every object it writes.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// TestCh08_TransformStripsBulkyFields shows a transform function: it drops what no handler
// reads before the object is cached, so the cache holds less (K-6). In client-go the usual
// target is metadata.managedFields; our API has none, so the example drops kubectl's
// last-applied annotation, the other bulky passenger. A transform must be idempotent: with
// watch-list (the current profile) every initial object passes through it twice, once into the
// reflector's temporary store and once more through the queue's Replace; with a LIST, once.
func TestCh08_TransformStripsBulkyFields(t *testing.T) {
	tests := []struct {
		name      string
		profile   informer.Profile
		wantCalls int
	}{
		{"LIST then WATCH (classic): once per object", informer.ProfileClassic, 3},
		{"watch-list (current): twice per initial object", informer.ProfileCurrent, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startCluster()
			defer c.stop()
			c.create("pods", "default", &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "applied",
				Annotations: map[string]string{lastApplied: `{"kind":"Pod","…":"…"}`, "team": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
			var mu sync.Mutex
			calls := 0
			strip := func(obj any) (any, error) {
				mu.Lock()
				calls++
				mu.Unlock()
				if m, err := api.Accessor(obj); err == nil && m.GetAnnotations()[lastApplied] != "" {
					a := map[string]string{}
					for k, v := range m.GetAnnotations() {
						if k != lastApplied {
							a[k] = v
						}
					}
					m.SetAnnotations(a) // a second pass finds nothing to drop: idempotent
				}
				return obj, nil
			}
			factory := informer.NewSharedInformerFactoryWithOptions(informer.NewRESTSource(c.client), 0,
				informer.WithNamespace("default"), informer.WithProfile(tt.profile), informer.WithTransform(strip))
			pods := factory.Core().V1().Pods()
			inf := pods.Informer() // before Start: see TestCh08_InformerAfterStartNeverSyncs
			stop := make(chan struct{})
			factory.Start(stop)
			require.True(t, informer.WaitForCacheSync(stop, inf.HasSynced))
			got, err := pods.Lister().ByNamespace("default").Get("applied")
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"team": "web"}, got.Annotations, "only the bulky field is gone")
			close(stop)
			factory.Shutdown()
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, tt.wantCalls, calls, "three pods in default")
		})
	}
}

// TestCh08_DeletedFinalStateUnknownIsAValue: the tombstone reaches OnDelete as a value, not a
// pointer. A handler that asserts *store.DeletedFinalStateUnknown never matches it and treats
// the tombstone as an unknown object; the value assertion unwraps it to the last known pod.
func TestCh08_DeletedFinalStateUnknownIsAValue(t *testing.T) {
	var tomb any = store.DeletedFinalStateUnknown{Key: "default/web-1", Obj: pod("web-1")}
	_, isPointer := tomb.(*store.DeletedFinalStateUnknown)
	assert.False(t, isPointer, "the pointer assertion never matches")
	v, isValue := tomb.(store.DeletedFinalStateUnknown)
	require.True(t, isValue)
	p, ok := v.Obj.(*api.Pod)
	require.True(t, ok, "Obj is the last state the informer knew (it may be stale, or nil)")
	assert.Equal(t, "web-1", p.Name)
}

// TestCh08_RecreatedPodHasANewUID: a pod deleted and created again under the same name has
// the same key but a new UID. A worker that acts on "default/web" by key alone cannot tell
// the two apart; one that remembers the UID it acted on, and compares, can.
func TestCh08_RecreatedPodHasANewUID(t *testing.T) {
	c := startCluster()
	defer c.stop()
	factory := informer.NewSharedInformerFactory(informer.NewRESTSource(c.client), 0)
	pods := factory.Core().V1().Pods()
	events := make(chan string, 16)
	_, err := pods.Informer().AddEventHandler(processor.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) { events <- "delete" },
		AddFunc:    func(obj any) { events <- "add" },
	})
	require.NoError(t, err)
	stop := make(chan struct{})
	factory.Start(stop)
	defer factory.Shutdown()
	defer close(stop)
	require.True(t, informer.WaitForCacheSync(stop, pods.Informer().HasSynced))
	for range 3 {
		<-events // the initial adds
	}

	before, err := pods.Lister().ByNamespace("default").Get("web-1")
	require.NoError(t, err)
	_, err = c.srv.Delete(context.Background(), "pods", "default", "web-1", nil)
	require.NoError(t, err)
	assert.Equal(t, "delete", <-events)
	c.create("pods", "default", &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web-1"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
	assert.Equal(t, "add", <-events)

	after, err := pods.Lister().ByNamespace("default").Get("web-1")
	require.NoError(t, err)
	assert.Equal(t, keyOf(before), keyOf(after), "same key")
	assert.NotEqual(t, before.UID, after.UID, "a different object: check the UID before acting on it")
}

// TestCh08_OwnerReferenceMapsChildToParent: a controller that manages children (pods) watches
// them too, and its pod handler enqueues the owner's key, not the pod's: the controller
// reference in ownerReferences names the parent. Tombstones are unwrapped first, and a pod
// with no controller owner is not this controller's business.
func TestCh08_OwnerReferenceMapsChildToParent(t *testing.T) {
	yes := true
	ownerKey := func(obj any) (string, bool) {
		if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		m, err := api.Accessor(obj)
		if err != nil {
			return "", false
		}
		for _, ref := range m.GetOwnerReferences() {
			if ref.Controller != nil && *ref.Controller && ref.Kind == "ReplicaSet" {
				return m.GetNamespace() + "/" + ref.Name, true
			}
		}
		return "", false
	}
	child := pod("web-7d9f-abcde")
	child.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f", UID: "u1", Controller: &yes}}
	orphan := pod("debug")

	tests := []struct {
		name string
		obj  any
		want string
		ok   bool
	}{
		{"a child maps to its parent", child, "default/web-7d9f", true},
		{"a child's tombstone too", store.DeletedFinalStateUnknown{Key: "default/web-7d9f-abcde", Obj: child}, "default/web-7d9f", true},
		{"a pod without a controller owner is skipped", orphan, "", false},
	}
	for _, tt := range tests {
		got, ok := ownerKey(tt.obj)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}
