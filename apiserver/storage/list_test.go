package storage

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
)

// item is a listed record reduced to what tests compare.
type item struct {
	Key   string
	RV    uint64
	Value string
}

func itemsOf(recs []*Record) []item {
	out := make([]item, len(recs))
	for i, r := range recs {
		out[i] = item{r.Key, r.RV, valueOf(r)}
	}
	return out
}

// TestCh01_Storage_ListKeyOrderAndNamespaces checks point 2 of the contract: lists come in
// key order, a namespace selects exactly its keys (not those of a namespace whose name
// starts with it), and the list's revision is the store's at read time.
func TestCh01_Storage_ListKeyOrderAndNamespaces(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	// '-' < '/' < '1' in byte order: "ns-a/…" < "ns/…" < "ns1/…".
	for _, k := range [][2]string{{"ns1", "c"}, {"ns", "b"}, {"ns-a", "x"}, {"ns", "a"}, {"b", "z"}, {"ns", "a0"}} {
		mustCreate(t, s, c, k[0], k[1], k[0]+"/"+k[1])
	}
	mustCreate(t, s, other, "ns", "a", "secret") // rev 7, after every configmap
	tests := []struct {
		ns   string
		keep func(*Record) bool
		want []string
	}{
		{ns: "", want: []string{"b/z", "ns-a/x", "ns/a", "ns/a0", "ns/b", "ns1/c"}},
		{ns: "ns", want: []string{"ns/a", "ns/a0", "ns/b"}},
		{ns: "ns-a", want: []string{"ns-a/x"}},
		{ns: "ns1", want: []string{"ns1/c"}},
		{ns: "n", want: []string{}},
		{ns: "zzz", want: []string{}},
		{ns: "ns", keep: func(r *Record) bool { return r.Obj.GetName() != "a0" }, want: []string{"ns/a", "ns/b"}},
	}
	for _, tt := range tests {
		res, err := s.GetList(context.Background(), c, ListOptions{Namespace: tt.ns, Predicate: tt.keep})
		require.NoError(t, err)
		assert.Equal(t, tt.want, keysOf(res.Items), "namespace %q", tt.ns)
		assert.NotNil(t, res.Items, "an empty list is [], not null")
		assert.Equal(t, uint64(7), res.RV, "the store's revision, not the newest item's")
		assert.Empty(t, res.Continue)
		assert.Nil(t, res.Remaining)
	}
}

// TestCh01_Storage_ListPagingKeepsTheSnapshot checks point 4: every page of a paged list is
// read at the first page's revision, whatever was written in between (updates, deletes,
// creates before and after the token's key), and the remaining count is the snapshot's.
func TestCh01_Storage_ListPagingKeepsTheSnapshot(t *testing.T) {
	for _, ns := range []string{"", "ns"} {
		t.Run("namespace="+ns, func(t *testing.T) {
			ctx := context.Background()
			s := newTestStore(Config{})
			c := s.NewCollection("configmaps", "cm")
			mustCreate(t, s, c, "other", "o", "o") // another namespace, listed only without one
			for _, n := range []string{"a", "b", "c", "d", "e"} {
				mustCreate(t, s, c, "ns", n, "v1")
			}
			snap := s.ResourceVersion()
			var want []item
			res, err := s.GetList(ctx, c, ListOptions{Namespace: ns})
			require.NoError(t, err)
			want = itemsOf(res.Items)

			var got []item
			p1, err := s.GetList(ctx, c, ListOptions{Namespace: ns, Limit: 2})
			require.NoError(t, err)
			assert.Equal(t, snap, p1.RV)
			require.NotEmpty(t, p1.Continue)
			require.NotNil(t, p1.Remaining)
			assert.Equal(t, int64(len(want)-2), *p1.Remaining)
			got = append(got, itemsOf(p1.Items)...)

			// Writes between pages: before the token's key, after it, creates and deletes.
			mustUpdate(t, s, c, "ns/c", "v2")
			mustDelete(t, s, c, "ns/d")
			mustCreate(t, s, c, "ns", "bb", "new")
			mustCreate(t, s, c, "ns", "zz", "new")
			mustDelete(t, s, c, "ns/a")
			mustCreate(t, s, c, "ns", "d", "reborn")

			tok := p1.Continue
			for tok != "" {
				p, err := s.GetList(ctx, c, ListOptions{Namespace: ns, Limit: 2, Continue: tok})
				require.NoError(t, err)
				assert.Equal(t, snap, p.RV, "every page has the first page's revision")
				got = append(got, itemsOf(p.Items)...)
				tok = p.Continue
				if tok != "" {
					require.NotNil(t, p.Remaining)
					assert.Equal(t, int64(len(want)-len(got)), *p.Remaining, "the snapshot's remaining count")
				}
			}
			assert.Empty(t, cmp.Diff(want, got), "the pages make the list at the snapshot")

			exact, err := s.GetList(ctx, c, ListOptions{Namespace: ns, ResourceVersion: snap, Exact: true})
			require.NoError(t, err)
			assert.Equal(t, snap, exact.RV)
			assert.Empty(t, cmp.Diff(want, itemsOf(exact.Items)), "an Exact list rebuilds the same snapshot")

			now, err := s.GetList(ctx, c, ListOptions{Namespace: "ns"})
			require.NoError(t, err)
			assert.Equal(t, []string{"ns/b", "ns/bb", "ns/c", "ns/d", "ns/e", "ns/zz"}, keysOf(now.Items))
		})
	}
}

