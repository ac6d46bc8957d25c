package processor

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// running starts p.Run in the bubble and returns the function that stops it and waits.
func running(t *testing.T, p *SharedProcessor) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	return func() {
		cancel()
		wg.Wait()
	}
}

// addsOf returns n add notifications for pods p0 … p(n-1), all at RV "1".
func addsOf(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = AddNotification{NewObj: pod(fmt.Sprintf("p%d", i), "1")}
	}
	return out
}

func addLines(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("add ns/p%d@1", i))
	}
	return out
}

// Bad input is an error, not a panic.
func TestCh07_NewProcessorListenerErrors(t *testing.T) {
	up := alreadySynced()
	h := &recorder{}
	tests := []struct {
		name      string
		handler   ResourceEventHandler
		upstream  DoneChecker
		req, eff  time.Duration
		buf       int
		wantError string
	}{
		{name: "nil handler", upstream: up, wantError: "needs a handler"},
		{name: "nil upstream", handler: h, wantError: "synced checker"},
		{name: "negative buffer", handler: h, upstream: up, buf: -1, wantError: "negative buffer size -1"},
		{name: "negative period", handler: h, upstream: up, req: -time.Second, wantError: "negative resync period"},
		{name: "negative effective", handler: h, upstream: up, eff: -time.Second, wantError: "negative resync period"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := NewProcessorListener(tc.handler, tc.req, tc.eff, time.Now(), tc.buf, tc.upstream, ListenerOptions{})
			assert.Nil(t, l)
			assert.ErrorContains(t, err, tc.wantError)
		})
	}

	l, err := NewProcessorListener(h, 3*time.Second, 5*time.Second, time.Now(), 0, up, ListenerOptions{})
	require.NoError(t, err)
	assert.Equal(t, "*processor.recorder", l.Name(), "the default name is the handler's type")
	assert.Equal(t, 3*time.Second, l.RequestedResyncPeriod())
	assert.Equal(t, 5*time.Second, l.ResyncPeriod())
	assert.Equal(t, "informer + event handler *processor.recorder", l.HasSyncedChecker().Name())
	assert.Equal(t, 0, l.PendingCap())
}

// PL-1: Add blocks only until pop receives the notification, never on the handler: with the
// handler stalled in the first call, 100 more Adds all return (a blocked Add would deadlock
// the bubble and fail the test).
func TestCh07_PL1_AddNeverWaitsForHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		rec := &recorder{gate: gate}
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, rec, alreadySynced(), ListenerOptions{})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		for _, n := range addsOf(101) {
			p.Distribute(n, false)
		}
		synctest.Wait()
		assert.Equal(t, addLines(0, 1), rec.got(), "only the first notification reached the stalled handler")
		assert.Equal(t, 99, l.Pending(), "one in the handler, one offered by pop, 99 in the ring")

		close(gate)
		synctest.Wait()
		assert.Equal(t, addLines(1, 101), rec.got())
		assert.Equal(t, 0, l.Pending())
	})
}

// PL-1, PL-4: an initial-list add is counted before it is queued and only after OnAdd returns;
// the registration stays unsynced while the handler is still inside that call, even though it
// is the last initial add and the informer has synced.
func TestCh07_PL1_PL4_InitialAddsGateHasSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		rec := &recorder{gate: gate}
		upstream, markSynced := synced(t)
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, rec, upstream, ListenerOptions{})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		p.Distribute(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
		markSynced()
		synctest.Wait()
		assert.False(t, l.HasSynced(), "informer synced, but the handler is still inside the initial add")
		assert.False(t, IsDone(l.HasSyncedChecker()))

		close(gate)
		synctest.Wait()
		assert.True(t, l.HasSynced())
		assert.True(t, IsDone(l.HasSyncedChecker()))
		assert.Equal(t, []string{"add ns/a@1 init"}, rec.got())
	})
}

// PL-2: pop keeps one notification outside the ring and bypasses the ring when nothing is
// waiting. A ring of capacity 0 shows it: it stays at 0 while the handler keeps up and while
// only one notification waits behind a stalled call; the next one is the first ring write
// (which grows it to 16).
func TestCh07_PL2_PopBypassesRing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		p := NewSharedProcessor(ProcessorOptions{})
		l, err := NewProcessorListener(rec, 0, 0, time.Now(), 0, alreadySynced(), ListenerOptions{})
		require.NoError(t, err)
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		adds := addsOf(4)
		for _, n := range adds[:2] {
			p.Distribute(n, false)
			synctest.Wait()
		}
		assert.Equal(t, 0, l.PendingCap(), "an idle listener never touches its ring")
		assert.Equal(t, addLines(0, 2), rec.got())

		gate := make(chan struct{})
		rec.gate = gate // safe: run is idle, waiting on nextCh
		p.Distribute(adds[2], false)
		synctest.Wait() // p2 is inside the stalled handler
		p.Distribute(adds[3], false)
		synctest.Wait()
		assert.Equal(t, 0, l.PendingCap(), "p3 waits as pop's next notification, not in the ring")
		p.Distribute(AddNotification{NewObj: pod("p4", "1")}, false)
		synctest.Wait()
		assert.Equal(t, 16, l.PendingCap(), "p4 is the first ring write")
		assert.Equal(t, 1, l.Pending())

		close(gate)
		synctest.Wait()
		assert.Equal(t, addLines(2, 5), rec.got())
	})
}

