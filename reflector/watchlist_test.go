package reflector

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// scriptedLW serves its scripted watches first, then hands over to the source.
type scriptedLW struct {
	*fakesource.Source
	mu      sync.Mutex
	scripts []func(opts api.ListOptions) (watch.Interface, error)
	opts    []api.ListOptions
}

func (s *scriptedLW) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	s.opts = append(s.opts, opts)
	if len(s.scripts) > 0 {
		next := s.scripts[0]
		s.scripts = s.scripts[1:]
		s.mu.Unlock()
		return next(opts)
	}
	s.mu.Unlock()
	return s.Source.WatchWithContext(ctx, opts)
}

func (s *scriptedLW) Watch(opts api.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// stream returns a script: a watch that delivers events and then, if closed, ends.
func stream(closed bool, events ...watch.Event) func(api.ListOptions) (watch.Interface, error) {
	return func(api.ListOptions) (watch.Interface, error) {
		w := watch.NewFakeWithChanSize(len(events), false)
		for _, ev := range events {
			w.Action(ev.Type, ev.Object)
		}
		if closed {
			w.Stop()
		}
		return w, nil
	}
}

func bookmark(rv, endAnnotation string) watch.Event {
	p := pod("", rv)
	if endAnnotation != "" {
		p.Annotations = map[string]string{api.InitialEventsAnnotationKey: endAnnotation}
	}
	return watch.Event{Type: watch.Bookmark, Object: p}
}

// TestCh05_WatchList_T24_R36_R40 is teaching point T24: against a server that supports
// watch-list, the reflector syncs with one WATCH and no LIST. The initial state goes to the
// store in one Replace at the end bookmark's RV, and the same stream carries on.
func TestCh05_WatchList_T24_R36_R40(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		mustAdd(t, src, "b")
		src.AdvanceResourceVersion(3) // the snapshot is at RV 5, newer than any object
		st := newRecStore()
		h := start(t, src, nil, st, ReflectorOptions{}).run() // watch-list is the default
		mustAdd(t, src, "c")
		synctest.Wait()

		assert.Equal(t, 0, src.Count("LIST"))
		assert.Equal(t, 1, src.Count("WATCH"))
		assert.Equal(t, []string{"Replace [a@1 b@2] rv=5", "Add c@6"}, st.Ops())
		assert.Equal(t, "6", h.r.LastSyncResourceVersion())

		c := src.Calls()[0]
		assert.True(t, c.IsWatchList())
		assert.Equal(t, "", c.Options.ResourceVersion, "first attempt: the latest consistent snapshot")
		assert.Equal(t, api.ResourceVersionMatchNotOlderThan, c.Options.ResourceVersionMatch)
		assert.True(t, c.Options.AllowWatchBookmarks)
		require.NotNil(t, c.Options.TimeoutSeconds)
		assert.GreaterOrEqual(t, *c.Options.TimeoutSeconds, int64(300))
		assert.Less(t, *c.Options.TimeoutSeconds, int64(600))

		// A normal close resumes with a plain watch, not a second watch-list.
		advance(2 * time.Second)
		src.ResetWatches()
		synctest.Wait()
		c = src.Calls()[1]
		assert.False(t, c.IsWatchList())
		assert.Equal(t, "6", c.Options.ResourceVersion)

		// A relist cycle repeats the watch-list, from the last RV.
		advance(2 * time.Second)
		src.SendError(fakesource.NewExpired("too old"))
		advance(time.Minute)
		c = src.Calls()[2]
		assert.True(t, c.IsWatchList())
		assert.Equal(t, "6", c.Options.ResourceVersion)
		assert.Equal(t, 0, src.Count("LIST"))
		h.stop()
	})
}

// TestCh05_WatchListSwitch_R35: watch-list is used iff the switch is on (default) and the
// ListerWatcher does not opt out.
func TestCh05_WatchListSwitch_R35(t *testing.T) {
	tests := []struct {
		name string
		lw   func(*fakesource.Source) listwatch.ListerWatcher
		use  *bool
		want bool
	}{
		{"default", func(s *fakesource.Source) listwatch.ListerWatcher { return s }, nil, true},
		{"switched on", func(s *fakesource.Source) listwatch.ListerWatcher { return s }, ptrTo(true), true},
		{"switched off", func(s *fakesource.Source) listwatch.ListerWatcher { return s }, ptrTo(false), false},
		{"LW opts out", func(s *fakesource.Source) listwatch.ListerWatcher { return fakesource.NoWatchList{Source: s} }, nil, false},
		{"LW opts out, switch on", func(s *fakesource.Source) listwatch.ListerWatcher { return fakesource.NoWatchList{Source: s} }, ptrTo(true), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				mustAdd(t, src, "a")
				h := start(t, src, tt.lw(src), newRecStore(), ReflectorOptions{UseWatchList: tt.use}).run()
				h.stop()
				assert.Equal(t, tt.want, src.Calls()[0].IsWatchList())
				assert.Equal(t, !tt.want, src.Count("LIST") == 1)
			})
		})
	}
}

