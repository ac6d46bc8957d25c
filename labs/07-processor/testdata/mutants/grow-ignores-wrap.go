// Growing the ring copies the old array as it is into the bigger one, keeping the read index.
//
// Plausible because append-style growth works for a slice; but once the ring has wrapped,
// the oldest items sit at the end of the old array and the newest at its start, and the copy
// leaves a gap of empty slots between them: reads then return zero values and lose order
// (RB-2, RB-4).
//
// File: processor/ring_growing.go
// Caught by: TestCh07_RB2_GrowWhileWrapped, TestCh07_RB4_FIFOUnderRandomOps
package processor

func (r *TypedRingGrowing[T]) grow() {
	n := 2 * len(r.data)
	if n == 0 {
		n = defaultRingSize
	}
	grown := make([]T, n)
	copy(grown, r.data)
	r.data = grown
}