// PL-2, SI-16: stopping the listener makes pop return at once, dropping the notification it
// offers and its ring; the handler call in progress finishes and no other starts.
func TestCh07_PL2_StopDropsBuffered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		rec := &recorder{gate: gate}
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, rec, alreadySynced(), ListenerOptions{})
		reg, _ := p.AddListener(l)
		stop := running(t, p)
		defer stop()

		for _, n := range addsOf(5) {
			p.Distribute(n, false)
		}
		synctest.Wait()
		require.Equal(t, 3, l.Pending())

		require.NoError(t, p.RemoveListener(reg))
		synctest.Wait()
		assert.True(t, isClosed(l.done), "pop has returned")
		assert.False(t, isClosed(l.ShutdownChan()), "run is still inside the handler")

		close(gate)
		synctest.Wait()
		assert.True(t, isClosed(l.ShutdownChan()), "run returned after the call in progress")
		assert.Equal(t, addLines(0, 1), rec.got(), "the offered and buffered notifications were dropped")

		l.Add(addsOf(1)[0]) // a late Add is dropped, not a panic on a closed channel
	})
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// PL-3: each listener receives exactly the Distribute order, whatever the others do: a
// stalled listener holds back nobody, and once released it catches up in order.
func TestCh07_PL3_PerListenerOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		stalled, fast1, fast2 := &recorder{gate: gate}, &recorder{}, &recorder{}
		p := NewSharedProcessor(ProcessorOptions{})
		for _, r := range []*recorder{stalled, fast1, fast2} {
			p.AddListener(newListener(t, r, alreadySynced(), ListenerOptions{}))
		}
		stop := running(t, p)
		defer stop()

		var want []string
		for i := range 300 {
			name := fmt.Sprintf("o%d", i%7)
			switch i % 3 {
			case 0:
				p.Distribute(AddNotification{NewObj: pod(name, fmt.Sprint(i))}, false)
				want = append(want, fmt.Sprintf("add ns/%s@%d", name, i))
			case 1:
				p.Distribute(UpdateNotification{OldObj: pod(name, fmt.Sprint(i-1)), NewObj: pod(name, fmt.Sprint(i))}, false)
				want = append(want, fmt.Sprintf("update ns/%s@%d->ns/%s@%d", name, i-1, name, i))
			default:
				p.Distribute(DeleteNotification{OldObj: pod(name, fmt.Sprint(i))}, false)
				want = append(want, fmt.Sprintf("delete ns/%s@%d", name, i))
			}
		}
		synctest.Wait()
		assert.Equal(t, want, fast1.got())
		assert.Equal(t, want, fast2.got())
		assert.Equal(t, want[:1], stalled.got(), "the stalled listener is still in its first call")

		close(gate)
		synctest.Wait()
		assert.Equal(t, want[1:], stalled.got())
	})
}

// PL-4: run calls the method that matches each notification, hands a tombstone to OnDelete
// untouched, logs and skips a value that is not a notification, and closes ShutdownChan when
// it ends.
func TestCh07_PL4_RunDispatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, rec, alreadySynced(), ListenerOptions{})
		p.AddListener(l)
		stop := running(t, p)

		p.Distribute(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
		p.Distribute(AddNotification{NewObj: pod("b", "2")}, false)
		p.Distribute(UpdateNotification{OldObj: pod("a", "1"), NewObj: pod("a", "3")}, false)
		p.Distribute("not a notification", false)
		p.Distribute(DeleteNotification{OldObj: tombstone{Key: "ns/b", Obj: pod("b", "2")}}, false)
		synctest.Wait()
		assert.Equal(t, []string{"add ns/a@1 init", "add ns/b@2", "update ns/a@1->ns/a@3", "delete DFSU(ns/b)"}, rec.got())
		assert.True(t, l.HasSynced())

		stop()
		assert.True(t, isClosed(l.ShutdownChan()))
	})
}

