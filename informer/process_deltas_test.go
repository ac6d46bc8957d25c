package informer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

var keyFunc = store.DeletionHandlingMetaNamespaceKeyFunc

// cacheWith returns a store (RV tracking on, as ProfileCurrent) holding objs.
func cacheWith(t *testing.T, objs ...any) store.Indexer {
	t.Helper()
	s := store.NewIndexer(keyFunc, store.Indexers{}, ProfileCurrent.storeOptions(nil)...)
	for _, o := range objs {
		require.NoError(t, s.Add(o))
	}
	return s
}

// snapshotRecorder is a recorder that also notes, at every call, the cache's content: what the
// handler could read from the lister at that moment.
func snapshotRecorder(s store.Store) (*recorder, *[]map[string]string) {
	var snaps []map[string]string
	rec := newRecorder()
	rec.onCall = func(string) { snaps = append(snaps, cacheState(s)) }
	return rec, &snaps
}

// TestCh06_ProcessDeltas_C5_CachePresenceDecides: a delta's type does not decide add versus
// update; whether the key is cached does (C-5). The cache is written before the handler runs.
func TestCh06_ProcessDeltas_C5_CachePresenceDecides(t *testing.T) {
	tests := []struct {
		name   string
		cached bool
		typ    deltafifo.DeltaType
		init   bool
		want   string
	}{
		{"Added, uncached", false, deltafifo.Added, false, "ADD a@2"},
		{"Added, cached: an update", true, deltafifo.Added, false, "UPD a@1→a@2"},
		{"Updated, cached", true, deltafifo.Updated, false, "UPD a@1→a@2"},
		{"Updated, uncached: an add", false, deltafifo.Updated, false, "ADD a@2"},
		{"Sync, uncached: an add", false, deltafifo.Sync, false, "ADD a@2"},
		{"Sync, cached", true, deltafifo.Sync, false, "UPD a@1→a@2"},
		{"Replaced, uncached, initial list", false, deltafifo.Replaced, true, "ADD a@2 init"},
		{"Replaced, cached: isInInitialList is lost on updates", true, deltafifo.Replaced, true, "UPD a@1→a@2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := cacheWith(t)
			if tc.cached {
				require.NoError(t, s.Add(pod("a", "1")))
			}
			rec, snaps := snapshotRecorder(s)
			err := processDeltas(rec, s, deltafifo.Deltas{{Type: tc.typ, Object: pod("a", "2")}}, tc.init, keyFunc)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, rec.Lines())
			assert.Equal(t, []map[string]string{{"ns/a": "2"}}, *snaps, "cache first, then notify")
		})
	}
}

// TestCh06_ProcessDeltas_C5_OldestFirst: one key's Deltas are applied oldest first, each
// notified after its own write (the Classic profile's grouped pop, D-1).
func TestCh06_ProcessDeltas_C5_OldestFirst(t *testing.T) {
	s := cacheWith(t)
	rec, snaps := snapshotRecorder(s)
	deltas := deltafifo.Deltas{
		{Type: deltafifo.Added, Object: pod("a", "1")},
		{Type: deltafifo.Updated, Object: pod("a", "2")},
		{Type: deltafifo.Deleted, Object: pod("a", "3")},
	}
	require.NoError(t, processDeltas(rec, s, deltas, false, keyFunc))
	assert.Equal(t, []string{"ADD a@1", "UPD a@1→a@2", "DEL a@3"}, rec.Lines())
	assert.Equal(t, []map[string]string{{"ns/a": "1"}, {"ns/a": "2"}, {}}, *snaps)
}

// TestCh06_ProcessDeltas_C6_DeleteIsUnconditional: a Deleted delta deletes from the cache and
// reaches OnDelete whether or not the key was cached, tombstones included (C-6).
func TestCh06_ProcessDeltas_C6_DeleteIsUnconditional(t *testing.T) {
	tests := []struct {
		name   string
		cached []any
		obj    any
		want   string
	}{
		{"cached object", []any{pod("a", "1")}, pod("a", "2"), "DEL a@2"},
		{"never cached (RF-3, D-2)", nil, pod("ghost", "4"), "DEL ghost@4"},
		{"tombstone of a cached key", []any{pod("a", "1")},
			store.DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("a", "1")}, "DEL DFSU(a@1)"},
		{"tombstone without object", nil, store.DeletedFinalStateUnknown{Key: "ns/x"}, "DEL DFSU(x)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := cacheWith(t, tc.cached...)
			rec := newRecorder()
			err := processDeltas(rec, s, deltafifo.Deltas{{Type: deltafifo.Deleted, Object: tc.obj}}, false, keyFunc)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, rec.Lines())
			assert.Empty(t, s.ListKeys())
		})
	}
}

