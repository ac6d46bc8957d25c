package processor

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// resyncOf is the sync update a reflector's resync produces for obj.
func resyncOf(obj any) UpdateNotification { return UpdateNotification{OldObj: obj, NewObj: obj} }

// SP-1: the registration is the listener itself, flagged as syncing from the start; a listener
// added to a running processor starts at once, but its upstream-synced watcher only when the
// informer calls StartWatchSynced after the synthetic initial adds (SI-14).
func TestCh07_SP1_AddListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(ProcessorOptions{})
		early := &recorder{}
		le := newListener(t, early, alreadySynced(), ListenerOptions{})
		reg, started := p.AddListener(le)
		assert.Same(t, le, reg)
		assert.False(t, started)
		assert.Same(t, le, p.GetListener(reg))
		again, _ := p.AddListener(le)
		assert.Same(t, le, again)
		assert.Equal(t, 1, p.ListenerCount(), "adding a registered listener again changes nothing")
		nilReg, nilStarted := p.AddListener(nil)
		assert.Nil(t, nilReg)
		assert.False(t, nilStarted)

		stop := running(t, p)
		defer stop()
		synctest.Wait()
		assert.True(t, le.HasSynced(), "Run started the watcher of a listener registered before it")

		p.Distribute(resyncOf(pod("a", "1")), true)
		synctest.Wait()
		assert.Equal(t, []string{"update ns/a@1->ns/a@1"}, early.got(), "flagged as syncing before any check")

		late := &recorder{}
		ll := newListener(t, late, alreadySynced(), ListenerOptions{})
		_, started = p.AddListener(ll)
		assert.True(t, started)
		ll.Add(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}) // the informer's synthetic add
		synctest.Wait()
		assert.Equal(t, []string{"add ns/a@1 init"}, late.got(), "the late listener's goroutines run without another Run")
		assert.False(t, ll.HasSynced(), "no upstream-synced watcher yet")
		p.StartWatchSynced(ll)
		synctest.Wait()
		assert.True(t, ll.HasSynced())
		assert.Equal(t, 2, p.ListenerCount())
	})
}

// SP-2: sync notifications go only to flagged listeners, others to all; a Distribute that
// finds listeners registered but not started waits until Run starts them (client-go v0.36+).
func TestCh07_SP2_DistributeWaitsForRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(ProcessorOptions{})
		p.Distribute(AddNotification{NewObj: pod("nobody", "1")}, false) // no listeners: returns at once

		rec := &recorder{}
		p.AddListener(newListener(t, rec, alreadySynced(), ListenerOptions{}))
		var returned atomic.Bool
		var wg sync.WaitGroup
		wg.Go(func() {
			p.Distribute(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
			returned.Store(true)
		})
		synctest.Wait()
		assert.False(t, returned.Load(), "Distribute waits for Run")
		assert.Empty(t, rec.got())

		stop := running(t, p)
		wg.Wait()
		synctest.Wait()
		assert.Equal(t, []string{"add ns/a@1 init"}, rec.got())
		stop()

		p.Distribute(AddNotification{NewObj: pod("b", "1")}, false) // after stop: no listeners, no wait
		assert.Empty(t, rec.got())
	})
}

