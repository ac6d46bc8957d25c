package lab_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/labs/internal/lab"
)

// A function whose doc comment ends with the marker //lab:09.1 keeps its signature and doc
// comment in the learner's skeleton; its body becomes a pointer to the hints and a panic, and
// the import only that body used stays, kept by a blank guard.
func ExampleStrip() {
	src := `package workqueue

import "sync"

// Len reports how many items wait.
//
//lab:09.1
func (q *Queue) Len() int {
	var mu sync.Mutex
	mu.Lock()
	defer mu.Unlock()
	return len(q.items)
}
`
	out, n, err := lab.Strip([]byte(src), "09")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d function stripped:\n%s", n, out)
	// Output:
	// 1 function stripped:
	// package workqueue
	//
	// import "sync"
	//
	// // Len reports how many items wait.
	// //
	// //lab:09.1
	// func (q *Queue) Len() int {
	// 	// Lab 09, step 1: write this body. Hints: make lab-hint LAB=09 N=1 (then N=2, N=3).
	// 	panic("lab 09: not implemented")
	// }
	//
	// // The reference's bodies use these packages; the blank declarations keep their imports
	// // while your bodies are empty, so that the skeleton builds. They are harmless: leave them.
	// var (
	// 	_ *sync.Mutex
	// )
}
