package storage

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/watch"
)

// TestCh01_Storage_TxCountsAndKeys checks point 8: the per-namespace counts and key lists a
// transaction reads, through creates and deletes, a namespace being a prefix of another.
func TestCh01_Storage_TxCountsAndKeys(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("pods", "pod")
	type want struct {
		counts map[string]int
		keys   map[string][]string
	}
	check := func(step string, w want) {
		t.Helper()
		require.NoError(t, s.View(func(tx *Tx) error {
			for ns, n := range w.counts {
				assert.Equal(t, n, tx.CountIn(c, ns), "%s: CountIn(%q)", step, ns)
			}
			for ns, keys := range w.keys {
				assert.Equal(t, keys, tx.KeysIn(c, ns), "%s: KeysIn(%q)", step, ns)
			}
			return nil
		}))
	}
	check("empty", want{counts: map[string]int{"a": 0}, keys: map[string][]string{"a": nil}})
	for _, k := range [][2]string{{"a", "2"}, {"a", "1"}, {"ab", "1"}, {"a-b", "1"}, {"b", "1"}} {
		mustCreate(t, s, c, k[0], k[1], "")
	}
	check("created", want{
		counts: map[string]int{"a": 2, "ab": 1, "a-b": 1, "b": 1, "c": 0},
		keys:   map[string][]string{"a": {"a/1", "a/2"}, "ab": {"ab/1"}, "a-b": {"a-b/1"}, "c": nil},
	})
	mustDelete(t, s, c, "a/1")
	mustUpdate(t, s, c, "a/2", "x")
	check("deleted one", want{
		counts: map[string]int{"a": 1, "ab": 1},
		keys:   map[string][]string{"a": {"a/2"}, "ab": {"ab/1"}},
	})
	mustDelete(t, s, c, "a/2")
	mustCreate(t, s, c, "a", "0", "")
	check("emptied and refilled", want{
		counts: map[string]int{"a": 1, "b": 1},
		keys:   map[string][]string{"a": {"a/0"}, "b": {"b/1"}},
	})

	// KeysIn's slice is the caller's; Keys is every key in order.
	require.NoError(t, s.View(func(tx *Tx) error {
		keys := tx.KeysIn(c, "a")
		keys[0] = "changed"
		assert.Equal(t, []string{"a/0"}, tx.KeysIn(c, "a"))
		assert.Equal(t, []string{"a-b/1", "a/0", "ab/1", "b/1"}, tx.Keys(c))
		assert.Equal(t, s.ResourceVersion(), tx.Revision())
		assert.NotNil(t, tx.Get(c, "a/0"))
		assert.Nil(t, tx.Get(c, "a/1"))
		return nil
	}))
}

// TestCh01_Storage_TxLastDeleted checks LastDeleted: the newest retained delete of a key in
// that collection, nil when there is none or it was compacted away.
func TestCh01_Storage_TxLastDeleted(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("pods", "pod")
	other := s.NewCollection("secrets", "secret")
	mustCreate(t, s, c, "ns", "a", "first")
	d1 := mustDelete(t, s, c, "ns/a")
	mustCreate(t, s, c, "ns", "a", "second")
	mustCreate(t, s, other, "ns", "a", "other")
	d2 := mustDelete(t, s, c, "ns/a")
	mustDelete(t, s, other, "ns/a")
	mustCreate(t, s, c, "ns", "a", "third")
	mustCreate(t, s, c, "ns", "b", "")
	last := func(coll *Collection, key string) *Record {
		var r *Record
		require.NoError(t, s.View(func(tx *Tx) error {
			r = tx.LastDeleted(coll, key)
			return nil
		}))
		return r
	}
	assert.NotSame(t, d1, d2)
	assert.Same(t, d2, last(c, "ns/a"), "the newest delete, though the key exists again")
	assert.Equal(t, "second", valueOf(last(c, "ns/a")))
	assert.Equal(t, "other", valueOf(last(other, "ns/a")), "per collection")
	assert.Nil(t, last(c, "ns/b"), "never deleted")
	assert.Nil(t, last(c, "ns/zz"))
	s.Compact(d2.RV)
	assert.Nil(t, last(c, "ns/a"), "compacted away")
	assert.NotNil(t, last(other, "ns/a"), "a delete after the compaction is retained")
}

// TestCh01_Storage_TxWrites checks transactions: writes inside Update are one atomic step
// (a watcher sees them in order with consecutive revisions), an error is returned as it
// is (writes made before it stay: a transaction is a lock, not a rollback), and a write
// inside View panics.
func TestCh01_Storage_TxWrites(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("pods", "pod")
	w, err := s.Watch(context.Background(), c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(w)
	errStop := errors.New("stop")
	err = s.Update(func(tx *Tx) error {
		a := tx.Create(c, "ns/a", cm("ns", "a", "1"))
		b := tx.Put(c, a, cm("ns", "a", "2"))
		tx.Remove(c, b, b.Obj.DeepCopy())
		tx.Create(c, "ns/b", cm("ns", "b", "1"))
		return errStop
	})
	assert.Same(t, errStop, err)
	assert.Equal(t, []evLine{
		{watch.Added, "ns/a", 1, "1"}, {watch.Modified, "ns/a", 2, "2"},
		{watch.Deleted, "ns/a", 3, "2"}, {watch.Added, "ns/b", 4, "1"},
	}, linesOf(drain(w)))

	assert.PanicsWithValue(t, "storage: a write inside View", func() {
		_ = s.View(func(tx *Tx) error {
			tx.Create(c, "ns/c", cm("ns", "c", "1"))
			return nil
		})
	})
	assert.Equal(t, uint64(4), s.ResourceVersion(), "the refused write changed nothing")
	// The panic released the read lock: a write goes through.
	mustCreate(t, s, c, "ns", "d", "1")
}

// TestCh01_Storage_KeysInClusterScoped: KeysIn agrees with CountIn for the cluster-scoped
// objects, whose namespace is "".
func TestCh01_Storage_KeysInClusterScoped(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("namespaces", "ns")
	mustCreate(t, s, c, "", "a", "")
	mustCreate(t, s, c, "", "b", "")
	_ = s.View(func(tx *Tx) error {
		assert.Equal(t, 2, tx.CountIn(c, ""))
		assert.Equal(t, []string{"a", "b"}, tx.KeysIn(c, ""))
		return nil
	})
}
