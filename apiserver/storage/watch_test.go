package storage

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// TestCh01_Storage_WatchReplay checks point 5: a watch from a retained revision replays
// exactly the events after it of its collection and namespace, then receives live ones; a
// watch from 0 starts at the current revision with nothing replayed.
func TestCh01_Storage_WatchReplay(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	mustCreate(t, s, c, "a", "x", "1")     // 1
	mustCreate(t, s, c, "b", "y", "1")     // 2
	mustCreate(t, s, other, "a", "s", "1") // 3
	mustUpdate(t, s, c, "a/x", "2")        // 4
	mustDelete(t, s, c, "b/y")             // 5
	mustCreate(t, s, c, "", "cluster", "") // 6 (cluster-scoped key in the same collection)
	mustUpdate(t, s, other, "a/s", "2")    // 7
	all := []evLine{
		{watch.Added, "a/x", 1, "1"}, {watch.Added, "b/y", 2, "1"}, {watch.Modified, "a/x", 4, "2"},
		{watch.Deleted, "b/y", 5, "1"}, {watch.Added, "cluster", 6, ""},
	}
	tests := []struct {
		ns   string
		rv   uint64
		want []evLine
	}{
		{ns: "", rv: 0, want: nil},
		{ns: "", rv: 7, want: nil},
		{ns: "", rv: 6, want: nil},
		{ns: "", rv: 5, want: all[4:]},
		{ns: "", rv: 1, want: all[1:]},
		{ns: "a", rv: 1, want: []evLine{all[2]}},
		{ns: "b", rv: 1, want: []evLine{all[1], all[3]}},
		{ns: "b", rv: 2, want: []evLine{all[3]}},
		{ns: "zzz", rv: 1, want: nil},
	}
	for _, tt := range tests {
		w, err := s.Watch(ctx, c, WatchOptions{Namespace: tt.ns, ResourceVersion: tt.rv})
		require.NoError(t, err)
		require.Nil(t, w.InitErr)
		want := tt.rv
		if want == 0 {
			want = 7
		}
		assert.Equal(t, want, w.StartRV, "ns %q rv %d", tt.ns, tt.rv)
		assert.Empty(t, cmp.Diff(tt.want, linesOf(w.Replay)), "ns %q rv %d", tt.ns, tt.rv)
		assert.Empty(t, w.Initial)
		assert.Same(t, c, w.Collection())
		s.Unregister(w)
	}
	// Live events follow the replay with no gap.
	w, err := s.Watch(ctx, c, WatchOptions{Namespace: "a", ResourceVersion: 3})
	require.NoError(t, err)
	defer s.Unregister(w)
	mustUpdate(t, s, other, "a/s", "3") // 8: another collection
	mustCreate(t, s, c, "b", "z", "1")  // 9: another namespace
	mustUpdate(t, s, c, "a/x", "3")     // 10
	mustCreate(t, s, c, "a", "w", "1")  // 11
	assert.Empty(t, cmp.Diff([]evLine{{watch.Modified, "a/x", 4, "2"}}, linesOf(w.Replay)))
	assert.Equal(t, 2, w.Queued())
	assert.Empty(t, cmp.Diff([]evLine{{watch.Modified, "a/x", 10, "3"}, {watch.Added, "a/w", 11, "1"}}, linesOf(drain(w))))
}

