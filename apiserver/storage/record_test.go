package storage

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Storage_RecordEncodingsAreCached checks point 7: each encoding of a record is
// made once through the injected codec and shared by everything that holds the record (the
// answer of the write, Get, lists, watch events); a failure is not cached.
func TestCh01_Storage_RecordEncodingsAreCached(t *testing.T) {
	ctx := context.Background()
	codec := &countingCodec{}
	codec.fail[2] = 1
	s := newTestStore(Config{Codec: codec})
	c := s.NewCollection("configmaps", "cm")
	w, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(w)
	rec := mustCreate(t, s, c, "ns", "a", "1")
	got, err := s.Get(ctx, c, "ns/a", GetOptions{})
	require.NoError(t, err)
	list, err := s.GetList(ctx, c, ListOptions{})
	require.NoError(t, err)
	evs := drain(w)
	require.Len(t, evs, 1)
	holders := []*Record{rec, got, list.Items[0], evs[0].Obj}
	for _, h := range holders {
		require.Same(t, rec, h, "one record shared by every reader")
	}

	tests := []struct {
		f         Format
		want      string
		wantErr   string
		wantCalls int
	}{
		{f: 0, want: "0:a@1", wantCalls: 1},
		{f: 0, want: "0:a@1", wantCalls: 1},
		{f: 1, want: "1:a@1", wantCalls: 1},
		{f: 2, wantErr: "format 2: cannot encode", wantCalls: 1},
		{f: 2, want: "2:a@1", wantCalls: 2},
		{f: 2, want: "2:a@1", wantCalls: 2},
		{f: 0, want: "0:a@1", wantCalls: 1},
	}
	for i, tt := range tests {
		b, err := holders[i%len(holders)].Encoded(tt.f)
		if tt.wantErr != "" {
			assert.EqualError(t, err, tt.wantErr, i)
			assert.Nil(t, b)
		} else {
			require.NoError(t, err, i)
			assert.Equal(t, tt.want, string(b), i)
		}
		assert.Equal(t, tt.wantCalls, codec.count(tt.f), "codec calls for format %d after step %d", tt.f, i)
	}
	assert.Equal(t, 0, codec.count(3))

	// Once made, concurrent readers share the cached bytes.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			b, err := rec.Encoded(1)
			assert.NoError(t, err)
			assert.Equal(t, "1:a@1", string(b))
		})
	}
	wg.Wait()
	assert.Equal(t, 1, codec.count(1))

	// A new version is a new record, encoded afresh.
	rec2 := mustUpdate(t, s, c, "ns/a", "2")
	b, err := rec2.Encoded(0)
	require.NoError(t, err)
	assert.Equal(t, "0:a@2", string(b))
	assert.Equal(t, 2, codec.count(0))
}

// TestCh01_Storage_RecordWithoutCodec checks that a store without a codec fails to encode,
// and that NewRecord (a dry run's answer) uses the store's codec.
func TestCh01_Storage_RecordWithoutCodec(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	rec := mustCreate(t, s, c, "ns", "a", "1")
	_, err := rec.Encoded(0)
	assert.EqualError(t, err, "storage: no codec")

	codec := &countingCodec{}
	s2 := newTestStore(Config{Codec: codec})
	dry := s2.NewRecord(cm("ns", "b", "1"), "ns/b", 0)
	assert.Equal(t, uint64(0), dry.RV)
	assert.Equal(t, "ns", dry.Namespace())
	b, err := dry.Encoded(3)
	require.NoError(t, err)
	assert.Equal(t, "3:b@", string(b))
	assert.Equal(t, 1, codec.count(3))
}

// TestCh01_Storage_RecordDecodedOnce checks that Decoded computes its value on first use
// and hands the same value to every later caller.
func TestCh01_Storage_RecordDecodedOnce(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	rec := mustCreate(t, s, c, "ns", "a", "1")
	calls := 0
	type typed struct{ Name, Value string }
	mk := func(r *Record) any {
		calls++
		return &typed{r.Obj.GetName(), valueOf(r)}
	}
	first := rec.Decoded(mk)
	for range 3 {
		assert.Same(t, first, rec.Decoded(mk))
	}
	assert.Equal(t, 1, calls)
	assert.Equal(t, &typed{"a", "1"}, first)

	// Once decoded, concurrent readers share the value without calling make.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			assert.Same(t, first, rec.Decoded(func(*Record) any { panic("decoded twice") }))
		})
	}
	wg.Wait()
}