// SP-3: ShouldResync flags exactly the listeners that are due, moves their nextResync one
// period past now, and the flags hold until the next check, so a listener that was due also
// receives other sync notifications in between; a period-0 listener is flagged only before
// the first check. Non-sync notifications always reach everyone.
func TestCh07_SP3_ShouldResyncFlags(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := &stepClock{now: t0}
		p := NewSharedProcessor(ProcessorOptions{Clock: clk})
		recs := map[string]*recorder{"never": {}, "2s": {}, "3s": {}}
		for name, period := range map[string]time.Duration{"never": 0, "2s": 2 * time.Second, "3s": 3 * time.Second} {
			l, err := NewProcessorListener(recs[name], period, period, t0, InitialBufferSize, alreadySynced(), ListenerOptions{Name: name})
			require.NoError(t, err)
			p.AddListener(l)
		}
		stop := running(t, p)
		defer stop()

		receivers := func(sync bool) []string {
			p.Distribute(resyncOf(pod("a", "1")), sync)
			synctest.Wait()
			var out []string
			for _, name := range []string{"never", "2s", "3s"} {
				if len(recs[name].got()) > 0 {
					out = append(out, name)
				}
			}
			return out
		}
		assert.Equal(t, []string{"never", "2s", "3s"}, receivers(true), "before the first check every listener is flagged")

		steps := []struct {
			at        time.Duration
			want      bool
			receivers []string
		}{
			{at: time.Second, want: false, receivers: nil},
			{at: 2 * time.Second, want: true, receivers: []string{"2s"}},
			{at: 3 * time.Second, want: true, receivers: []string{"3s"}},
			{at: 3500 * time.Millisecond, want: false, receivers: nil},
			{at: 4 * time.Second, want: true, receivers: []string{"2s"}},
			{at: 6 * time.Second, want: true, receivers: []string{"2s", "3s"}},
		}
		for _, s := range steps {
			clk.set(t0.Add(s.at))
			assert.Equal(t, s.want, p.ShouldResync(), "at %v", s.at)
			assert.Equal(t, s.receivers, receivers(true), "sync at %v", s.at)
			assert.Equal(t, s.receivers, receivers(true), "flags hold until the next check (%v)", s.at)
			assert.Equal(t, []string{"never", "2s", "3s"}, receivers(false), "non-sync at %v", s.at)
		}
	})
}

// SP-4 / T15, client-go's TestListenerResyncPeriods: an informer checking every second, with
// listeners asking for 0, 2 s and 3 s. A stand-in reflector calls ShouldResync on a 1 s ticker
// and distributes one sync update per cached object when it returns true. At t=2 s only the
// 2 s listener resyncs, at t=3 s only the 3 s listener, at t=4 s the 2 s listener again.
func TestCh07_SP4_ListenerResyncPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const check = time.Second
		start := time.Now()
		p := NewSharedProcessor(ProcessorOptions{})
		names := []string{"listener1", "listener2", "listener3"}
		recs := map[string]*recorder{}
		for i, requested := range []time.Duration{0, 2 * time.Second, 3 * time.Second} {
			recs[names[i]] = &recorder{}
			l, err := NewProcessorListener(recs[names[i]], requested, DetermineResyncPeriod(requested, check),
				start, InitialBufferSize, alreadySynced(), ListenerOptions{Name: names[i]})
			require.NoError(t, err)
			p.AddListener(l)
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		defer func() {
			cancel()
			wg.Wait()
		}()

		cache := []any{pod("pod1", "1"), pod("pod2", "1")}
		for _, obj := range cache {
			p.Distribute(AddNotification{NewObj: obj, IsInInitialList: true}, false)
		}
		ticks := make(chan time.Duration)
		wg.Go(func() { // the reflector's resync loop
			ticker := time.NewTicker(check)
			defer ticker.Stop()
			for {
				select {
				case <-ticker.C:
					if p.ShouldResync() {
						for _, obj := range cache {
							p.Distribute(resyncOf(obj), true)
						}
					}
					select {
					case ticks <- time.Since(start):
					case <-ctx.Done():
						return
					}
				case <-ctx.Done():
					return
				}
			}
		})

		synctest.Wait()
		for _, name := range names {
			assert.Equal(t, []string{"add ns/pod1@1 init", "add ns/pod2@1 init"}, recs[name].got(), name)
		}
		resynced := []string{"update ns/pod1@1->ns/pod1@1", "update ns/pod2@1->ns/pod2@1"}
		for _, want := range []struct {
			at  time.Duration
			who string
		}{{time.Second, ""}, {2 * time.Second, "listener2"}, {3 * time.Second, "listener3"}, {4 * time.Second, "listener2"}} {
			require.Equal(t, want.at, <-ticks)
			synctest.Wait()
			for _, name := range names {
				if name == want.who {
					assert.Equal(t, resynced, recs[name].got(), "%s at %v", name, want.at)
				} else {
					assert.Empty(t, recs[name].got(), "%s at %v", name, want.at)
				}
			}
		}
	})
}