// TestCh01_Storage_WatchInitialEvents checks a watch with initial events: the current
// objects (selected by the predicate) in key order, StartRV the current revision, the
// end-bookmark flag passed through, and nothing replayed.
func TestCh01_Storage_WatchInitialEvents(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	for _, k := range [][2]string{{"b", "2"}, {"a", "2"}, {"a", "1"}, {"c", "1"}} {
		mustCreate(t, s, c, k[0], k[1], k[0]+k[1])
	}
	mustDelete(t, s, c, "c/1")
	tests := []struct {
		name string
		opts WatchOptions
		want []string
	}{
		{"all", WatchOptions{SendInitialEvents: true}, []string{"a/1", "a/2", "b/2"}},
		{"namespace", WatchOptions{SendInitialEvents: true, Namespace: "a", EndBookmark: true}, []string{"a/1", "a/2"}},
		{"predicate", WatchOptions{SendInitialEvents: true, Predicate: func(r *Record) bool { return r.Obj.GetName() == "2" }}, []string{"a/2", "b/2"}},
		{"from a reached revision", WatchOptions{SendInitialEvents: true, ResourceVersion: 2}, []string{"a/1", "a/2", "b/2"}},
		{"empty namespace", WatchOptions{SendInitialEvents: true, Namespace: "c"}, []string{}},
	}
	for _, tt := range tests {
		w, err := s.Watch(ctx, c, tt.opts)
		require.NoError(t, err, tt.name)
		assert.Equal(t, uint64(5), w.StartRV, tt.name)
		assert.Equal(t, tt.want, keysOf(w.Initial), tt.name)
		assert.Empty(t, w.Replay, tt.name)
		assert.Equal(t, tt.opts.EndBookmark, w.EndBookmark, tt.name)
		for _, r := range w.Initial {
			assert.Same(t, c.objects[r.Key], r, "initial events share the stored records")
		}
		s.Unregister(w)
	}
}

// TestCh01_Storage_WatchTooOld checks point 3 for watches: a start revision below the
// oldest retained one is one 410 event, "too old resource version: N (M)" with M the
// oldest revision a watch may start from, and the watcher is not registered.
func TestCh01_Storage_WatchTooOld(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{HistorySize: 3})
	c := s.NewCollection("configmaps", "cm")
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		mustCreate(t, s, c, "ns", n, "1")
	}
	require.Equal(t, uint64(2), s.OldestResourceVersion(), "a ring of 3 keeps 3, 4 and 5")
	s.Compact(3)
	tests := []struct {
		rv      uint64
		wantErr string
		replay  []string
	}{
		{rv: 1, wantErr: "too old resource version: 1 (3)"},
		{rv: 2, wantErr: "too old resource version: 2 (3)"},
		{rv: 3, replay: []string{"ns/d", "ns/e"}},
		{rv: 4, replay: []string{"ns/e"}},
		{rv: 5},
	}
	for _, tt := range tests {
		w, err := s.Watch(ctx, c, WatchOptions{ResourceVersion: tt.rv})
		require.NoError(t, err)
		assert.Equal(t, tt.rv, w.StartRV)
		if tt.wantErr == "" {
			assert.Nil(t, w.InitErr, tt.rv)
			assert.Equal(t, tt.replay, keysOf2(w.Replay), tt.rv)
			assert.Equal(t, 1, s.OpenWatches())
			s.Unregister(w)
			continue
		}
		require.NotNil(t, w.InitErr, tt.rv)
		assert.Equal(t, int32(410), w.InitErr.Code)
		assert.Equal(t, api.StatusReasonExpired, w.InitErr.Reason)
		assert.Equal(t, tt.wantErr, w.InitErr.Message)
		assert.Empty(t, s.Watchers(), "not registered")
		assert.Equal(t, 0, s.OpenWatches(), "holds no place")
		s.Unregister(w) // harmless for a watcher that never held a place
		assert.Equal(t, 0, s.OpenWatches())
	}
}

func keysOf2(evs []*Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Obj.Key)
	}
	return out
}

