package store

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// byLabel files an object under the value of one label, or nowhere without it.
func byLabel(label string) IndexFunc {
	return func(obj any) ([]string, error) {
		m, err := api.Accessor(obj)
		if err != nil {
			return nil, err
		}
		if v, ok := m.GetLabels()[label]; ok {
			return []string{v}, nil
		}
		return nil, nil
	}
}

// byEveryLabel is multi-valued: one "k=v" entry per label.
func byEveryLabel(obj any) ([]string, error) {
	m, err := api.Accessor(obj)
	if err != nil {
		return nil, err
	}
	var out []string
	for k, v := range m.GetLabels() {
		out = append(out, k+"="+v)
	}
	return out, nil
}

func newTS(t *testing.T) ThreadSafeStore {
	t.Helper()
	return NewThreadSafeStore(Indexers{"app": byLabel("app"), "labels": byEveryLabel}, Indices{})
}

func sorted(s []string) []string { sort.Strings(s); return s }

// TS-1: Add and Update are the same operation.
func TestCh03_TS1_AddIsUpdate(t *testing.T) {
	a, u := newTS(t), newTS(t)
	p1 := pod("ns", "a", "1", map[string]string{"app": "x"})
	p2 := pod("ns", "a", "2", map[string]string{"app": "y"})
	a.Add("ns/a", p1)
	a.Add("ns/a", p2)
	u.Update("ns/a", p1)
	u.Update("ns/a", p2)
	for _, s := range []ThreadSafeStore{a, u} {
		got, ok := s.Get("ns/a")
		require.True(t, ok)
		assert.Same(t, p2, got)
		keys, err := s.IndexKeys("app", "y")
		require.NoError(t, err)
		assert.Equal(t, []string{"ns/a"}, keys)
		assert.Equal(t, []string{"y"}, s.ListIndexFuncValues("app"))
	}
}

// TS-2 and TS-3: an update removes the key from every old value and adds it to every new one;
// an emptied value disappears.
func TestCh03_TS2_TS3_UpdateMovesKey(t *testing.T) {
	tests := []struct {
		name       string
		before     map[string]string
		after      map[string]string
		wantValues []string
	}{
		{name: "same single value (fast path)", before: map[string]string{"app": "x"}, after: map[string]string{"app": "x"}, wantValues: []string{"app=x"}},
		{name: "value changes", before: map[string]string{"app": "x"}, after: map[string]string{"app": "y"}, wantValues: []string{"app=y"}},
		{name: "one value grows to two", before: map[string]string{"app": "x"}, after: map[string]string{"app": "x", "tier": "db"}, wantValues: []string{"app=x", "tier=db"}},
		{name: "two values shrink to none", before: map[string]string{"app": "x", "tier": "db"}, after: nil, wantValues: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTS(t)
			s.Add("ns/a", pod("ns", "a", "1", tc.before))
			s.Update("ns/a", pod("ns", "a", "2", tc.after))
			assert.Equal(t, tc.wantValues, sorted(s.ListIndexFuncValues("labels")))
			for _, v := range tc.wantValues {
				keys, err := s.IndexKeys("labels", v)
				require.NoError(t, err)
				assert.Equal(t, []string{"ns/a"}, keys, v)
			}
			for k, v := range tc.before {
				if tc.after[k] == v {
					continue
				}
				keys, err := s.IndexKeys("labels", k+"="+v)
				require.NoError(t, err)
				assert.Empty(t, keys, "stale entry %s=%s", k, v)
			}
		})
	}
}

// TS-4: an index function that fails is a programming error and panics on writes, while Index
// returns the error.
func TestCh03_TS4_IndexFuncErrorPanics(t *testing.T) {
	boom := errors.New("boom")
	failing := func(obj any) ([]string, error) {
		if p, ok := obj.(*api.Pod); ok && p.Name == "bad" {
			return nil, boom
		}
		return []string{"ok"}, nil
	}
	newStore := func() ThreadSafeStore { return NewThreadSafeStore(Indexers{"f": failing}, nil) }
	bad := pod("ns", "bad", "1", nil)

	assert.PanicsWithError(t, `unable to calculate an index entry for key "ns/bad" on index "f": boom`, func() {
		newStore().Add("ns/bad", bad)
	})
	assert.Panics(t, func() { newStore().Replace(map[string]any{"ns/bad": bad}, "1") })
	assert.Panics(t, func() {
		s := NewThreadSafeStore(Indexers{}, nil)
		s.Add("ns/bad", bad)
		_ = s.AddIndexers(Indexers{"f": failing})
	})

	_, err := newStore().Index("f", bad)
	assert.ErrorIs(t, err, boom)
}

// TS-5: deleting an absent key is a no-op; a delete unfiles the stored object, not the one the
// caller passes.
func TestCh03_TS5_DeleteUsesStoredObject(t *testing.T) {
	s := newTS(t)
	s.Delete("ns/absent")
	assert.Empty(t, s.ListKeys())

	s.Add("ns/a", pod("ns", "a", "1", map[string]string{"app": "stored"}))
	s.DeleteWithObject("ns/a", pod("ns", "a", "2", map[string]string{"app": "caller"}))
	_, ok := s.Get("ns/a")
	assert.False(t, ok)
	assert.Empty(t, s.ListIndexFuncValues("app"), "the stored value must be unfiled")
	assert.Equal(t, "2", s.LastStoreSyncResourceVersion(), "the passed object supplies the RV")
}