// SP-5, SI-13.3: DetermineResyncPeriod, and ResyncCheckPeriodChanged recomputing every
// listener's effective period from its requested one (client-go's example: handlers asking
// 0, 1 m, 55 s and 5 s on an informer whose check period drops from 12 h to 5 s).
func TestCh07_SP5_ResyncCheckPeriodChanged(t *testing.T) {
	for _, tc := range []struct{ desired, check, want time.Duration }{
		{0, time.Second, 0},
		{time.Minute, 0, 0},
		{time.Second, 5 * time.Second, 5 * time.Second},
		{time.Minute, 5 * time.Second, time.Minute},
		{5 * time.Second, 5 * time.Second, 5 * time.Second},
	} {
		assert.Equal(t, tc.want, DetermineResyncPeriod(tc.desired, tc.check), "desired %v check %v", tc.desired, tc.check)
	}

	p := NewSharedProcessor(ProcessorOptions{})
	requested := []time.Duration{0, time.Minute, 55 * time.Second, 5 * time.Second}
	var ls []*ProcessorListener
	for _, r := range requested {
		l, err := NewProcessorListener(&recorder{}, r, DetermineResyncPeriod(r, 12*time.Hour), t0, 0, alreadySynced(), ListenerOptions{})
		require.NoError(t, err)
		p.AddListener(l)
		ls = append(ls, l)
	}
	effective := func() []time.Duration {
		var out []time.Duration
		for _, l := range ls {
			out = append(out, l.ResyncPeriod())
		}
		return out
	}
	assert.Equal(t, []time.Duration{0, 12 * time.Hour, 12 * time.Hour, 12 * time.Hour}, effective())
	p.ResyncCheckPeriodChanged(5 * time.Second)
	assert.Equal(t, requested, effective())
	p.ResyncCheckPeriodChanged(0)
	assert.Equal(t, []time.Duration{0, 0, 0, 0}, effective(), "an informer without resync resyncs nobody")
	assert.Equal(t, time.Minute, ls[1].RequestedResyncPeriod(), "the request is kept")
}

// SP-6: Run starts every registered listener and its watcher; when the context ends it stops
// them all, forgets them, wakes Distribute and returns only after every goroutine has exited.
// The processor is not reusable: a second Run returns at once, and a listener added after the
// stop is not registered and ends at once.
func TestCh07_SP6_RunLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		upstream, markSynced := synced(t)
		p := NewSharedProcessor(ProcessorOptions{})
		var ls []*ProcessorListener
		for range 3 {
			l := newListener(t, &recorder{}, upstream, ListenerOptions{})
			p.AddListener(l)
			ls = append(ls, l)
		}
		ctx, cancel := context.WithCancel(t.Context())
		runReturned := make(chan struct{})
		go func() {
			p.Run(ctx)
			close(runReturned)
		}()
		p.Distribute(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
		markSynced()
		synctest.Wait()
		for _, l := range ls {
			assert.True(t, l.HasSynced(), "Run started each listener's watcher")
		}

		cancel()
		<-runReturned
		assert.Equal(t, 0, p.ListenerCount())
		for _, l := range ls {
			assert.True(t, isClosed(l.ShutdownChan()), "every run goroutine has exited")
			assert.True(t, isClosed(l.done), "every pop goroutine has exited")
		}

		p.Run(t.Context()) // a second Run returns at once (it would block on this context otherwise)
		late := newListener(t, &recorder{}, upstream, ListenerOptions{})
		_, started := p.AddListener(late)
		assert.False(t, started)
		assert.Equal(t, 0, p.ListenerCount())
		assert.True(t, isClosed(late.ShutdownChan()))
		p.Distribute(AddNotification{NewObj: pod("b", "1")}, false)
	})
}