// TestCh01_Storage_RecordViews checks View: each form of a record is made once and shared,
// two forms are cached side by side, concurrent first readers end up sharing one, and a
// form beyond the cache's room is made each time.
func TestCh01_Storage_RecordViews(t *testing.T) {
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	rec := mustCreate(t, s, c, "ns", "a", "1")
	made := map[string]int{}
	var mu sync.Mutex
	view := func(key string) func(*Record) *Record {
		return func(r *Record) *Record {
			mu.Lock()
			made[key]++
			mu.Unlock()
			return s.NewRecord(r.Obj.DeepCopy(), r.Key, r.RV)
		}
	}
	var wg sync.WaitGroup
	got := make([]*Record, 8)
	for i := range got {
		wg.Go(func() { got[i] = rec.View("one", view("one")) })
	}
	wg.Wait()
	for _, g := range got {
		assert.Same(t, rec.View("one", view("one")), g, "every reader shares the cached form")
	}
	two := rec.View("two", view("two"))
	assert.Same(t, two, rec.View("two", view("two")))
	assert.NotSame(t, two, rec.View("one", view("one")))
	assert.Equal(t, 1, made["two"])
	rec.View("three", view("three"))
	rec.View("three", view("three"))
	assert.LessOrEqual(t, made["one"], 8)
	assert.Equal(t, 2, made["three"], "no room left: made each time")
}

// TestCh01_Storage_ObjectKey checks the key of namespaced and cluster-scoped objects.
func TestCh01_Storage_ObjectKey(t *testing.T) {
	for _, tt := range []struct{ ns, name, want string }{
		{"ns", "a", "ns/a"},
		{"", "a", "a"},
		{"kube-system", "coredns-1", "kube-system/coredns-1"},
	} {
		assert.Equal(t, tt.want, ObjectKey(tt.ns, tt.name))
	}
}

// TestCh01_Storage_RecordEncodedOnceUnderConcurrentFirstReaders checks that a record's
// encoding is made exactly once even when many readers ask for it first at the same moment
// (a burst fanned out to many watchers).
func TestCh01_Storage_RecordEncodedOnceUnderConcurrentFirstReaders(t *testing.T) {
	codec := &countingCodec{}
	s := newTestStore(Config{Codec: codec})
	c := s.NewCollection("configmaps", "cm")
	rec := mustCreate(t, s, c, "ns", "a", "1")
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			<-start
			b, err := rec.Encoded(2)
			assert.NoError(t, err)
			assert.Equal(t, "2:a@1", string(b))
		})
	}
	close(start)
	wg.Wait()
	assert.Equal(t, 1, codec.count(2))
}