// TS-6: Replace swaps the map, rebuilds every index and adopts the RV.
func TestCh03_TS6_ReplaceRebuilds(t *testing.T) {
	s := newTS(t)
	s.Add("ns/old", pod("ns", "old", "1", map[string]string{"app": "x"}))
	s.Replace(map[string]any{
		"ns/a": pod("ns", "a", "5", map[string]string{"app": "y"}),
		"ns/b": pod("ns", "b", "6", map[string]string{"app": "y"}),
	}, "9")
	assert.ElementsMatch(t, []string{"ns/a", "ns/b"}, s.ListKeys())
	assert.Equal(t, []string{"y"}, s.ListIndexFuncValues("app"))
	keys, err := s.IndexKeys("app", "y")
	require.NoError(t, err)
	assert.Equal(t, []string{"ns/a", "ns/b"}, keys)
	assert.Equal(t, "9", s.LastStoreSyncResourceVersion())

	s.Replace(nil, "10")
	assert.Empty(t, s.List())
	s.Add("ns/c", pod("ns", "c", "11", nil)) // a nil map must not be kept
	assert.Len(t, s.List(), 1)
}

// TS-7: List and ListKeys return fresh slices holding the stored pointers.
func TestCh03_TS7_ListReturnsStoredPointers(t *testing.T) {
	s := newTS(t)
	p := pod("ns", "a", "1", nil)
	s.Add("ns/a", p)
	l := s.List()
	require.Len(t, l, 1)
	assert.Same(t, p, l[0])
	l[0] = nil // the caller's slice is its own
	got, _ := s.Get("ns/a")
	assert.Same(t, p, got)
	k := s.ListKeys()
	k[0] = "mutated"
	assert.Equal(t, []string{"ns/a"}, s.ListKeys())
}

// TS-7, the warning: mutating a cached object desynchronises the index silently.
func TestCh03_TS7_MutatingCachedObjectBreaksIndex(t *testing.T) {
	s := newTS(t)
	s.Add("ns/a", pod("ns", "a", "1", map[string]string{"app": "x"}))
	got, _ := s.Get("ns/a")
	got.(*api.Pod).Labels["app"] = "y" // the bug: never do this

	keysY, _ := s.IndexKeys("app", "y")
	keysX, _ := s.IndexKeys("app", "x")
	assert.Empty(t, keysY, "the index never learnt about the new label")
	assert.Equal(t, []string{"ns/a"}, keysX, "and still files the object under the old one")
}

// TS-8: Index with an unknown name errors; several values are deduplicated.
func TestCh03_TS8_Index(t *testing.T) {
	s := newTS(t)
	s.Add("ns/a", pod("ns", "a", "1", map[string]string{"app": "x", "tier": "db"}))
	s.Add("ns/b", pod("ns", "b", "1", map[string]string{"app": "x"}))
	s.Add("ns/c", pod("ns", "c", "1", map[string]string{"tier": "web"}))

	_, err := s.Index("nope", pod("", "", "", nil))
	require.EqualError(t, err, "Index with name nope does not exist")

	got, err := s.Index("labels", pod("", "probe", "", map[string]string{"app": "x", "tier": "db"}))
	require.NoError(t, err)
	assert.Len(t, got, 2, "ns/a matches both values but appears once")

	got, err = s.Index("app", pod("", "probe", "", map[string]string{"app": "x"}))
	require.NoError(t, err)
	assert.Len(t, got, 2)
}

// TS-9, TS-10, TS-11: unknown value is empty, keys are sorted, unknown index lists nothing.
func TestCh03_TS9_TS10_TS11_Lookups(t *testing.T) {
	s := newTS(t)
	for _, n := range []string{"c", "a", "b"} {
		s.Add("ns/"+n, pod("ns", n, "1", map[string]string{"app": "x"}))
	}
	objs, err := s.ByIndex("app", "missing")
	require.NoError(t, err)
	assert.Empty(t, objs)
	_, err = s.ByIndex("nope", "x")
	assert.Error(t, err)

	keys, err := s.IndexKeys("app", "x")
	require.NoError(t, err)
	assert.Equal(t, []string{"ns/a", "ns/b", "ns/c"}, keys)
	_, err = s.IndexKeys("nope", "x")
	assert.Error(t, err)

	assert.Empty(t, s.ListIndexFuncValues("nope"))
	assert.NotNil(t, s.ListIndexFuncValues("nope"))
}