// PL-5 (SkipAndContinue): the panicking notification is skipped, the OnPanic hook sees it, and
// the next notification is delivered one second later on the listener's clock. A skipped
// initial-list add never finishes, so the registration never syncs.
func TestCh07_PL5_SkipAndContinue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		var calls, panics []string
		delivered := make(chan struct{})
		h := ResourceEventHandlerDetailedFuncs{
			AddFunc: func(obj any, _ bool) {
				name := obj.(interface{ GetName() string }).GetName()
				mu.Lock()
				calls = append(calls, fmt.Sprintf("%s@%v", name, time.Since(start)))
				mu.Unlock()
				if name == "bad1" || name == "bad2" {
					panic("boom " + name)
				}
				delivered <- struct{}{}
			},
		}
		upstream, markSynced := synced(t)
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, h, upstream, ListenerOptions{
			PanicPolicy: SkipAndContinue,
			OnPanic: func(listener string, r any) {
				mu.Lock()
				panics = append(panics, fmt.Sprintf("%s: %v", listener, r))
				mu.Unlock()
			},
			Name: "h",
		})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		p.Distribute(AddNotification{NewObj: pod("ok1", "1"), IsInInitialList: true}, false)
		<-delivered
		p.Distribute(AddNotification{NewObj: pod("bad1", "1"), IsInInitialList: true}, false)
		p.Distribute(AddNotification{NewObj: pod("bad2", "1")}, false)
		p.Distribute(AddNotification{NewObj: pod("ok2", "1")}, false)
		markSynced()
		<-delivered // virtual time moves on only while every goroutine waits

		mu.Lock()
		assert.Equal(t, []string{"ok1@0s", "bad1@0s", "bad2@1s", "ok2@2s"}, calls,
			"one second after each panic, the next notification")
		assert.Equal(t, []string{"h: boom bad1", "h: boom bad2"}, panics)
		mu.Unlock()
		synctest.Wait()
		assert.False(t, l.HasSynced(), "the skipped initial add never finished")
	})
}

// PL-5 (ReallyCrash, the default): the panic is observed, then re-raised with the same value,
// out of run; the deferred close of ShutdownChan still happens. The chapter runs the same
// thing in a child process to show the crash itself.
func TestCh07_PL5_ReallyCrashRepanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var observed []any
		h := ResourceEventHandlerFuncs{AddFunc: func(any) { panic("boom") }}
		l := newListener(t, h, alreadySynced(), ListenerOptions{
			OnPanic: func(_ string, r any) { observed = append(observed, r) },
		})
		assert.Equal(t, ReallyCrash, ListenerOptions{}.PanicPolicy, "the zero value crashes")

		var wg sync.WaitGroup
		recovered := make(chan any, 1)
		wg.Go(l.pop)
		wg.Go(func() {
			defer func() { recovered <- recover() }()
			l.run()
		})
		l.Add(AddNotification{NewObj: pod("a", "1")})
		assert.Equal(t, "boom", <-recovered)
		assert.Equal(t, []any{"boom"}, observed)
		assert.True(t, isClosed(l.ShutdownChan()))
		l.stop()
		wg.Wait()
	})
}

// PL-6: with the handler stalled and k notifications behind it, the ring holds k − 1; capacity
// doubles 1024 → 2048 → 4096 on the write that finds it full, and never shrinks.
func TestCh07_PL6_RingGrowthUnderStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		rec := &recorder{gate: gate}
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, rec, alreadySynced(), ListenerOptions{})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		adds := addsOf(1 + 2050)
		p.Distribute(adds[0], false) // enters the handler and stalls
		sent := 0                    // notifications behind the stalled one
		sendUpTo := func(k int) {
			for ; sent < k; sent++ {
				p.Distribute(adds[1+sent], false)
			}
			synctest.Wait()
		}
		for _, step := range []struct{ k, wantCap int }{
			{1, 1024}, {1025, 1024}, {1026, 2048}, {2049, 2048}, {2050, 4096},
		} {
			sendUpTo(step.k)
			assert.Equal(t, step.k-1, l.Pending(), "k=%d", step.k)
			assert.Equal(t, step.wantCap, l.PendingCap(), "k=%d", step.k)
		}

		close(gate)
		synctest.Wait()
		assert.Equal(t, addLines(0, 2051), rec.got(), "every notification, in order")
		assert.Equal(t, 0, l.Pending())
		assert.Equal(t, 4096, l.PendingCap(), "the ring never shrinks")
	})
}

// PL-7: the upstream-synced watcher gives up when pop exits, so a listener removed before its
// informer synced never reports synced (and its watcher does not leak).
func TestCh07_PL7_WatcherGivesUpWhenPopExits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		upstream, markSynced := synced(t)
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, &recorder{}, upstream, ListenerOptions{})
		reg, _ := p.AddListener(l)
		stop := running(t, p)
		defer stop()

		require.NoError(t, p.RemoveListener(reg))
		synctest.Wait() // the watcher has returned, or the bubble would report it at the end
		markSynced()
		synctest.Wait()
		assert.False(t, reg.HasSynced())
	})
}
