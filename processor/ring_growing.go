package processor

// defaultRingSize is the capacity a zero-capacity ring grows to on its first write (RB-2).
const defaultRingSize = 16

// RingGrowingOptions mirrors buffer.RingGrowingOptions in k8s.io/utils/buffer/ring_growing.go.
type RingGrowingOptions struct {
	// InitialSize is the number of slots allocated up front; a negative value counts as 0.
	InitialSize int
}

// TypedRingGrowing mirrors buffer.TypedRingGrowing in k8s.io/utils/buffer/ring_growing.go: a
// FIFO ring that doubles when full and never shrinks. It is not safe for concurrent use: in a
// processorListener only the pop goroutine touches it (RB-5). The zero value is an empty ring
// of capacity 0, ready to use.
type TypedRingGrowing[T any] struct {
	data     []T
	beg      int // index of the oldest readable item
	readable int // number of readable items
}

// RingGrowing mirrors buffer.RingGrowing, the untyped ring processorListener buffers in.
type RingGrowing = TypedRingGrowing[any]

// NewTypedRingGrowing mirrors buffer.NewTypedRingGrowing (RB-1).
func NewTypedRingGrowing[T any](opts RingGrowingOptions) *TypedRingGrowing[T] {
	return &TypedRingGrowing[T]{data: make([]T, max(opts.InitialSize, 0))}
}

// NewRingGrowing mirrors buffer.NewRingGrowing: capacity initialSize, length 0 (RB-1).
// A negative size counts as 0 instead of panicking in make.
func NewRingGrowing(initialSize int) *RingGrowing {
	return NewTypedRingGrowing[any](RingGrowingOptions{InitialSize: initialSize})
}

// ReadOne mirrors TypedRingGrowing.ReadOne: the oldest item and true, or the zero value and
// false when the ring is empty. The slot is cleared so the ring does not keep the object
// alive for the garbage collector (RB-3).
//
//lab:07.1
func (r *TypedRingGrowing[T]) ReadOne() (T, bool) {
	var zero T
	if r.readable == 0 {
		return zero, false
	}
	item := r.data[r.beg]
	r.data[r.beg] = zero
	r.readable--
	r.beg++
	if r.beg == len(r.data) {
		r.beg = 0
	}
	return item, true
}

// WriteOne mirrors TypedRingGrowing.WriteOne: append item, first doubling the capacity if the
// ring is full (RB-2).
//
//lab:07.1
func (r *TypedRingGrowing[T]) WriteOne(item T) {
	if r.readable == len(r.data) {
		r.grow()
	}
	// beg and readable are both below len(data), so one subtraction wraps the slot; a
	// modulo would cost an integer division on every write.
	i := r.beg + r.readable
	if i >= len(r.data) {
		i -= len(r.data)
	}
	r.data[i] = item
	r.readable++
}

// grow doubles the capacity (0 becomes defaultRingSize) and copies the readable items, oldest
// first, to the start of the new array, so the read index restarts at 0 (RB-2, RB-4).
//
//lab:07.1
func (r *TypedRingGrowing[T]) grow() {
	n := 2 * len(r.data)
	if n == 0 {
		n = defaultRingSize
	}
	grown := make([]T, n)
	// The readable items run from beg to the end of data, then wrap to the start.
	copied := copy(grown, r.data[r.beg:min(r.beg+r.readable, len(r.data))])
	copy(grown[copied:], r.data[:r.readable-copied])
	r.data = grown
	r.beg = 0
}

// Len mirrors TypedRingGrowing.Len: the number of readable items (writes − successful reads).
func (r *TypedRingGrowing[T]) Len() int { return r.readable }

// Cap mirrors TypedRingGrowing.Cap: the current capacity, initialSize·2^k (or 16·2^k).
func (r *TypedRingGrowing[T]) Cap() int { return len(r.data) }
