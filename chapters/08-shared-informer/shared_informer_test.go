package ch08_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
)

var profiles = []informer.Profile{informer.ProfileClassic, informer.ProfileInOrder, informer.ProfileCurrent}

// TestCh08_T11_OneReflectorManyHandlers: three handlers on one shared informer share one
// LIST and one WATCH, and each receives every event (T11).
func TestCh08_T11_OneReflectorManyHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a", "b")
		inf := informer.NewSharedIndexInformerWithOptions(src, &api.Pod{}, informer.SharedIndexInformerOptions{Profile: informer.ProfileClassic})
		recs := []*recorder{{}, {}, {}}
		for _, r := range recs {
			_, err := inf.AddEventHandler(r)
			require.NoError(t, err)
		}
		run(t, inf)
		write(t, src.Modify, "a")
		write(t, src.Delete, "b")
		synctest.Wait()
		for i, r := range recs {
			assert.Equal(t, []string{"ADD a@1 init", "ADD b@2 init", "UPD a@1→a@3", "DEL b@4"}, r.take(), "handler %d", i)
		}
		assert.Equal(t, 1, src.Count("LIST"))
		assert.Equal(t, 1, src.Count("WATCH"))
	})
}

// TestCh08_T13_LateHandlerGetsSyntheticAdds: a handler added after the informer synced gets one
// add per cached object, flagged isInInitialList, before anything else; its registration is
// unsynced until those adds have returned (T13, SI-14, SI-15).
func TestCh08_T13_LateHandlerGetsSyntheticAdds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a", "b", "c")
		inf := informer.NewSharedIndexInformer(src, &api.Pod{}, 0, nil)
		run(t, inf)
		require.True(t, inf.HasSynced())

		late := &recorder{gate: make(chan struct{})}
		reg, err := inf.AddEventHandler(late)
		require.NoError(t, err)
		write(t, src.Modify, "a")
		synctest.Wait()
		assert.False(t, reg.HasSynced(), "its first synthetic add is still running")
		close(late.gate)
		synctest.Wait()
		assert.True(t, reg.HasSynced())
		lines := late.take()
		require.Len(t, lines, 4)
		assert.ElementsMatch(t, []string{"ADD a@1 init", "ADD b@2 init", "ADD c@3 init"}, lines[:3], "in map order")
		assert.Equal(t, "UPD a@1→a@4", lines[3], "then the change, never before")
	})
}

// TestCh08_T14_HandlerSyncedIsNotInformerSynced: the informer (and the factory's
// WaitForCacheSync) says synced as soon as the cache is; a slow handler's registration says so
// only when its initial adds are done. Wait on both (T14, FA-7).
func TestCh08_T14_HandlerSyncedIsNotInformerSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a", "b")
		factory := informer.NewSharedInformerFactory(informer.ListWatchSourceFunc(
			func(api.GroupVersionResource, string, func(*api.ListOptions)) listwatch.ListerWatcher {
				return src
			}), 0)
		slow := &recorder{gate: make(chan struct{})}
		reg, err := factory.Core().V1().Pods().Informer().AddEventHandler(slow)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer func() { cancel(); factory.Shutdown() }()
		factory.StartWithContext(ctx)

		synced := factory.WaitForCacheSync(ctx.Done())
		assert.Equal(t, map[reflect.Type]bool{reflect.TypeOf(&api.Pod{}): true}, synced)
		assert.False(t, reg.HasSynced(), "the handler is still in its first add")
		go func() {
			time.Sleep(time.Second)
			close(slow.gate)
		}()
		assert.True(t, informer.WaitFor(ctx, "the handler", reg.HasSyncedChecker()))
		assert.Len(t, slow.take(), 2)
	})
}