// TestCh06_ProcessDeltas_C7_ReplacedAll: deletions are computed against the cache, the cache is
// replaced in one step, and only then do handlers run: tombstones first, then adds and
// updates in list order (C-7, D-5).
func TestCh06_ProcessDeltas_C7_ReplacedAll(t *testing.T) {
	s := cacheWith(t, pod("p1", "1"), pod("p2", "2"), pod("a", "5"))
	rec, snaps := snapshotRecorder(s)
	info := deltafifo.ReplacedAllInfo{ResourceVersion: "8", Objects: []any{pod("p1", "6"), pod("c", "8"), pod("a", "5")}}
	require.NoError(t, processDeltas(rec, s, deltafifo.Deltas{{Type: deltafifo.ReplacedAll, Object: info}}, true, keyFunc))

	assert.Equal(t, []string{"DEL DFSU(p2@2)", "UPD p1@1→p1@6", "ADD c@8 init", "UPD a@5→a@5"}, rec.Lines())
	final := map[string]string{"ns/p1": "6", "ns/c": "8", "ns/a": "5"}
	for i, snap := range *snaps {
		assert.Equal(t, final, snap, "call %d already sees the whole new list", i)
	}
	assert.Equal(t, "8", s.LastStoreSyncResourceVersion(), "Replace sets the store RV (TS-14)")

	t.Run("a key error leaves the cache untouched", func(t *testing.T) {
		before := cacheState(s)
		bad := deltafifo.ReplacedAllInfo{ResourceVersion: "9", Objects: []any{pod("p1", "9"), struct{}{}}}
		err := processDeltas(newRecorder(), s, deltafifo.Deltas{{Type: deltafifo.ReplacedAll, Object: bad}}, false, keyFunc)
		require.Error(t, err)
		assert.Equal(t, before, cacheState(s))
	})
}

// TestCh06_ProcessDeltas_C8_SyncAll: every cached object is resynced as OnUpdate(o, o), as it
// is at processing time (C-8, D-3).
func TestCh06_ProcessDeltas_C8_SyncAll(t *testing.T) {
	s := cacheWith(t, pod("a", "1"), pod("b", "2"))
	rec := newRecorder()
	require.NoError(t, processDeltas(rec, s, deltafifo.Deltas{{Type: deltafifo.SyncAll, Object: deltafifo.SyncAllInfo{}}}, false, keyFunc))
	assert.ElementsMatch(t, []string{"UPD a@1→a@1", "UPD b@2→b@2"}, rec.Lines())
}

// TestCh06_ProcessDeltas_C9_Bookmark: a bookmark moves the store's RV and calls no handler
// (C-9, D-8).
func TestCh06_ProcessDeltas_C9_Bookmark(t *testing.T) {
	s := cacheWith(t, pod("a", "1"))
	rec := newRecorder()
	require.NoError(t, processDeltas(rec, s, deltafifo.Deltas{{Type: deltafifo.Bookmark, Object: deltafifo.BookmarkInfo{ResourceVersion: "42"}}}, false, keyFunc))
	assert.Empty(t, rec.Lines())
	assert.Equal(t, "42", s.LastStoreSyncResourceVersion())
}

// TestCh06_ProcessDeltas_C10_StoreErrorAborts: a store error stops the remaining deltas of the
// item and is returned (C-10), and malformed deltas are errors, not panics.
func TestCh06_ProcessDeltas_C10_StoreErrorAborts(t *testing.T) {
	tests := []struct {
		name   string
		deltas deltafifo.Deltas
	}{
		{"key error on add", deltafifo.Deltas{{Type: deltafifo.Added, Object: struct{}{}}, {Type: deltafifo.Added, Object: pod("b", "2")}}},
		{"key error on delete", deltafifo.Deltas{{Type: deltafifo.Deleted, Object: 42}, {Type: deltafifo.Added, Object: pod("b", "2")}}},
		{"ReplacedAll without its payload", deltafifo.Deltas{{Type: deltafifo.ReplacedAll, Object: pod("x", "1")}, {Type: deltafifo.Added, Object: pod("b", "2")}}},
		{"Bookmark without its payload", deltafifo.Deltas{{Type: deltafifo.Bookmark, Object: "7"}, {Type: deltafifo.Added, Object: pod("b", "2")}}},
		{"unknown delta type", deltafifo.Deltas{{Type: "Nope", Object: pod("x", "1")}, {Type: deltafifo.Added, Object: pod("b", "2")}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := cacheWith(t)
			rec := newRecorder()
			err := processDeltas(rec, s, tc.deltas, false, keyFunc)
			require.Error(t, err)
			assert.Empty(t, rec.Lines(), "no handler call for the failed delta or after it")
			assert.Empty(t, s.ListKeys(), "b@2 was not applied")
		})
	}
}