// TestCh05_WatchListOpenFailures_R37: 429 or a refused connection waits a backoff and tries
// again; 410 or too-large flags the RV unusable and retries at once from ""; any other error
// falls back to LIST.
func TestCh05_WatchListOpenFailures_R37(t *testing.T) {
	t.Run("429 and refused: backoff, retry", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			src.FailNextWatches(fakesource.NewTooManyRequests(), fakesource.ErrConnectionRefused)
			h := start(t, src, nil, newRecStore(), ReflectorOptions{Backoff: zeroJitter()}).run()
			advance(5 * time.Second)
			h.stop()
			assert.Equal(t, []time.Duration{0, 800 * time.Millisecond, 2400 * time.Millisecond}, h.callTimes("WATCH"))
			assert.Equal(t, 0, src.Count("LIST"))
			assert.Equal(t, "1", h.r.LastSyncResourceVersion())
		})
	})
	for _, gone := range []error{fakesource.NewExpired("too old"), fakesource.NewTooLargeResourceVersion(9, 2)} {
		t.Run(string(api.ReasonForError(gone))+": retry at once from \"\"", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				mustAdd(t, src, "a")
				h := start(t, src, nil, newRecStore(), ReflectorOptions{Backoff: zeroJitter()}).run()
				advance(2 * time.Second)
				mustAdd(t, src, "b")
				src.FailNextWatches(gone)
				src.SendError(fakesource.NewExpired("too old")) // end the watch: relist cycle
				advance(time.Second)
				h.stop()
				assert.Equal(t, []string{"", "2", ""}, src.WatchRVs())
				w := h.callTimes("WATCH")
				assert.Equal(t, w[1], w[2], "no backoff before the retry")
				assert.Equal(t, 0, src.Count("LIST"))
				assert.False(t, h.r.isLastSyncResourceVersionUnavailable, "cleared by the successful watch-list (R-40)")
			})
		})
	}
	t.Run("rejected: fall back to LIST for this cycle only (R-6)", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			src.SetWatchListUnsupported(true)
			h := start(t, src, nil, newRecStore(), ReflectorOptions{Backoff: zeroJitter()}).run()
			advance(2 * time.Second)
			src.SendError(fakesource.NewExpired("too old"))
			advance(time.Second)
			h.stop()
			var got []string
			for _, c := range src.Calls() {
				kind := c.Verb
				if c.IsWatchList() {
					kind = "WATCHLIST"
				}
				got = append(got, kind+" rv="+c.Options.ResourceVersion)
			}
			// As CG5: the rejected watch-list is followed by LIST rv=0 (paged) and a watch.
			assert.Equal(t, []string{
				"WATCHLIST rv=", "LIST rv=0", "WATCH rv=1",
				"WATCHLIST rv=1", "LIST rv=1", "WATCH rv=1",
			}, got)
			assert.Empty(t, h.errs(), "a fallback is not an error")
		})
	})
}

// TestCh05_WatchListStreamErrors_R37_R39: errors on the stream follow the same rules as open
// errors: a too-large ERROR event retries at once from "", a very short empty stream falls
// back to LIST.
func TestCh05_WatchListStreamErrors_R37_R39(t *testing.T) {
	t.Run("too-large ERROR event", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			lw := &scriptedLW{Source: src}
			lw.scripts = append(lw.scripts, stream(true, watch.Event{Type: watch.Error, Object: fakesource.NewTooLargeResourceVersion(9, 1)}))
			st := newRecStore()
			h := start(t, src, lw, st, ReflectorOptions{}).run()
			h.stop()
			assert.Len(t, lw.opts, 2)
			assert.Equal(t, []string{"Replace [a@1] rv=1"}, st.Ops())
			assert.Equal(t, 0, src.Count("LIST"))
		})
	})
	t.Run("very short empty stream", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			src.CloseNextWatches(1)
			h := start(t, src, nil, newRecStore(), ReflectorOptions{}).run()
			h.stop()
			assert.Equal(t, []string{"0"}, src.ListRVs(), "fell back to LIST")
		})
	})
}