// TestCh01_Storage_MaxOpenWatches checks point 6's bound: a watch beyond MaxOpenWatches is
// 429 and sees nothing; a stopped watch keeps its place until its consumer unregisters it.
func TestCh01_Storage_MaxOpenWatches(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{MaxOpenWatches: 2, WatchBufferSize: 1})
	c := s.NewCollection("configmaps", "cm")
	w1, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	w2, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, s.OpenWatches())

	refused := func() {
		t.Helper()
		w, err := s.Watch(ctx, c, WatchOptions{SendInitialEvents: true})
		assert.Nil(t, w)
		st := statusOf(t, err)
		assert.Equal(t, int32(429), st.Code)
		assert.Equal(t, api.StatusReasonTooManyRequests, st.Reason)
		assert.Equal(t, "too many open watches (the limit is 2), please try again later", st.Message)
		require.NotNil(t, st.Details)
		assert.Equal(t, int32(1), st.Details.RetryAfterSeconds)
	}
	refused()

	// Two writes overflow both watchers (buffer 1): they stop, but keep their places.
	mustCreate(t, s, c, "ns", "a", "1")
	mustCreate(t, s, c, "ns", "b", "1")
	assert.Equal(t, StopOverflow, w1.Why())
	assert.Empty(t, s.Watchers())
	assert.Equal(t, 2, s.OpenWatches())
	refused()

	s.Unregister(w1)
	assert.Equal(t, 1, s.OpenWatches())
	w3, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err, "the freed place is taken")
	refused()
	s.Unregister(w1) // twice: frees nothing more
	assert.Equal(t, 2, s.OpenWatches())
	s.Unregister(w2)
	s.Unregister(w3)
	assert.Equal(t, 0, s.OpenWatches())
}

// TestCh01_Storage_WatchOverflow checks point 6: writers never wait; a watcher whose
// buffer is full is stopped with StopOverflow, leaves Watchers, and keeps what it had queued
// for its consumer to drain.
func TestCh01_Storage_WatchOverflow(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{WatchBufferSize: 2})
	c := s.NewCollection("configmaps", "cm")
	slow, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(slow)
	fast, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(fast)

	var fastGot []evLine
	for i, n := range []string{"a", "b", "c", "d"} {
		mustCreate(t, s, c, "ns", n, "1")
		fastGot = append(fastGot, linesOf(drain(fast))...)
		if i < 2 {
			assert.Equal(t, StopNone, slow.Why())
			select {
			case <-slow.Done():
				t.Fatal("stopped too early")
			default:
			}
		}
	}
	<-slow.Done()
	assert.Equal(t, StopOverflow, slow.Why())
	assert.Equal(t, StopNone, fast.Why())
	assert.Equal(t, []uint64{fast.ID}, watcherIDs(s), "the overflowed watcher left Watchers")
	assert.Equal(t, 2, s.OpenWatches(), "but keeps its place until unregistered")
	assert.Equal(t, []string{"ns/a", "ns/b"}, keysOf2(drain(slow)), "what was queued stays for the consumer")
	assert.Len(t, fastGot, 4)
}

func watcherIDs(s *Store) []uint64 {
	var out []uint64
	for _, w := range s.Watchers() {
		out = append(out, w.ID)
	}
	return out
}