// SP-6: a Distribute already waiting for Run (SP-2) is released when Run starts, even when Run
// is reached late, and returns without delivering when the processor stopped first; client-go
// once deadlocked here (TestListenerResyncPeriodsDelayed).
func TestCh07_SP6_StopReleasesWaitingDistribute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(ProcessorOptions{})
		rec := &recorder{}
		p.AddListener(newListener(t, rec, alreadySynced(), ListenerOptions{}))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		var wg sync.WaitGroup
		wg.Go(func() { p.Distribute(AddNotification{NewObj: pod("a", "1")}, false) })
		synctest.Wait()
		p.Run(ctx) // starts, then stops at once: the waiting Distribute must not hang
		wg.Wait()
		assert.LessOrEqual(t, len(rec.got()), 1)
	})
}

// SP-7: a listener's first resync is due at its creation time plus its effective period, not
// at the processor's start.
func TestCh07_SP7_NextResyncFromCreation(t *testing.T) {
	clk := &stepClock{now: t0}
	p := NewSharedProcessor(ProcessorOptions{Clock: clk})
	created := t0.Add(500 * time.Millisecond)
	l, err := NewProcessorListener(&recorder{}, 2*time.Second, 2*time.Second, created, 0, alreadySynced(), ListenerOptions{})
	require.NoError(t, err)
	p.AddListener(l)
	for _, s := range []struct {
		at   time.Duration
		want bool
	}{{2 * time.Second, false}, {2499 * time.Millisecond, false}, {2500 * time.Millisecond, true}, {4 * time.Second, false}, {4500 * time.Millisecond, true}} {
		clk.set(t0.Add(s.at))
		assert.Equal(t, s.want, p.ShouldResync(), "at %v", s.at)
	}
}

// SI-16, SI-17: RemoveListener is idempotent, rejects foreign values, does not wait for the
// handler, and leaves the other listeners alone; ShutdownChan closes once run has exited,
// or at once for a listener that never started.
func TestCh07_SI16_RemoveListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(ProcessorOptions{})
		assert.ErrorContains(t, p.RemoveListener(nil), "not a registration")
		assert.ErrorContains(t, p.RemoveListener(foreignRegistration{}), "processor.foreignRegistration is not a registration")

		unstarted := newListener(t, &recorder{}, alreadySynced(), ListenerOptions{})
		reg, _ := p.AddListener(unstarted)
		require.NoError(t, p.RemoveListener(reg))
		assert.True(t, isClosed(unstarted.ShutdownChan()), "a never-started listener ends at removal")
		require.NoError(t, p.RemoveListener(reg), "removing twice is a no-op")
		assert.Nil(t, p.GetListener(reg))

		gate := make(chan struct{})
		slow, other := &recorder{gate: gate}, &recorder{}
		slowReg, _ := p.AddListener(newListener(t, slow, alreadySynced(), ListenerOptions{}))
		p.AddListener(newListener(t, other, alreadySynced(), ListenerOptions{}))
		stop := running(t, p)
		defer stop()
		p.Distribute(AddNotification{NewObj: pod("a", "1")}, false)
		p.Distribute(AddNotification{NewObj: pod("b", "1")}, false)
		synctest.Wait()

		require.NoError(t, p.RemoveListener(slowReg)) // returns although the handler is stalled
		shutdown := slowReg.(*ProcessorListener).ShutdownChan()
		assert.False(t, isClosed(shutdown))
		p.Distribute(AddNotification{NewObj: pod("c", "1")}, false)
		close(gate)
		<-shutdown // what ShutDownEventHandler waits for
		synctest.Wait()
		assert.Equal(t, []string{"add ns/a@1"}, slow.got())
		assert.Equal(t, []string{"add ns/a@1", "add ns/b@1", "add ns/c@1"}, other.got())
		assert.Equal(t, 1, p.ListenerCount())
	})
}