// TestCh01_Storage_SupersededEncodingsReleased checks point 7's bound: the encodings of a
// version that is no longer current are released once no retained event holds it (the
// event that replaced or deleted it left the history), and not before; the current version
// keeps its encodings whatever the history does. A released record still encodes, uncached.
func TestCh01_Storage_SupersededEncodingsReleased(t *testing.T) {
	tests := []struct {
		name string
		// writes after the first version is created and encoded; history holds 2 events.
		writes     func(t *testing.T, s *Store, c *Collection) (last *Record)
		wantFirst  bool // the first version's encoding is still cached
		wantLast   bool // the record the writes returned still has its encoding
		encodeLast bool // encode the record the writes returned before checking
	}{
		{
			name:      "no write: the current version stays cached",
			writes:    func(t *testing.T, s *Store, c *Collection) *Record { return nil },
			wantFirst: true,
		},
		{
			name: "superseded, its replacing event retained",
			writes: func(t *testing.T, s *Store, c *Collection) *Record {
				return mustUpdate(t, s, c, "ns/a", "2")
			},
			wantFirst: true, encodeLast: true, wantLast: true,
		},
		{
			name: "superseded, its replacing event left the history",
			writes: func(t *testing.T, s *Store, c *Collection) *Record {
				last := mustUpdate(t, s, c, "ns/a", "2")
				mustCreate(t, s, c, "ns", "b", "1")
				mustCreate(t, s, c, "ns", "c", "1")
				return last
			},
			encodeLast: true, wantLast: true,
		},
		{
			name: "deleted, the delete left the history",
			writes: func(t *testing.T, s *Store, c *Collection) *Record {
				last := mustDelete(t, s, c, "ns/a")
				if _, err := last.Encoded(0); err != nil {
					t.Fatal(err)
				}
				mustCreate(t, s, c, "ns", "b", "1")
				mustCreate(t, s, c, "ns", "c", "1")
				return last
			},
		},
		{
			name: "compacted away",
			writes: func(t *testing.T, s *Store, c *Collection) *Record {
				last := mustUpdate(t, s, c, "ns/a", "2")
				s.Compact(s.ResourceVersion())
				return last
			},
			encodeLast: true, wantLast: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			codec := &countingCodec{}
			s := newTestStore(Config{Codec: codec, HistorySize: 2})
			c := s.NewCollection("configmaps", "cm")
			first := mustCreate(t, s, c, "ns", "a", "1")
			_, err := first.Encoded(0)
			require.NoError(t, err)
			last := tt.writes(t, s, c)
			if tt.encodeLast {
				_, err := last.Encoded(0)
				require.NoError(t, err)
			}
			assert.Equal(t, tt.wantFirst, first.cached(0), "first version cached")
			if last != nil {
				assert.Equal(t, tt.wantLast, last.cached(0), "last record cached")
			}
			calls := codec.count(0)
			for range 2 {
				b, err := first.Encoded(0)
				require.NoError(t, err)
				assert.Equal(t, "0:a@1", string(b))
			}
			want := calls
			if !tt.wantFirst {
				want += 2 // released: encoded afresh on every read, never cached again
			}
			assert.Equal(t, want, codec.count(0))
			assert.Equal(t, tt.wantFirst, first.cached(0))
		})
	}
}

// TestCh01_Storage_KeyIndexFollowsWrites checks the lazily kept key index: after any mix of
// creates, deletes and re-creates, read at any point, Keys and KeysIn are the stored keys in
// byte order, each once.
func TestCh01_Storage_KeyIndexFollowsWrites(t *testing.T) {
	tests := []struct {
		name  string
		steps string // c<key>: create, d<key>: delete, r: read the index; keys are one letter
	}{
		{"creates only", "cbcacer"},
		{"read between creates", "cbrcarcdr"},
		{"delete then read", "cacbcrdbr"},
		{"delete and re-create before a read", "cacbrdacar"},
		{"re-create twice before a read", "cardacadacar"},
		{"delete everything", "cacbcrdadbr"},
		{"create, delete, unread", "cadacbr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(Config{})
			c := s.NewCollection("configmaps", "cm")
			want := map[string]bool{}
			check := func() {
				t.Helper()
				var keys, inNS []string
				require.NoError(t, s.View(func(tx *Tx) error {
					keys = slices.Clone(tx.Keys(c))
					inNS = tx.KeysIn(c, "ns")
					return nil
				}))
				exp := slices.Sorted(maps.Keys(want))
				if len(exp) == 0 {
					exp = nil
				}
				assert.Equal(t, exp, slices.Clip(keys), "Keys")
				assert.Equal(t, exp, inNS, "KeysIn")
			}
			for i := 0; i < len(tt.steps); i++ {
				switch tt.steps[i] {
				case 'c':
					i++
					mustCreate(t, s, c, "ns", tt.steps[i:i+1], "v")
					want["ns/"+tt.steps[i:i+1]] = true
				case 'd':
					i++
					mustDelete(t, s, c, "ns/"+tt.steps[i:i+1])
					delete(want, "ns/"+tt.steps[i:i+1])
				case 'r':
					check()
				}
			}
			check()
		})
	}
}
