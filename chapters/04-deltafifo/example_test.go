package ch04_test

import (
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/deltafifo"
)

// pod is the plain struct of the article example: no metadata, just a name and a value.
type pod struct {
	Name  string
	Value int
}

// podKey is the article's KeyFunction: the struct's Name.
func podKey(obj any) (string, error) {
	return obj.(pod).Name, nil
}

// Example_articleDeltaFIFO is the DeltaFIFO example of the runnable-examples article (section
// DeltaFIFO 队列; docs/articles.md, block 4.3). Three pods are added; pod-1 is updated to 11
// and deleted before anything is popped. One Pop hands over all three of pod-1's deltas, and
// the keys keep the order in which they first arrived. The article printed List(); DeltaFIFO
// lost its read API in client-go v0.33, so ListKeys() stands in for it (see the README).
func Example_articleDeltaFIFO() {
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: podKey})

	pod1 := pod{Name: "pod-1", Value: 1}
	_ = fifo.Add(pod1)
	_ = fifo.Add(pod{Name: "pod-2", Value: 2})
	_ = fifo.Add(pod{Name: "pod-3", Value: 3})
	pod1.Value = 11
	_ = fifo.Update(pod1)
	_ = fifo.Delete(pod1)

	fmt.Println(fifo.ListKeys())

	fifo.Close() // lets the Pop loop end once the queue is empty (DF-12)
	for {
		_, err := fifo.Pop(func(obj any, _ bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				switch d.Type {
				case deltafifo.Added:
					fmt.Printf("Add Event: %v\n", d.Object)
				case deltafifo.Updated:
					fmt.Printf("Update Event: %v\n", d.Object)
				case deltafifo.Deleted:
					fmt.Printf("Delete Event: %v\n", d.Object)
				}
			}
			return nil
		})
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			break
		}
	}
	// Output:
	// [pod-1 pod-2 pod-3]
	// Add Event: {pod-1 1}
	// Update Event: {pod-1 11}
	// Delete Event: {pod-1 11}
	// Add Event: {pod-2 2}
	// Add Event: {pod-3 3}
}