// noTxnStore hides the store's Transaction method.
type noTxnStore struct{ store.Store }

// TestCh06_ProcessDeltasInBatch_C11: a batch becomes one transaction, add or update decided from
// the cache before it; handlers then run in batch order, after the whole batch is visible
// (D-9). On partial failure only the applied entries are notified. Without transaction support
// deltas are processed one by one.
func TestCh06_ProcessDeltasInBatch_C11(t *testing.T) {
	batch := []deltafifo.Delta{
		{Type: deltafifo.Updated, Object: pod("a", "2")},
		{Type: deltafifo.Added, Object: pod("b", "3")},
		{Type: deltafifo.Deleted, Object: pod("c", "4")},
		{Type: deltafifo.Sync, Object: pod("d", "5")},
	}
	want := []string{"UPD a@1→a@2", "ADD b@3 init", "DEL c@4", "ADD d@5 init"}
	final := map[string]string{"ns/a": "2", "ns/b": "3", "ns/d": "5"}

	t.Run("transactional", func(t *testing.T) {
		s := cacheWith(t, pod("a", "1"), pod("c", "1"))
		rec, snaps := snapshotRecorder(s)
		require.NoError(t, processDeltasInBatch(rec, s, batch, true, keyFunc))
		assert.Equal(t, want, rec.Lines())
		for i, snap := range *snaps {
			assert.Equal(t, final, snap, "call %d runs after the whole batch was applied", i)
		}
	})
	t.Run("one by one without transactions", func(t *testing.T) {
		s := cacheWith(t, pod("a", "1"), pod("c", "1"))
		rec, snaps := snapshotRecorder(noTxnStore{s})
		require.NoError(t, processDeltasInBatch(rec, noTxnStore{s}, batch, true, keyFunc))
		assert.Equal(t, want, rec.Lines())
		assert.Equal(t, map[string]string{"ns/a": "2", "ns/c": "1"}, (*snaps)[0], "the first call sees only its own write")
	})
	t.Run("partial failure notifies only applied entries", func(t *testing.T) {
		s := cacheWith(t, pod("a", "1"))
		rec := newRecorder()
		bad := []deltafifo.Delta{
			{Type: deltafifo.Updated, Object: pod("a", "2")},
			{Type: deltafifo.Added, Object: struct{}{}},
			{Type: deltafifo.Added, Object: pod("b", "3")},
		}
		err := processDeltasInBatch(rec, s, bad, false, keyFunc)
		require.Error(t, err)
		assert.Equal(t, []string{"UPD a@1→a@2", "ADD b@3"}, rec.Lines())
		assert.Equal(t, map[string]string{"ns/a": "2", "ns/b": "3"}, cacheState(s))
	})
	t.Run("aggregate deltas are not batchable", func(t *testing.T) {
		for _, typ := range []deltafifo.DeltaType{deltafifo.ReplacedAll, deltafifo.SyncAll, deltafifo.Bookmark} {
			s := cacheWith(t)
			rec := newRecorder()
			err := processDeltasInBatch(rec, s, []deltafifo.Delta{{Type: deltafifo.Added, Object: pod("a", "1")}, {Type: typ}}, false, keyFunc)
			require.Error(t, err, "%s", typ)
			assert.Empty(t, rec.Lines(), "nothing was applied")
			assert.Empty(t, s.ListKeys())
		}
	})
}

// TestCh06_AddOrUpdate_C5_CacheDecides: addOrUpdate alone. Whether the key is cached decides
// add or update, the cache is written before the handler runs, and isInInitialList reaches
// only an add (C-5).
func TestCh06_AddOrUpdate_C5_CacheDecides(t *testing.T) {
	tests := []struct {
		name   string
		cached bool
		init   bool
		want   string
	}{
		{"uncached: an add", false, false, "ADD a@2"},
		{"uncached, initial list", false, true, "ADD a@2 init"},
		{"cached: an update with the cached object as old", true, false, "UPD a@1→a@2"},
		{"cached, initial list: the flag is lost on updates", true, true, "UPD a@1→a@2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := cacheWith(t)
			if tc.cached {
				require.NoError(t, s.Add(pod("a", "1")))
			}
			rec, snaps := snapshotRecorder(s)
			require.NoError(t, addOrUpdate(rec, s, pod("a", "2"), tc.init))
			assert.Equal(t, []string{tc.want}, rec.Lines())
			assert.Equal(t, []map[string]string{{"ns/a": "2"}}, *snaps, "cache first, then notify")
		})
	}
}
