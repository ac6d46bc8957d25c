package processor

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RB-1: capacity starts at the initial size, length at 0; a negative size counts as 0.
func TestCh07_RB1_InitialSize(t *testing.T) {
	for _, tc := range []struct{ size, wantCap int }{{0, 0}, {1, 1}, {4, 4}, {InitialBufferSize, 1024}, {-3, 0}} {
		r := NewRingGrowing(tc.size)
		assert.Equal(t, tc.wantCap, r.Cap(), "size %d", tc.size)
		assert.Equal(t, 0, r.Len(), "size %d", tc.size)
	}
	var zero TypedRingGrowing[int]
	assert.Equal(t, 0, zero.Cap())
}

// RB-2: a write that finds the ring full doubles it first (0 grows to 16); the spec's verified
// example is NewRingGrowing(4) + 5 writes → Cap 8, Len 5.
func TestCh07_RB2_GrowOnFullWrite(t *testing.T) {
	tests := []struct {
		initial, writes int
		wantCaps        []int // capacity after each write
	}{
		{initial: 4, writes: 5, wantCaps: []int{4, 4, 4, 4, 8}},
		{initial: 0, writes: 17, wantCaps: append(repeat(16, 16), 32)},
		{initial: 1, writes: 5, wantCaps: []int{1, 2, 4, 4, 8}},
		{initial: 3, writes: 7, wantCaps: []int{3, 3, 3, 6, 6, 6, 12}},
	}
	for _, tc := range tests {
		r := NewRingGrowing(tc.initial)
		var caps []int
		for i := range tc.writes {
			r.WriteOne(i)
			caps = append(caps, r.Cap())
		}
		assert.Equal(t, tc.wantCaps, caps, "initial %d", tc.initial)
		assert.Equal(t, tc.writes, r.Len())
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// RB-2 with wrap-around: growth copies the readable items oldest first even when they wrap
// past the end of the array, and reads restart at index 0.
func TestCh07_RB2_GrowWhileWrapped(t *testing.T) {
	r := NewTypedRingGrowing[int](RingGrowingOptions{InitialSize: 4})
	for i := range 4 {
		r.WriteOne(i) // [0 1 2 3]
	}
	for range 3 {
		_, _ = r.ReadOne() // beg = 3, one readable: 3
	}
	for i := 4; i < 7; i++ {
		r.WriteOne(i) // wraps: [4 5 6 3]
	}
	require.Equal(t, 4, r.Cap())
	r.WriteOne(7) // full: grows to 8
	assert.Equal(t, 8, r.Cap())
	assert.Equal(t, 0, r.beg, "reads restart at the start of the new array")
	assert.Equal(t, []int{3, 4, 5, 6, 7, 0, 0, 0}, r.data)
	assert.Equal(t, []int{3, 4, 5, 6, 7}, drain(r))
}

func drain[T any](r *TypedRingGrowing[T]) []T {
	var out []T
	for {
		v, ok := r.ReadOne()
		if !ok {
			return out
		}
		out = append(out, v)
	}
}

// RB-3: ReadOne on an empty ring returns the zero value and false; otherwise the oldest item,
// clearing its slot so the ring does not keep the object alive.
func TestCh07_RB3_ReadOneClearsSlot(t *testing.T) {
	r := NewTypedRingGrowing[*int](RingGrowingOptions{InitialSize: 2})
	v, ok := r.ReadOne()
	assert.False(t, ok)
	assert.Nil(t, v)

	a, b := new(int), new(int)
	r.WriteOne(a)
	r.WriteOne(b)
	v, ok = r.ReadOne()
	require.True(t, ok)
	assert.Same(t, a, v)
	assert.Nil(t, r.data[0], "the read slot must be cleared for the garbage collector")
	assert.Same(t, b, r.data[1])
	assert.Equal(t, 1, r.Len())

	var s TypedRingGrowing[string]
	str, ok := s.ReadOne()
	assert.False(t, ok)
	assert.Equal(t, "", str)
}

// RB-4 and INV-22: FIFO order and Len = writes − successful reads across random interleavings
// of reads, writes and growth; Cap stays initial·2^k and Len ≤ Cap.
func TestCh07_RB4_FIFOUnderRandomOps(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		initial := rng.IntN(5)
		r := NewTypedRingGrowing[int](RingGrowingOptions{InitialSize: initial})
		var model []int
		next, writes, reads := 0, 0, 0
		for range 2000 {
			if rng.IntN(3) < 2 {
				r.WriteOne(next)
				model = append(model, next)
				next++
				writes++
			} else {
				v, ok := r.ReadOne()
				require.Equal(t, len(model) > 0, ok, "seed %d", seed)
				if ok {
					require.Equal(t, model[0], v, "seed %d: FIFO order", seed)
					model = model[1:]
					reads++
				}
			}
			require.Equal(t, writes-reads, r.Len(), "seed %d", seed)
			require.LessOrEqual(t, r.Len(), r.Cap(), "seed %d", seed)
			require.True(t, validCap(initial, r.Cap()), "seed %d: cap %d from %d", seed, r.Cap(), initial)
		}
		if diff := cmp.Diff(model, drain(r)); diff != "" {
			t.Fatalf("seed %d: remaining items (-want +got):\n%s", seed, diff)
		}
	}
}

func validCap(initial, c int) bool {
	base := initial
	if base == 0 {
		if c == 0 {
			return true
		}
		base = defaultRingSize
	}
	for ; base <= c; base *= 2 {
		if base == c {
			return true
		}
	}
	return false
}

// RB-5: the ring never shrinks, even once it is empty again.
func TestCh07_RB5_NeverShrinks(t *testing.T) {
	r := NewRingGrowing(2)
	for i := range 9 {
		r.WriteOne(i)
	}
	require.Equal(t, 16, r.Cap())
	assert.Len(t, drain(r), 9)
	assert.Equal(t, 16, r.Cap())
	assert.Equal(t, 0, r.Len())
}

func BenchmarkRingGrowingWriteRead(b *testing.B) {
	r := NewRingGrowing(InitialBufferSize)
	var item any = AddNotification{NewObj: pod("a", "1")}
	b.ReportAllocs()
	for b.Loop() {
		r.WriteOne(item)
		_, _ = r.ReadOne()
	}
}

// BenchmarkRingGrowingBurst writes 4096 items into a ring of 1024 (two doublings) and reads
// them back: the cost of a stalled handler's backlog, per item.
func BenchmarkRingGrowingBurst(b *testing.B) {
	var item any = AddNotification{NewObj: pod("a", "1")}
	b.ReportAllocs()
	for b.Loop() {
		r := NewRingGrowing(InitialBufferSize)
		for range 4096 {
			r.WriteOne(item)
		}
		for range 4096 {
			_, _ = r.ReadOne()
		}
	}
}

// TestCh07_RB2_GrowCopiesOldestFirst: grow alone doubles the capacity (0 becomes 16) and
// copies the readable items, oldest first, to the start of the new array, unwrapping a ring
// whose items run past its end (RB-2, RB-4).
func TestCh07_RB2_GrowCopiesOldestFirst(t *testing.T) {
	tests := []struct {
		name           string
		data           []int
		beg, readable  int
		wantData       []int
		wantBeg, wantN int
	}{
		{"empty zero ring", nil, 0, 0, make([]int, 16), 0, 0},
		{"full, not wrapped", []int{1, 2, 3, 4}, 0, 4, []int{1, 2, 3, 4, 0, 0, 0, 0}, 0, 4},
		{"full, wrapped", []int{3, 4, 1, 2}, 2, 4, []int{1, 2, 3, 4, 0, 0, 0, 0}, 0, 4},
		{"partly read", []int{0, 2, 3, 0}, 1, 2, []int{2, 3, 0, 0, 0, 0, 0, 0}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &TypedRingGrowing[int]{data: tt.data, beg: tt.beg, readable: tt.readable}
			r.grow()
			assert.Equal(t, tt.wantData, r.data)
			assert.Equal(t, tt.wantBeg, r.beg)
			assert.Equal(t, tt.wantN, r.readable, "grow never changes what is readable")
		})
	}
}