// TestCh01_Storage_ListRemainingOnlyWithoutPredicate checks that the remaining count is set
// only when no predicate selects (it would count items the predicate drops), and that a
// predicate's page still stops at Limit matching items.
func TestCh01_Storage_ListRemainingOnlyWithoutPredicate(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		v := "odd"
		if n == "b" || n == "d" || n == "f" {
			v = "even"
		}
		mustCreate(t, s, c, "ns", n, v)
	}
	even := func(r *Record) bool { return valueOf(r) == "even" }
	tests := []struct {
		name         string
		opts         ListOptions
		want         []string
		wantMore     bool
		wantRemain   *int64
		wantNoRemain bool
	}{
		{name: "no predicate", opts: ListOptions{Limit: 2}, want: []string{"ns/a", "ns/b"}, wantMore: true, wantRemain: ptr(int64(4))},
		{name: "no predicate, limit = size", opts: ListOptions{Limit: 6}, want: []string{"ns/a", "ns/b", "ns/c", "ns/d", "ns/e", "ns/f"}},
		{name: "no predicate, limit 5", opts: ListOptions{Limit: 5}, want: []string{"ns/a", "ns/b", "ns/c", "ns/d", "ns/e"}, wantMore: true, wantRemain: ptr(int64(1))},
		{name: "predicate", opts: ListOptions{Limit: 2, Predicate: even}, want: []string{"ns/b", "ns/d"}, wantMore: true},
		{name: "predicate, all fit", opts: ListOptions{Limit: 3, Predicate: even}, want: []string{"ns/b", "ns/d", "ns/f"}},
	}
	for _, tt := range tests {
		res, err := s.GetList(context.Background(), c, tt.opts)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, keysOf(res.Items), tt.name)
		assert.Equal(t, tt.wantMore, res.Continue != "", tt.name)
		assert.Equal(t, tt.wantRemain, res.Remaining, tt.name)
	}
}