// TestCh01_Storage_HooksDropEvent checks point 9: the hook is asked once per event with id 0
// (a true drops the event for every watcher), then once per matching watcher with its id.
func TestCh01_Storage_HooksDropEvent(t *testing.T) {
	type ask struct {
		Key string
		ID  uint64
	}
	var mu sync.Mutex
	var asked []ask
	dropAll := map[string]bool{"ns/all": true}
	dropFor := map[string]uint64{}
	hooks := hookFunc(func(ev *Event, id uint64) bool {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, ask{ev.Obj.Key, id})
		if id == 0 {
			return dropAll[ev.Obj.Key]
		}
		return dropFor[ev.Obj.Key] == id
	})
	ctx := context.Background()
	s := newTestStore(Config{Hooks: hooks})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	mustCreate(t, s, other, "ns", "pre", "1") // rev 1, asked with id 0 though nobody watches
	w1, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(w1)
	w2, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(w2)
	wOther, err := s.Watch(ctx, other, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(wOther)
	dropFor["ns/one"] = w2.ID

	mustCreate(t, s, c, "ns", "all", "1")
	mustCreate(t, s, c, "ns", "one", "1")
	mustCreate(t, s, c, "ns", "none", "1")

	assert.Equal(t, []string{"ns/one", "ns/none"}, keysOf2(drain(w1)))
	assert.Equal(t, []string{"ns/none"}, keysOf2(drain(w2)))
	assert.Empty(t, drain(wOther))

	mu.Lock()
	defer mu.Unlock()
	sortAsks := func(a []ask) {
		slices.SortFunc(a, func(x, y ask) int {
			if x.Key != y.Key {
				return cmpString(x.Key, y.Key)
			}
			return int(x.ID) - int(y.ID)
		})
	}
	want := []ask{
		{"ns/pre", 0},
		{"ns/all", 0},
		{"ns/one", 0}, {"ns/one", w1.ID}, {"ns/one", w2.ID},
		{"ns/none", 0}, {"ns/none", w1.ID}, {"ns/none", w2.ID},
	}
	sortAsks(want)
	sortAsks(asked)
	assert.Empty(t, cmp.Diff(want, asked), "asked with 0 for each event, then per watcher of the collection")

	// The history keeps the dropped event: a new watch from before it replays it.
	w3, err := s.Watch(ctx, c, WatchOptions{ResourceVersion: 1})
	require.NoError(t, err)
	s.Unregister(w3)
	assert.Equal(t, []string{"ns/all", "ns/one", "ns/none"}, keysOf2(w3.Replay))
	res, err := s.GetList(ctx, c, ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"ns/all", "ns/none", "ns/one"}, keysOf(res.Items), "a dropped event is still written")
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestCh01_Storage_StopReasons checks how watchers end: StopWatches ends those of one
// collection (StopGone), CloseAllWatches every one (StopServer) while new watches may still
// open, Close every one and refuses new ones (503), Unregister is StopClient.
func TestCh01_Storage_StopReasons(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	open := func(coll *Collection) *Watcher {
		t.Helper()
		w, err := s.Watch(ctx, coll, WatchOptions{})
		require.NoError(t, err)
		return w
	}
	wc, wo := open(c), open(other)
	mustCreate(t, s, c, "ns", "a", "1")
	require.NoError(t, s.Update(func(tx *Tx) error {
		tx.StopWatches(c)
		return nil
	}))
	<-wc.Done()
	assert.Equal(t, StopGone, wc.Why())
	assert.Equal(t, []string{"ns/a"}, keysOf2(drain(wc)), "its queue is still delivered")
	assert.Equal(t, StopNone, wo.Why())
	assert.Equal(t, []uint64{wo.ID}, watcherIDs(s))
	s.Unregister(wc)
	assert.Equal(t, StopGone, wc.Why(), "Unregister does not change why it stopped")

	wc2 := open(c)
	s.CloseAllWatches()
	for _, w := range []*Watcher{wo, wc2} {
		<-w.Done()
		assert.Equal(t, StopServer, w.Why())
		s.Unregister(w)
	}
	assert.Empty(t, s.Watchers())
	assert.Equal(t, 0, s.OpenWatches())

	wc3 := open(c)
	assert.Equal(t, StopNone, wc3.Why(), "CloseAllWatches does not refuse new watches")
	s.Unregister(wc3)
	assert.Equal(t, StopClient, wc3.Why())

	wc4 := open(c)
	s.Close()
	<-wc4.Done()
	assert.Equal(t, StopServer, wc4.Why())
	s.Unregister(wc4)
	_, err := s.Watch(ctx, c, WatchOptions{})
	st := statusOf(t, err)
	assert.Equal(t, int32(503), st.Code)
	assert.Equal(t, api.StatusReasonServiceUnavailable, st.Reason)
}