// TestCh05_WatchListTemporaryStore_R38: until the end bookmark, events go to a temporary
// store (with the queue's transformer), never to the real one; the RV comes only from a
// non-ADDED event.
func TestCh05_WatchListTemporaryStore_R38(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{Source: fakesource.New()}
		w := watch.NewFake()
		lw.scripts = append(lw.scripts, func(api.ListOptions) (watch.Interface, error) { return w, nil })
		st := &transformingStore{recStore: newRecStore()}
		r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { r.RunWithContext(ctx); close(done) }()

		w.Add(pod("x", "7"))
		w.Add(pod("y", "3"))
		w.Add(pod("z", "5"))
		synctest.Wait()
		assert.Empty(t, st.Ops(), "the real store is untouched while streaming")
		assert.Empty(t, r.LastSyncResourceVersion())
		w.Modify(pod("y", "8"))
		w.Delete(pod("z", "9"))
		w.Action(bookmark("10", "true").Type, bookmark("10", "true").Object)
		w.Add(pod("after", "11"))
		synctest.Wait()
		cancel()
		<-done

		assert.Equal(t, []string{"Replace [x@7 y@8] rv=10", "Add after@11"}, st.Ops())
		for _, obj := range st.replaced {
			assert.Equal(t, "yes", obj.(*api.Pod).Labels["transformed"], "temporary store used the transformer")
		}
	})
}

// transformingStore is a recStore with a transformer (TransformingStore).
type transformingStore struct {
	*recStore
	replaced []any
}

func (s *transformingStore) Transformer() store.TransformFunc {
	return func(obj any) (any, error) {
		p := obj.(*api.Pod).DeepCopy()
		p.Labels = map[string]string{"transformed": "yes"}
		return p, nil
	}
}

func (s *transformingStore) Replace(list []any, rv string) error {
	s.replaced = list
	return s.recStore.Replace(list, rv)
}

// TestCh05_WatchListEndBookmark_R39: only the annotation value "true" ends the initial
// stream. A stream that closes without it starts over with a new, empty temporary store.
func TestCh05_WatchListEndBookmark_R39(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		lw := &scriptedLW{Source: src}
		lw.scripts = append(lw.scripts,
			stream(true,
				watch.Event{Type: watch.Added, Object: pod("ghost", "1")},
				bookmark("1", "false"), // not the end
				bookmark("1", ""),      // not the end either
			))
		st := newRecStore()
		h := start(t, src, lw, st, ReflectorOptions{}).run()
		h.stop()
		require.Len(t, lw.opts, 2)
		assert.Equal(t, []string{"Replace [a@1] rv=1"}, st.Ops(), "ghost from the first attempt is gone")
		assert.Equal(t, 0, src.Count("LIST"))
	})
}

// TestCh05_WatchListCancelled_R6: a context cancelled during the watch-list makes
// ListAndWatch return nil without a fallback LIST.
func TestCh05_WatchListCancelled_R6(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{Source: fakesource.New()}
		w := watch.NewFake()
		lw.scripts = append(lw.scripts, func(api.ListOptions) (watch.Interface, error) { return w, nil })
		st := newRecStore()
		r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		result := make(chan error, 1)
		go func() { result <- r.ListAndWatchWithContext(ctx) }()
		w.Add(pod("x", "1"))
		synctest.Wait()
		cancel()
		require.NoError(t, <-result)
		assert.Empty(t, st.Ops())
		assert.Equal(t, 0, lw.Count("LIST"))
		assert.True(t, w.IsStopped())
	})
}

// TestCh05_WatchListReplaceError_R40: a store that rejects the Replace makes the cycle fall
// back to LIST, whose Replace then reports the failure.
func TestCh05_WatchListReplaceError_R40(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		r := NewReflectorWithOptions(src, &api.Pod{}, failingReplace{newRecStore()}, ReflectorOptions{})
		err := r.ListAndWatchWithContext(context.Background())
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "unable to sync list result: "), err.Error())
		assert.Equal(t, 1, src.Count("LIST"))
		now, _ := src.OpenWatches()
		assert.Equal(t, 0, now, "the watch-list stream was stopped")
	})
}

type failingReplace struct{ *recStore }

func (failingReplace) Replace([]any, string) error { return errors.New("no") }
