package processor_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/processor"
)

// RingGrowing is the unbounded buffer in front of each handler: a write that finds it full
// doubles it, reads keep FIFO order across the growth, and it never shrinks. WriteOne and
// ReadOne are O(1), amortised over the doublings.
func ExampleRingGrowing() {
	r := processor.NewRingGrowing(2)
	for i := 1; i <= 5; i++ {
		r.WriteOne(i)
	}
	fmt.Println("len", r.Len(), "cap", r.Cap())
	for r.Len() > 0 {
		v, _ := r.ReadOne()
		fmt.Print(v, " ")
	}
	fmt.Println("| cap stays", r.Cap())
	// Output:
	// len 5 cap 8
	// 1 2 3 4 5 | cap stays 8
}