// TestCh08_T15_PerHandlerResyncPeriods: handlers asking 0, 2 s and 3 s of an informer checking
// every second: at 2 s only the 2 s handler is resynced, at 3 s only the 3 s one. A handler
// asking 500 ms gets the 1 s minimum (T15, SP-4, SI-13).
func TestCh08_T15_PerHandlerResyncPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a")
		inf := informer.NewSharedIndexInformer(src, &api.Pod{}, time.Second, nil)
		recs := map[time.Duration]*recorder{0: {}, 2 * time.Second: {}, 3 * time.Second: {}}
		for d, r := range recs {
			_, err := inf.AddEventHandlerWithResyncPeriod(r, d)
			require.NoError(t, err)
		}
		fast, err := inf.AddEventHandlerWithResyncPeriod(&recorder{}, 500*time.Millisecond)
		require.NoError(t, err)
		assert.Equal(t, time.Second, fast.(*processor.ProcessorListener).ResyncPeriod())
		run(t, inf)
		for _, r := range recs {
			r.take()
		}
		resyncs := func() []int {
			return []int{len(recs[0].take()), len(recs[2*time.Second].take()), len(recs[3*time.Second].take())}
		}
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []int{0, 0, 0}, resyncs(), "at 1 s nobody is due")
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []int{0, 1, 0}, resyncs(), "at 2 s: the 2 s handler")
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []int{0, 0, 1}, resyncs(), "at 3 s: the 3 s handler")
		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []int{0, 1, 0}, resyncs(), "at 4 s: the 2 s handler again")
	})
}

// TestCh08_T6_ResyncIsNotRelist: a resync replays the cache to the handlers as same-RV
// updates; it never calls the server. A relist does: it LISTs again (T6, T9).
func TestCh08_T6_ResyncIsNotRelist(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a", "b")
		inf := informer.NewSharedIndexInformerWithOptions(src, &api.Pod{}, informer.SharedIndexInformerOptions{
			ResyncPeriod: time.Second, Profile: informer.ProfileClassic})
		rec := &recorder{}
		_, err := inf.AddEventHandler(rec)
		require.NoError(t, err)
		run(t, inf)
		rec.take()
		time.Sleep(3 * time.Second)
		synctest.Wait()
		assert.Len(t, rec.take(), 6, "three resyncs of two objects")
		assert.Equal(t, []int{1, 1}, []int{src.Count("LIST"), src.Count("WATCH")}, "the server was not asked")

		expire(src)
		waitUntil(t, "the relist", func() bool { return src.Count("LIST") == 2 })
		assert.Equal(t, []string{"UPD a@1→a@1", "UPD b@2→b@2"}, rec.take(), "the relist's unchanged objects")
	})
}

// TestCh08_T16_SameRVUpdatesAreFiltered: after the first resync check, a relist of unchanged
// objects reaches only handlers flagged for resync: the same-RV update is a sync notification
// (T16, SI-10).
func TestCh08_T16_SameRVUpdatesAreFiltered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a")
		inf := informer.NewSharedIndexInformerWithOptions(src, &api.Pod{}, informer.SharedIndexInformerOptions{
			ResyncPeriod: 2 * time.Second, Profile: informer.ProfileClassic})
		never, every2s := &recorder{}, &recorder{}
		_, err := inf.AddEventHandlerWithResyncPeriod(never, 0)
		require.NoError(t, err)
		_, err = inf.AddEventHandlerWithResyncPeriod(every2s, 2*time.Second)
		require.NoError(t, err)
		run(t, inf)
		time.Sleep(2 * time.Second) // the first check: never's flag is cleared
		synctest.Wait()
		never.take()
		every2s.take()

		start := time.Now()
		expire(src)
		waitUntil(t, "the relist", func() bool { return every2s.count() > 0 })
		require.Equal(t, 2, src.Count("LIST"), "a relist, not a resync")
		require.Less(t, time.Since(start), 2*time.Second, "before the next resync check")
		assert.Empty(t, never.take(), "no OnUpdate for an unchanged object")
		assert.Equal(t, []string{"UPD a@1→a@1"}, every2s.take())
	})
}

// TestCh08_RemoveAndShutDownEventHandler: a removed handler hears nothing more; the other goes
// on. ShutDownEventHandler also waits until a call in progress has returned (SI-16, SI-17).
func TestCh08_RemoveAndShutDownEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := source(t, "a")
		inf := informer.NewSharedIndexInformer(src, &api.Pod{}, 0, nil)
		removed, stays, slow := &recorder{}, &recorder{}, &recorder{}
		regRemoved, err := inf.AddEventHandler(removed)
		require.NoError(t, err)
		_, err = inf.AddEventHandler(stays)
		require.NoError(t, err)
		run(t, inf)
		require.NoError(t, inf.RemoveEventHandler(regRemoved))

		slow.gate = make(chan struct{})
		regSlow, err := inf.AddEventHandler(slow) // stuck in its synthetic add of a
		require.NoError(t, err)
		synctest.Wait()
		shutDown := make(chan struct{})
		go func() {
			assert.NoError(t, informer.ShutDownEventHandler(inf, regSlow))
			close(shutDown)
		}()
		synctest.Wait()
		select {
		case <-shutDown:
			t.Fatal("returned while the handler was busy")
		default:
		}
		close(slow.gate)
		<-shutDown

		write(t, src.Add, "b")
		synctest.Wait()
		assert.Equal(t, []string{"ADD a@1 init"}, removed.take())
		assert.Equal(t, []string{"ADD a@1 init"}, slow.take())
		assert.Equal(t, []string{"ADD a@1 init", "ADD b@2"}, stays.take())
	})
}

