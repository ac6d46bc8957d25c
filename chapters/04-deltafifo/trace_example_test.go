package ch04_test

import (
	"os"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

func tracedPod(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// Example_followOneEvent shows the hops a queue logs when a Logger is set: one per enqueue,
// one per tombstone a Replace creates, and one per Pop with the delta types handed over.
// pod b is known to the consumer's store but missing from the relist, so it gets a
// DeletedFinalStateUnknown tombstone (DF-7).
func Example_followOneEvent() {
	known := store.NewStore(store.MetaNamespaceKeyFunc)
	_ = known.Add(tracedPod("b", "2"))

	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
		KeyFunction:           store.MetaNamespaceKeyFunc,
		KnownObjects:          known,
		EmitDeltaTypeReplaced: true,
		Logger:                trace.NewPlainLogger(os.Stdout),
	})
	_ = fifo.Add(tracedPod("a", "3"))
	_ = fifo.Update(tracedPod("a", "5"))
	_ = fifo.Replace([]any{tracedPod("a", "6")}, "6")
	for range 2 {
		_, _ = fifo.Pop(func(any, bool) error { return nil })
	}
	// Output:
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=3 type=Added
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=5 type=Updated
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=6 type=Replaced
	// msg="fifo tombstone" component=fifo op=tombstone key=ns/b rv=2 type=Deleted
	// msg="fifo pop" component=fifo op=pop key=ns/a rv=6 type=Added,Updated,Replaced
	// msg="fifo pop" component=fifo op=pop key=ns/b rv=2 type=Deleted
}