// TestCh01_Storage_ListAtOldRevisions checks Exact lists: any retained revision is rebuilt
// from the history (each item with the revision it had then), the oldest retained one
// included; a compacted one, or one that left the ring, is 410 Expired.
func TestCh01_Storage_ListAtOldRevisions(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{HistorySize: 8})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	mustCreate(t, s, c, "ns", "a", "a1")    // 1
	mustCreate(t, s, c, "ns", "b", "b1")    // 2
	mustCreate(t, s, other, "ns", "s", "x") // 3
	mustUpdate(t, s, c, "ns/a", "a2")       // 4
	mustDelete(t, s, c, "ns/b")             // 5
	mustCreate(t, s, c, "ns", "c", "c1")    // 6
	mustCreate(t, s, c, "ns", "b", "b2")    // 7
	want := map[uint64][]item{
		0: {},
		1: {{"ns/a", 1, "a1"}},
		2: {{"ns/a", 1, "a1"}, {"ns/b", 2, "b1"}},
		3: {{"ns/a", 1, "a1"}, {"ns/b", 2, "b1"}},
		4: {{"ns/a", 4, "a2"}, {"ns/b", 2, "b1"}},
		5: {{"ns/a", 4, "a2"}},
		6: {{"ns/a", 4, "a2"}, {"ns/c", 6, "c1"}},
		7: {{"ns/a", 4, "a2"}, {"ns/b", 7, "b2"}, {"ns/c", 6, "c1"}},
	}
	for rv := uint64(1); rv <= 7; rv++ { // 0 is "no resourceVersion"
		for _, ns := range []string{"", "ns"} {
			res, err := s.GetList(ctx, c, ListOptions{Namespace: ns, ResourceVersion: rv, Exact: true})
			require.NoError(t, err, rv)
			assert.Equal(t, rv, res.RV)
			assert.Empty(t, cmp.Diff(want[rv], itemsOf(res.Items)), "rv %d", rv)
		}
	}
	// Paged from an old revision: the pages keep it.
	p, err := s.GetList(ctx, c, ListOptions{ResourceVersion: 2, Exact: true, Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, []item{{"ns/a", 1, "a1"}}, itemsOf(p.Items))
	require.NotNil(t, p.Remaining)
	assert.Equal(t, int64(1), *p.Remaining)
	p, err = s.GetList(ctx, c, ListOptions{Limit: 1, Continue: p.Continue})
	require.NoError(t, err)
	assert.Equal(t, uint64(2), p.RV)
	assert.Equal(t, []item{{"ns/b", 2, "b1"}}, itemsOf(p.Items))
	assert.Empty(t, p.Continue)

	// The ring holds 8 events: two more writes push revisions 1 and 2 out.
	mustUpdate(t, s, c, "ns/c", "c2") // 8
	mustUpdate(t, s, c, "ns/c", "c3") // 9
	assert.Equal(t, uint64(1), s.OldestResourceVersion())
	s.Compact(4)
	assert.Equal(t, uint64(4), s.OldestResourceVersion())
	for rv, wantErr := range map[uint64]bool{1: true, 2: true, 3: true, 4: false, 9: false} {
		res, err := s.GetList(ctx, c, ListOptions{ResourceVersion: rv, Exact: true})
		if !wantErr {
			require.NoError(t, err, rv)
			assert.Equal(t, rv, res.RV)
			continue
		}
		st := statusOf(t, err)
		assert.Equal(t, int32(410), st.Code, rv)
		assert.Equal(t, api.StatusReasonExpired, st.Reason, rv)
		assert.Equal(t, "The resourceVersion for the provided list is too old.", st.Message, rv)
	}
	s.Compact(100) // beyond the revision: everything
	assert.Equal(t, uint64(9), s.OldestResourceVersion())
	res, err := s.GetList(ctx, c, ListOptions{ResourceVersion: 9, Exact: true})
	require.NoError(t, err)
	assert.Len(t, res.Items, 3)
}

// TestCh01_Storage_ContinueTokens checks the continue tokens' errors: a compacted snapshot
// is 410 Expired carrying a fresh "latest" token that continues where the old one would
// have; a token that is not one, or one from the future, is 400.
func TestCh01_Storage_ContinueTokens(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	for _, n := range []string{"a", "b", "c", "d"} {
		mustCreate(t, s, c, "ns", n, "v1")
	}
	p1, err := s.GetList(ctx, c, ListOptions{Namespace: "ns", Limit: 2})
	require.NoError(t, err)
	rv, start, err := continuetoken.Decode(p1.Continue)
	require.NoError(t, err)
	assert.Equal(t, uint64(4), rv)
	assert.Equal(t, "b\x00", start, "the key after the last item, relative to the namespace")

	mustUpdate(t, s, c, "ns/c", "v2") // 5
	s.Compact(5)
	_, err = s.GetList(ctx, c, ListOptions{Namespace: "ns", Limit: 2, Continue: p1.Continue})
	st := statusOf(t, err)
	assert.Equal(t, int32(410), st.Code)
	assert.Equal(t, api.StatusReasonExpired, st.Reason)
	assert.Contains(t, st.Message, "The provided continue parameter is too old to display a consistent list result.")
	require.NotEmpty(t, st.Continue)
	rv, start, err = continuetoken.Decode(st.Continue)
	require.NoError(t, err)
	assert.Equal(t, uint64(0), rv, "the fresh token continues at the latest revision")
	assert.Equal(t, "b\x00", start)

	p2, err := s.GetList(ctx, c, ListOptions{Namespace: "ns", Continue: st.Continue})
	require.NoError(t, err)
	assert.Equal(t, uint64(5), p2.RV)
	assert.Equal(t, []item{{"ns/c", 5, "v2"}, {"ns/d", 4, "v1"}}, itemsOf(p2.Items))

	bad := []struct {
		name, token, msg string
	}{
		{"not base64", "%%%", "invalid continue token: continue key is not valid: "},
		{"from the future", continuetoken.Encode(99, "a"), "invalid continue token: continue key is not valid: resourceVersion is ahead of the server"},
		{"climbs out", continuetoken.Encode(4, "../x"), "invalid continue token: continue key is not valid: ../x"},
	}
	for _, tt := range bad {
		_, err := s.GetList(ctx, c, ListOptions{Namespace: "ns", Continue: tt.token})
		st := statusOf(t, err)
		assert.Equal(t, int32(400), st.Code, tt.name)
		assert.Equal(t, api.StatusReasonBadRequest, st.Reason, tt.name)
		assert.Contains(t, st.Message, tt.msg, tt.name)
	}
}