// section14 runs the verification scenario of docs/behaviour/client-go.md §14 through a shared informer of profile p
// and returns one handler's notifications per phase: p1@1, p2@2 exist (initial); add a@3, add
// b@4, modify a@5 (watch); modify p1@6, delete p2@7, add c@8 with the events dropped, then a
// watch reset whose re-watch gets 410 (relist). The consumer is held by a Pauser until the
// watch events are queued, as a busy informer's would be.
func section14(t *testing.T, p informer.Profile) (rows [3][]string) {
	src := source(t, "p1", "p2")
	pauser := &informer.Pauser{}
	pauser.Pause()
	inf := informer.NewSharedIndexInformerWithOptions(src, &api.Pod{}, informer.SharedIndexInformerOptions{Profile: p, Pauser: pauser})
	rec := &recorder{}
	_, err := inf.AddEventHandler(rec)
	require.NoError(t, err)
	stop := run(t, inf)
	defer stop()
	write(t, src.Add, "a")
	write(t, src.Add, "b")
	write(t, src.Modify, "a")
	synctest.Wait()
	pauser.Resume()
	synctest.Wait()
	all := rec.take()
	require.Len(t, all, 5)
	rows[0], rows[1] = all[:2], all[2:]

	src.DropNextEvents(3)
	write(t, src.Modify, "p1")
	write(t, src.Delete, "p2")
	write(t, src.Add, "c")
	relist(src)
	waitUntil(t, "the relist", func() bool { return rec.count() == 5 })
	rows[2] = rec.take()
	return rows
}

// TestCh08_Section14Table reproduces the table of docs/behaviour/client-go.md §14 and prints it with -v: what one
// handler sees, phase by phase, under the three profiles. Within the relist row the adds and
// updates follow the LIST order, which the spec leaves to map order, so they are checked as a
// set; where the tombstone goes is checked exactly.
func TestCh08_Section14Table(t *testing.T) {
	var table [3][3][]string // profile, phase
	for i, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { table[i] = section14(t, p) })
		})
	}
	for i, p := range profiles {
		rows := table[i]
		assert.Equal(t, []string{"ADD p1@1 init", "ADD p2@2 init"}, rows[0], "%s initial", p)
		if p == informer.ProfileClassic {
			assert.Equal(t, []string{"ADD a@3", "UPD a@3→a@5", "ADD b@4"}, rows[1], "%s watch", p)
		} else {
			assert.Equal(t, []string{"ADD a@3", "ADD b@4", "UPD a@3→a@5"}, rows[1], "%s watch", p)
		}
		if assert.Len(t, rows[2], 5, "%s relist", p) {
			tomb, rest := rows[2][4], rows[2][:4]
			if p != informer.ProfileClassic {
				tomb, rest = rows[2][0], rows[2][1:]
			}
			assert.Equal(t, "DEL DFSU(p2@2)", tomb, "%s relist", p)
			assert.ElementsMatch(t, []string{"UPD p1@1→p1@6", "ADD c@8", "UPD a@5→a@5", "UPD b@4→b@4"}, rest, "%s relist", p)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n%-8s | %-32s | %-32s | %-32s\n", "phase", "ProfileClassic (DeltaFIFO)", "ProfileInOrder (RealFIFO)", "ProfileCurrent (atomic)")
	fmt.Fprintf(&b, "%s\n", strings.Repeat("-", 8+3*35))
	for phase, name := range []string{"initial", "watch", "relist"} {
		for line := 0; ; line++ {
			more := false
			cells := make([]any, 3)
			for i := range profiles {
				cells[i] = ""
				if line < len(table[i][phase]) {
					cells[i] = table[i][phase][line]
					more = true
				}
			}
			if !more {
				break
			}
			label := ""
			if line == 0 {
				label = name
			}
			fmt.Fprintf(&b, "%-8s | %-32s | %-32s | %-32s\n", append([]any{label}, cells...)...)
		}
	}
	t.Log(b.String())
}
