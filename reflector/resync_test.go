package reflector

import (
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// resyncTimes wraps a recStore's Resync to record when it runs, relative to base.
type timedStore struct {
	*recStore
	base time.Time
	mu   sync.Mutex
	at   []time.Duration
}

func (s *timedStore) Resync() error {
	s.mu.Lock()
	s.at = append(s.at, time.Since(s.base))
	s.mu.Unlock()
	return s.recStore.Resync()
}

func (s *timedStore) times() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.at...)
}

// TestCh05_ResyncMakesNoCalls_T6_R22 is teaching point T6: resync replays the local cache, so
// three resync periods make three Resync calls and not a single request to the server.
func TestCh05_ResyncMakesNoCalls_T6_R22(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		st := &timedStore{recStore: newRecStore(), base: time.Now()}
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 30 * time.Second}).run()
		lists, watches := src.Count("LIST"), src.Count("WATCH")
		advance(95 * time.Second)
		h.stop()
		assert.Equal(t, []time.Duration{30 * time.Second, 60 * time.Second, 90 * time.Second}, st.times())
		assert.Equal(t, lists, src.Count("LIST"), "resync never lists")
		assert.Equal(t, watches, src.Count("WATCH"), "resync never watches")
	})
}

// TestCh05_ShouldResync_R22: ShouldResync is asked at every tick and the timer is re-armed
// either way, so a "no" skips one period and the next "yes" resyncs on the period grid.
func TestCh05_ShouldResync_R22(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		st := &timedStore{recStore: newRecStore(), base: time.Now()}
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 10 * time.Second})
		var asked []time.Duration
		h.r.ShouldResync = func() bool {
			asked = append(asked, time.Since(st.base))
			return len(asked)%2 == 0 // no, yes, no, yes
		}
		h.run()
		advance(45 * time.Second)
		h.stop()
		assert.Equal(t, []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second, 40 * time.Second}, asked)
		assert.Equal(t, []time.Duration{20 * time.Second, 40 * time.Second}, st.times())
	})
}

// TestCh05_ResyncError_R22: a Resync error ends the watch like any other error (relist after
// a backoff) and stops the helper; the next cycle starts a fresh one.
func TestCh05_ResyncError_R22(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		st := &timedStore{recStore: newRecStore(), base: time.Now()}
		st.resyncErr = errors.New("resync failed")
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 10 * time.Second, Backoff: zeroJitter()}).run()
		advance(25 * time.Second)
		h.stop()
		// Resync at 10 s fails → watch ends → backoff 0.8 s → relist at 10.8 s → resync at
		// 20.8 s fails → backoff 1.6 s → relist at 22.4 s.
		assert.Equal(t, []time.Duration{10 * time.Second, 20800 * time.Millisecond}, st.times())
		assert.Equal(t, []time.Duration{0, 10800 * time.Millisecond, 22400 * time.Millisecond}, h.callTimes("LIST"))
		assert.Empty(t, h.errs(), "a resync error ends an established watch: no handler call (R-17)")
	})
}

// TestCh05_ResyncOnlyWhileWatching_R21: period 0 never resyncs; while the LIST keeps failing
// there is no watch phase and so no resync; and every cycle restarts the period, so after
// a relist the next resync is a full period later.
func TestCh05_ResyncOnlyWhileWatching_R21(t *testing.T) {
	t.Run("period 0", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			st := &timedStore{recStore: newRecStore(), base: time.Now()}
			h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList}).run()
			advance(time.Hour)
			h.stop()
			assert.Empty(t, st.times())
		})
	})
	t.Run("failing LIST", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			errs := make([]error, 6)
			for i := range errs {
				errs[i] = fakesource.NewInternalError("down")
			}
			src.FailNextLists(errs...)
			st := &timedStore{recStore: newRecStore(), base: time.Now()}
			h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 5 * time.Second, Backoff: zeroJitter()}).run()
			advance(time.Minute)
			h.stop()
			// LISTs at 0, 0.8, 2.4, 5.6, 12, 24.8 fail; 50.4 succeeds; resync at 55.4 only.
			assert.Equal(t, []time.Duration{55400 * time.Millisecond}, st.times())
		})
	})
	t.Run("relist restarts the period", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			src := fakesource.New()
			mustAdd(t, src, "a")
			st := &timedStore{recStore: newRecStore(), base: time.Now()}
			h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 30 * time.Second, Backoff: zeroJitter()}).run()
			advance(45 * time.Second)
			src.SendError(fakesource.NewExpired("too old"))
			advance(70 * time.Second)
			h.stop()
			// Resync at 30 s; 410 at 45 s; relist at 45.8 s; resyncs at 75.8 s and 105.8 s.
			assert.Equal(t, []time.Duration{30 * time.Second, 75800 * time.Millisecond, 105800 * time.Millisecond}, st.times())
		})
	})
}

// TestCh05_ListAndWatchReturnsWatchPhase_R8: after the LIST, ListAndWatch runs the watch phase
// with the resync helper beside it and returns what the watch phase returns: the open error,
// or nil once an established watch ended.
func TestCh05_ListAndWatchReturnsWatchPhase_R8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		st := &timedStore{recStore: newRecStore(), base: time.Now()}
		r := NewReflectorWithOptions(src, nil, st, ReflectorOptions{UseWatchList: noWatchList, ResyncPeriod: 10 * time.Second})

		openErr := fakesource.NewBadRequest("no watch for you")
		src.FailNextWatches(openErr)
		assert.Same(t, openErr, r.ListAndWatchWithContext(t.Context()))
		assert.Equal(t, []string{"Replace [a@1] rv=1"}, st.Ops(), "the LIST came first")

		result := make(chan error, 1)
		go func() { result <- r.ListAndWatchWithContext(t.Context()) }()
		advance(15 * time.Second)
		src.SendError(fakesource.NewExpired("too old"))
		assert.NoError(t, <-result)
		assert.Equal(t, []time.Duration{10 * time.Second}, st.times(), "the resync helper ran during the watch")
		advance(time.Minute)
		assert.Len(t, st.times(), 1, "and stopped with it")
	})
}
