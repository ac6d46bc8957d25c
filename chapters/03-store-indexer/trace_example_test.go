package ch03_test

import (
	"fmt"
	"os"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// Example_followOneEvent traces one pod through the indexer: created, scheduled (its node
// index value moves), deleted. With a nil logger the same code prints nothing and allocates
// nothing for tracing.
func Example_followOneEvent() {
	indexer := store.NewIndexer(store.MetaNamespaceKeyFunc,
		store.Indexers{"node": nodeIndexFunc},
		store.WithLogger(trace.NewPlainLogger(os.Stdout)))

	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "demo", Name: "web", ResourceVersion: "101"}}
	_ = indexer.Add(p)

	scheduled := p.DeepCopy() // never mutate the cached object: copy, then write back
	scheduled.ResourceVersion = "102"
	scheduled.Spec.NodeName = "node-1"
	_ = indexer.Update(scheduled)
	fmt.Println(indexer.IndexKeys("node", "node-1"))

	_ = indexer.Delete(scheduled)
	fmt.Println(indexer.ListIndexFuncValues("node"), indexer.LastStoreSyncResourceVersion())
	// Output:
	// msg="indexer add" component=indexer op=add key=demo/web rv=101
	// msg="indexer update" component=indexer op=update key=demo/web rv=102
	// [demo/web] <nil>
	// msg="indexer delete" component=indexer op=delete key=demo/web rv=102
	// [] 102
}
