// ReadOne hands out the oldest item but leaves it in its slot.
//
// Plausible because the slot will be overwritten by a later write anyway; but until then the
// ring keeps the object alive, and a listener that once buffered a burst of large objects
// holds them in memory long after its handler saw them (RB-3).
//
// File: processor/ring_growing.go
// Caught by: TestCh07_RB3_ReadOneClearsSlot
package processor

func (r *TypedRingGrowing[T]) ReadOne() (T, bool) {
	var zero T
	if r.readable == 0 {
		return zero, false
	}
	item := r.data[r.beg]
	r.readable--
	r.beg = (r.beg + 1) % len(r.data)
	return item, true
}
