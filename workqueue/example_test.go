package workqueue_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/workqueue"
)

// The dirty and processing sets: a key added while it is queued is not queued twice, and a
// key added while a worker holds it waits until Done, then comes back once. Add, Get and
// Done are O(1).
func ExampleNewTyped() {
	q := workqueue.NewTyped[string]()
	defer q.ShutDown()
	q.Add("default/web")
	q.Add("default/web") // already queued: collapsed
	fmt.Println("queued:", q.Len())

	key, _ := q.Get()
	q.Add(key) // being processed: deferred until Done
	fmt.Println("queued while processing:", q.Len())
	q.Done(key)
	fmt.Println("queued after Done:", q.Len())
	// Output:
	// queued: 1
	// queued while processing: 0
	// queued after Done: 1
}