// TestCh01_Storage_WatchersAndBookmarks checks Watchers (registered watchers, oldest first,
// with their selectors' text) and BookmarkRV (the current revision, only with nothing
// queued).
func TestCh01_Storage_WatchersAndBookmarks(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{})
	c := s.NewCollection("configmaps", "cm")
	other := s.NewCollection("secrets", "secret")
	mustCreate(t, s, c, "ns", "a", "1")
	w1, err := s.Watch(ctx, c, WatchOptions{Namespace: "ns", Label: "app=x", Field: "metadata.name=a"})
	require.NoError(t, err)
	w2, err := s.Watch(ctx, other, WatchOptions{ResourceVersion: 1})
	require.NoError(t, err)
	want := []WatcherInfo{
		{ID: w1.ID, Collection: c, Namespace: "ns", LabelText: "app=x", FieldText: "metadata.name=a", StartRV: 1},
		{ID: w2.ID, Collection: other, StartRV: 1},
	}
	assert.Empty(t, cmp.Diff(want, s.Watchers(), cmp.Comparer(func(a, b *Collection) bool { return a == b })))
	assert.Less(t, w1.ID, w2.ID)
	assert.Equal(t, "configmaps", s.Watchers()[0].Collection.Name())

	rv, ok := s.BookmarkRV(w1)
	assert.True(t, ok)
	assert.Equal(t, uint64(1), rv)
	mustUpdate(t, s, c, "ns/a", "2")
	mustCreate(t, s, other, "ns", "s", "1")
	_, ok = s.BookmarkRV(w1)
	assert.False(t, ok, "an event is still queued")
	rv, ok = s.BookmarkRV(w2)
	assert.False(t, ok)
	assert.Zero(t, rv)
	drain(w1)
	rv, ok = s.BookmarkRV(w1)
	assert.True(t, ok)
	assert.Equal(t, uint64(3), rv, "the current revision, even from another collection's write")
	s.Unregister(w1)
	s.Unregister(w2)
	assert.Empty(t, s.Watchers())
}

// ready reports whether w has a wake-up token waiting, taking it.
func ready(w *Watcher) bool {
	select {
	case <-w.Ready():
		return true
	default:
		return false
	}
}

// TestCh01_Storage_WatchQueueBatches checks how a consumer takes live events (point 6): a
// burst written while the consumer is busy is one wake-up and one Take of every event, in
// order; the queue reuses the slice the consumer hands back; and the buffer bound counts
// what is queued, not the batch the consumer is still sending.
func TestCh01_Storage_WatchQueueBatches(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(Config{WatchBufferSize: 3})
	c := s.NewCollection("configmaps", "cm")
	w, err := s.Watch(ctx, c, WatchOptions{})
	require.NoError(t, err)
	defer s.Unregister(w)

	assert.False(t, ready(w), "nothing queued, nothing to wake for")
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, c, "ns", n, "1")
	}
	assert.True(t, ready(w), "the first event into an empty queue wakes the consumer")
	assert.False(t, ready(w), "the next ones, queued behind it, do not")
	assert.Equal(t, 3, w.Queued())
	first := w.Take(nil)
	assert.Equal(t, []string{"ns/a", "ns/b", "ns/c"}, keysOf2(first), "one Take, every event, in order")
	assert.Zero(t, w.Queued())
	assert.Empty(t, w.Take(nil), "taken once")

	// While the consumer sends its batch of 3, 3 more fit in the queue; a fourth overflows.
	for _, n := range []string{"d", "e", "f"} {
		mustCreate(t, s, c, "ns", n, "1")
	}
	assert.True(t, ready(w), "the queue was empty again: a new wake-up")
	assert.Equal(t, StopNone, w.Why(), "the batch in the consumer's hands does not count")
	clear(first)
	second := w.Take(first)
	assert.Equal(t, []string{"ns/d", "ns/e", "ns/f"}, keysOf2(second))

	// The queue now fills the array handed back: the steady state allocates nothing.
	mustCreate(t, s, c, "ns", "g", "1")
	third := w.Take(second)
	require.Len(t, third, 1)
	assert.Same(t, &first[:1][0], &third[0], "the queue reuses the slice the consumer handed back")

	for _, n := range []string{"h", "i", "j", "k"} {
		mustCreate(t, s, c, "ns", n, "1")
	}
	assert.Equal(t, StopOverflow, w.Why(), "a fourth queued event is one too many")
	assert.Equal(t, []string{"ns/h", "ns/i", "ns/j"}, keysOf2(w.Take(nil)), "what was queued stays for the consumer")
}
