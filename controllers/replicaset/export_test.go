package replicaset

import (
	"context"

	"github.com/informer-lab/informer-lab/controllers/app"
)

// Sync runs one sync of key, as a worker would.
func Sync(c app.Controller, ctx context.Context, key string) error {
	return c.(*Controller).syncReplicaSet(ctx, key)
}

// Synced reports whether the controller's informers have synced.
func Synced(c app.Controller) bool {
	rc := c.(*Controller)
	return rc.rsInformer.HasSynced() && rc.podInformer.HasSynced()
}

// Cached reports whether the ReplicaSet informer holds key.
func Cached(c app.Controller, key string) bool {
	_, ok, _ := c.(*Controller).rsInformer.GetIndexer().GetByKey(key)
	return ok
}

// ShutDown shuts the queue down, as Run does when it returns.
func ShutDown(c app.Controller) { c.(*Controller).queue.ShutDown() }

// CachedPods is how many pods the pod informer holds.
func CachedPods(c app.Controller) int { return len(c.(*Controller).podInformer.GetIndexer().List()) }
