package store_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// An Indexer keyed by namespace/name, with the namespace index listers use. Add files each
// object under its key and under every value its index functions return, so ByIndex is a
// map lookup (O(objects in the answer)), not a scan; Delete removes it from both.
func ExampleNewIndexer() {
	idx := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{
		store.NamespaceIndex: store.MetaNamespaceIndexFunc,
	})
	for _, p := range []struct{ ns, name string }{{"team-a", "web"}, {"team-a", "db"}, {"team-b", "web"}} {
		_ = idx.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: p.ns, Name: p.name}})
	}
	keys, _ := idx.IndexKeys(store.NamespaceIndex, "team-a")
	fmt.Println("team-a:", keys)

	_ = idx.Delete(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "team-a", Name: "db"}})
	keys, _ = idx.IndexKeys(store.NamespaceIndex, "team-a")
	fmt.Println("team-a after the delete:", keys)
	fmt.Println("all keys:", len(idx.ListKeys()))
	// Output:
	// team-a: [team-a/db team-a/web]
	// team-a after the delete: [team-a/web]
	// all keys: 2
}

// A handler's OnDelete may receive a DeletedFinalStateUnknown instead of the object; the
// deletion-handling key function unwraps it, so both give the same key.
func ExampleDeletionHandlingMetaNamespaceKeyFunc() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}}
	tomb := store.DeletedFinalStateUnknown{Key: "default/web", Obj: pod}
	k1, _ := store.DeletionHandlingMetaNamespaceKeyFunc(pod)
	k2, _ := store.DeletionHandlingMetaNamespaceKeyFunc(tomb)
	fmt.Println(k1, k2)
	// Output:
	// default/web default/web
}
