package deltafifo_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

// A DeltaFIFO keeps, per key, every change since the last Pop, and hands them over together;
// keys leave in the order they first arrived. Add, Update and Delete are O(1) apart from
// the dedup of two consecutive deletes; Pop is O(1).
func ExampleDeltaFIFO_Pop() {
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: store.MetaNamespaceKeyFunc})
	web := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web", ResourceVersion: "1"}}
	db := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "db", ResourceVersion: "2"}}
	_ = fifo.Add(web)
	_ = fifo.Add(db)
	web2 := web.DeepCopy()
	web2.ResourceVersion = "3"
	_ = fifo.Update(web2)
	_ = fifo.Delete(web2)
	_ = fifo.Delete(web2) // the same delete twice is kept once

	for range 2 {
		_, _ = fifo.Pop(func(obj any, _ bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				p := d.Object.(*api.Pod)
				fmt.Printf("%s %s rv=%s\n", d.Type, p.Name, p.ResourceVersion)
			}
			return nil
		})
	}
	// Output:
	// Added web rv=1
	// Updated web rv=3
	// Deleted web rv=3
	// Added db rv=2
}