type foreignRegistration struct{}

func (foreignRegistration) HasSynced() bool               { return true }
func (foreignRegistration) HasSyncedChecker() DoneChecker { return alreadySynced() }

// INV-10 and PL-3 under real concurrency: random add/update/delete and sync notifications,
// random resync checks on a stepped clock, listeners with different periods and speeds. Every
// listener receives exactly the non-sync notifications plus the sync ones distributed while it
// was flagged (per a model of SP-3), in distribution order.
func TestCh07_INV10_RandomDistribution(t *testing.T) {
	for seed := range 10 {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { randomDistribution(t, uint64(seed)) })
	}
}

func randomDistribution(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 10))
	clk := &stepClock{now: t0}
	p := NewSharedProcessor(ProcessorOptions{Clock: clk})
	const check = time.Second
	type model struct {
		period  time.Duration
		next    time.Time
		flagged bool
		want    []string
	}
	periods := []time.Duration{0, time.Second, 2 * time.Second, 3500 * time.Millisecond}
	models := make([]*model, len(periods))
	recs := make([]*recorder, len(periods))
	done := make([]chan struct{}, len(periods))
	for i, requested := range periods {
		eff := DetermineResyncPeriod(requested, check)
		models[i] = &model{period: eff, next: t0.Add(eff), flagged: true}
		done[i] = make(chan struct{})
		recs[i] = &recorder{}
		slow := i%2 == 1
		recs[i].onCall = func(line string) {
			if slow {
				for range 20 {
					runtime.Gosched() // a slow handler, so rings fill and drain
				}
			}
			if line == "delete end" {
				close(done[i])
			}
		}
		l, err := NewProcessorListener(recs[i], requested, eff, t0, 4, alreadySynced(), ListenerOptions{})
		require.NoError(t, err)
		p.AddListener(l)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	defer func() {
		cancel()
		wg.Wait()
	}()

	now := t0
	for i := range 400 {
		name := fmt.Sprintf("o%d", rng.IntN(5))
		switch op := rng.IntN(10); {
		case op < 2: // a resync check
			now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
			clk.set(now)
			due := false
			for _, m := range models {
				m.flagged = m.period != 0 && !now.Before(m.next)
				if m.flagged {
					m.next = now.Add(m.period)
					due = true
				}
			}
			require.Equal(t, due, p.ShouldResync(), "seed %d step %d", seed, i)
		case op < 5: // a sync update
			obj := pod(name, fmt.Sprint(i))
			p.Distribute(resyncOf(obj), true)
			for _, m := range models {
				if m.flagged {
					m.want = append(m.want, fmt.Sprintf("update ns/%s@%d->ns/%s@%d", name, i, name, i))
				}
			}
		default:
			var n any
			var line string
			switch op {
			case 5, 6:
				n, line = AddNotification{NewObj: pod(name, fmt.Sprint(i))}, fmt.Sprintf("add ns/%s@%d", name, i)
			case 7, 8:
				n = UpdateNotification{OldObj: pod(name, "0"), NewObj: pod(name, fmt.Sprint(i))}
				line = fmt.Sprintf("update ns/%s@0->ns/%s@%d", name, name, i)
			default:
				n, line = DeleteNotification{OldObj: pod(name, fmt.Sprint(i))}, fmt.Sprintf("delete ns/%s@%d", name, i)
			}
			p.Distribute(n, false)
			for _, m := range models {
				m.want = append(m.want, line)
			}
		}
	}
	p.Distribute(DeleteNotification{OldObj: "end"}, false)
	for i := range models {
		<-done[i] // per-listener order: the sentinel comes last
		got := recs[i].got()
		require.Equal(t, "delete end", got[len(got)-1])
		require.Equal(t, models[i].want, got[:len(got)-1], "seed %d listener with period %v", seed, periods[i])
	}
}