// TS-12: AddIndexers indexes existing items; a conflicting name adds nothing.
func TestCh03_TS12_AddIndexers(t *testing.T) {
	s := NewThreadSafeStore(Indexers{"app": byLabel("app")}, nil)
	s.Add("ns/a", pod("ns", "a", "1", map[string]string{"app": "x", "tier": "db"}))

	err := s.AddIndexers(Indexers{"app": byLabel("other"), "tier": byLabel("tier")})
	require.EqualError(t, err, "indexer conflict: [app]")
	_, err = s.IndexKeys("tier", "db")
	require.Error(t, err, "nothing is added on conflict")

	require.NoError(t, s.AddIndexers(Indexers{"tier": byLabel("tier")}))
	keys, err := s.IndexKeys("tier", "db")
	require.NoError(t, err)
	assert.Equal(t, []string{"ns/a"}, keys)
}

// TS-13: GetIndexers returns the live map.
func TestCh03_TS13_GetIndexersIsLive(t *testing.T) {
	s := newTS(t)
	require.NoError(t, s.AddIndexers(Indexers{"tier": byLabel("tier")}))
	assert.Len(t, s.GetIndexers(), 3)
	assert.Contains(t, s.GetIndexers(), "tier")
}

// TS-14: the store RV follows writes, deletes with an object, Replace and Bookmark, unless
// tracking is off (the Classic profile).
func TestCh03_TS14_StoreResourceVersion(t *testing.T) {
	for _, tracking := range []bool{true, false} {
		t.Run(fmt.Sprint("tracking=", tracking), func(t *testing.T) {
			s := NewThreadSafeStore(nil, nil, WithResourceVersionTracking(tracking))
			want := func(rv string) string {
				if tracking {
					return rv
				}
				return ""
			}
			assert.Equal(t, "", s.LastStoreSyncResourceVersion())
			s.Add("ns/a", pod("ns", "a", "3", nil))
			assert.Equal(t, want("3"), s.LastStoreSyncResourceVersion())
			s.Add("k", "not an object") // no metadata: the RV stays
			assert.Equal(t, want("3"), s.LastStoreSyncResourceVersion())
			s.Delete("ns/a") // no object: the RV stays
			assert.Equal(t, want("3"), s.LastStoreSyncResourceVersion())
			s.DeleteWithObject("k", pod("ns", "a", "4", nil))
			assert.Equal(t, want("4"), s.LastStoreSyncResourceVersion())
			s.Replace(map[string]any{}, "8")
			assert.Equal(t, want("8"), s.LastStoreSyncResourceVersion())
			s.Bookmark("12")
			assert.Equal(t, want("12"), s.LastStoreSyncResourceVersion())
		})
	}
}

// TS-15: every operation is safe for concurrent use (run with -race).
func TestCh03_TS15_Concurrency(t *testing.T) {
	s := newTS(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				key := fmt.Sprintf("ns/p%d", i%20)
				p := pod("ns", key[3:], fmt.Sprint(i), map[string]string{"app": fmt.Sprint(i % 3), "w": fmt.Sprint(w)})
				switch i % 4 {
				case 0, 1:
					s.Update(key, p)
				case 2:
					s.Delete(key)
				case 3:
					_, _ = s.ByIndex("app", "1")
					_ = s.List()
					_ = s.ListIndexFuncValues("labels")
				}
			}
		})
	}
	wg.Wait()
	assertIndicesConsistent(t, s)
}

// Transaction applies writes in order under one lock and takes the RV of the last object.
func TestCh03_Transaction(t *testing.T) {
	s := newTS(t).(ThreadSafeStoreWithTransaction)
	s.Add("ns/gone", pod("ns", "gone", "1", map[string]string{"app": "x"}))
	s.Transaction(
		ThreadSafeStoreTransaction{Key: "ns/a", Transaction: Transaction{Type: TransactionTypeAdd, Object: pod("ns", "a", "2", map[string]string{"app": "x"})}},
		ThreadSafeStoreTransaction{Key: "ns/a", Transaction: Transaction{Type: TransactionTypeUpdate, Object: pod("ns", "a", "3", map[string]string{"app": "y"})}},
		ThreadSafeStoreTransaction{Key: "ns/gone", Transaction: Transaction{Type: TransactionTypeDelete, Object: pod("ns", "gone", "4", nil)}},
	)
	s.Transaction() // empty: nothing happens
	assert.Equal(t, []string{"ns/a"}, s.ListKeys())
	assert.Equal(t, []string{"y"}, s.ListIndexFuncValues("app"))
	assert.Equal(t, "4", s.LastStoreSyncResourceVersion())
	assertIndicesConsistent(t, s)
}

// assertIndicesConsistent checks INV-2: every index equals one recomputed from the items.
func assertIndicesConsistent(t *testing.T, s ThreadSafeStore) {
	t.Helper()
	for name, f := range s.GetIndexers() {
		want := map[string][]string{}
		for _, key := range s.ListKeys() {
			obj, _ := s.Get(key)
			values, err := f(obj)
			require.NoError(t, err)
			for _, v := range values {
				want[v] = append(want[v], key)
			}
		}
		got := map[string][]string{}
		for _, v := range s.ListIndexFuncValues(name) {
			keys, err := s.IndexKeys(name, v)
			require.NoError(t, err)
			got[v] = keys
		}
		for v := range want {
			sort.Strings(want[v])
		}
		assert.Equal(t, want, got, "index %q", name)
	}
}
