package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_NodePort_Allocator checks the default range: 86 static ports at the bottom
// (calculateRangeOffset: 2768/32), dynamic ports at random from the upper part until it
// is full, then from the static part, then range is full; the errors are upstream's.
func TestCh01_NodePort_Allocator(t *testing.T) {
	a := NewNodePortAllocator(DefaultNodePortRange)
	assert.Equal(t, "30000-32767", a.Range().String())
	assert.Equal(t, 86, a.offset)
	for _, tc := range []struct{ size, want int }{{16, 0}, {17, 16}, {100, 16}, {2768, 86}, {65536, 128}} {
		assert.Equal(t, tc.want, portRangeOffset(tc.size), "size %d", tc.size)
	}

	require.NoError(t, a.Allocate(30000))
	assert.EqualError(t, a.Allocate(30000), "provided port is already allocated")
	assert.EqualError(t, a.Allocate(29999), "provided port is not in the valid range. The range of valid ports is 30000-32767")
	assert.EqualError(t, a.Allocate(32768), "provided port is not in the valid range. The range of valid ports is 30000-32767")

	seen := map[int]bool{}
	for range 2768 - 86 {
		p, err := a.AllocateNext()
		require.NoError(t, err)
		assert.GreaterOrEqual(t, p, 30086, "the upper part first")
		assert.LessOrEqual(t, p, 32767)
		assert.False(t, seen[p], "port %d twice", p)
		seen[p] = true
	}
	for range 85 { // the static part, 30000 excepted
		p, err := a.AllocateNext()
		require.NoError(t, err)
		assert.Less(t, p, 30086)
		assert.False(t, seen[p])
		seen[p] = true
	}
	_, err := a.AllocateNext()
	assert.ErrorIs(t, err, ErrPortsFull)
	assert.Equal(t, 2768, a.Used())
	a.Release(31000)
	p, err := a.AllocateNext()
	require.NoError(t, err)
	assert.Equal(t, 31000, p)
	a.Release(40000) // outside: ignored
	assert.True(t, a.Has(31000))
}

// TestCh01_NodePort_Random checks that two allocators do not hand out the same sequence,
// as the real random scan does not (a fixed order would be a client's false friend).
func TestCh01_NodePort_Random(t *testing.T) {
	seq := func() []int {
		a := NewNodePortAllocator(DefaultNodePortRange)
		var out []int
		for range 8 {
			p, err := a.AllocateNext()
			require.NoError(t, err)
			out = append(out, p)
		}
		return out
	}
	assert.NotEqual(t, seq(), seq())
}

// TestCh01_NodePort_Operation checks one write's operation: reservations given back on
// failure, releases done only on success, and a dry run that holds nothing (ports asked
// for are checked against those held, not against the range, and dynamic ones count on
// from 32768, as upstream's dry run).
func TestCh01_NodePort_Operation(t *testing.T) {
	a := NewNodePortAllocator(DefaultNodePortRange)
	require.NoError(t, a.Allocate(30001))

	op := &portOperation{a: a}
	require.NoError(t, op.allocate(30002))
	_, err := op.allocateNext()
	require.NoError(t, err)
	op.release = []int{30001}
	op.finish(false)
	assert.Equal(t, 1, a.Used(), "a failed write gives its ports back and frees nothing")
	assert.True(t, a.Has(30001))

	op = &portOperation{a: a}
	require.NoError(t, op.allocate(30002))
	op.release = []int{30001}
	op.finish(true)
	assert.True(t, a.Has(30002))
	assert.False(t, a.Has(30001))

	dry := &portOperation{a: a, dryRun: true}
	assert.ErrorIs(t, dry.allocate(30002), ErrPortAllocated)
	require.NoError(t, dry.allocate(40000))
	assert.ErrorIs(t, dry.allocate(40000), ErrPortAllocated)
	p, err := dry.allocateNext()
	require.NoError(t, err)
	assert.Equal(t, 40001, p)
	fresh := &portOperation{a: a, dryRun: true}
	p, _ = fresh.allocateNext()
	assert.Equal(t, 32769, p)
	dry.finish(true)
	assert.Equal(t, 1, a.Used())
}
