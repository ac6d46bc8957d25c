package ch07_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// RB-1, RB-2, RB-4: a ring of 4 takes 4 writes, and the 5th doubles it to 8 (the spec's
// verified example); reads come back in write order.
func TestCh07_RingGrowing(t *testing.T) {
	r := processor.NewRingGrowing(4)
	var caps []int
	for i := range 5 {
		r.WriteOne(fmt.Sprintf("n%d", i))
		caps = append(caps, r.Cap())
	}
	assert.Equal(t, []int{4, 4, 4, 4, 8}, caps)
	assert.Equal(t, 5, r.Len())
	var got []any
	for {
		v, ok := r.ReadOne()
		if !ok {
			break
		}
		got = append(got, v)
	}
	assert.Equal(t, []any{"n0", "n1", "n2", "n3", "n4"}, got)
	assert.Equal(t, 8, r.Cap(), "never shrinks (RB-5)")
}

// T12, PL-1, PL-6: handler A stalls on its first call; 3000 notifications are distributed.
// Every Distribute returns (pop always receives), handler B gets all 3000 while A is still
// stuck, and A's ring grows 1024 → 2048 → 4096, holding k − 1 of the k notifications behind the
// stalled one (the other is the one pop offers on nextCh). Released, A receives all 3000 in
// order. Each step is observed at a quiescent point of the synctest bubble, no sleeping.
func TestCh07_T12_SlowHandlerDoesNotBlockOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		slow, fast := &recorder{gate: gate}, &recorder{}
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		a := listener(t, slow, upstream, "A", 0, 0, processor.ListenerOptions{})
		p.AddListener(a)
		p.AddListener(listener(t, fast, upstream, "B", 0, 0, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()

		var want []string
		sent := 0
		sendUpTo := func(n int) {
			for ; sent < n; sent++ {
				obj := pod(fmt.Sprintf("p%04d", sent), "1")
				p.Distribute(processor.AddNotification{NewObj: obj}, false)
				want = append(want, "OnAdd "+show(obj))
			}
			synctest.Wait()
		}
		// k = notifications behind the stalled first one.
		for _, step := range []struct{ sent, pending, capacity int }{
			{sent: 1026, pending: 1024, capacity: 1024}, // k = 1025: the ring is exactly full
			{sent: 1027, pending: 1025, capacity: 2048}, // the write that found it full doubled it
			{sent: 2051, pending: 2049, capacity: 4096}, // and again
			{sent: 3000, pending: 2998, capacity: 4096},
		} {
			sendUpTo(step.sent)
			assert.Equal(t, step.pending, a.Pending(), "after %d", step.sent)
			assert.Equal(t, step.capacity, a.PendingCap(), "after %d", step.sent)
			t.Logf("distributed %4d: A ring len %4d cap %4d", step.sent, a.Pending(), a.PendingCap())
		}
		assert.Equal(t, want, fast.take(), "B received everything while A was stalled")
		assert.Equal(t, want[:1], slow.take(), "A is still inside its first call")

		close(gate)
		synctest.Wait()
		assert.Equal(t, want[1:], slow.take(), "A catches up, in order")
		assert.Equal(t, 0, a.Pending())
		assert.Equal(t, 4096, a.PendingCap(), "the ring keeps its size")
	})
}

// Why addCh and nextCh are unbuffered (N-1): the ring is the only buffer. Add hands its
// notification straight to pop, so with pop not running yet Add cannot park it anywhere and
// waits; and between pop and run there is exactly one notification in flight, so Pending is
// an exact count (k − 1) with nothing hidden in a channel buffer.
func TestCh07_UnbufferedHandOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		rec := &recorder{gate: gate}
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		l := listener(t, rec, upstream, "h", 0, 0, processor.ListenerOptions{})
		p.AddListener(l)

		added := make(chan struct{})
		go func() {
			l.Add(processor.AddNotification{NewObj: pod("a", "1")})
			close(added)
		}()
		synctest.Wait()
		select {
		case <-added:
			t.Fatal("Add returned although no pop goroutine was there to receive")
		default:
		}

		stop := start(p)
		defer stop()
		<-added
		for i := range 5 {
			p.Distribute(processor.AddNotification{NewObj: pod(fmt.Sprintf("b%d", i), "1")}, false)
		}
		synctest.Wait()
		assert.Equal(t, []string{"OnAdd default/a@1"}, rec.take())
		assert.Equal(t, 4, l.Pending(), "5 behind the stalled call: 1 offered on nextCh, 4 in the ring")
		close(gate)
	})
}

// SP-4, T15: client-go's TestListenerResyncPeriods. The informer checks every second; three
// handlers ask for 0, 2 s and 3 s. A stand-in for the reflector's resync loop calls
// ShouldResync on each tick and, when it says yes, distributes one sync update per cached
// object. Only the listeners that are due receive them.
func TestCh07_SP4_PerListenerResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const check = time.Second
		began := time.Now()
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		names := []string{"listener1 (0)", "listener2 (2s)", "listener3 (3s)"}
		recs := map[string]*recorder{}
		for i, resync := range []time.Duration{0, 2 * time.Second, 3 * time.Second} {
			recs[names[i]] = &recorder{}
			p.AddListener(listener(t, recs[names[i]], upstream, names[i], resync, check, processor.ListenerOptions{}))
		}
		stop := start(p)
		defer stop()

		cache := []any{pod("pod1", "1"), pod("pod2", "1")}
		for _, obj := range cache {
			p.Distribute(processor.AddNotification{NewObj: obj, IsInInitialList: true}, false)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ticks := make(chan time.Duration)
		go func() {
			ticker := time.NewTicker(check)
			defer ticker.Stop()
			for {
				select {
				case <-ticker.C:
					if p.ShouldResync() {
						for _, obj := range cache {
							p.Distribute(processor.UpdateNotification{OldObj: obj, NewObj: obj}, true)
						}
					}
					select {
					case ticks <- time.Since(began):
					case <-ctx.Done():
						return
					}
				case <-ctx.Done():
					return
				}
			}
		}()

		synctest.Wait()
		for _, name := range names {
			assert.Len(t, recs[name].take(), 2, "%s: the two initial adds", name)
		}
		resynced := []string{"OnUpdate default/pod1@1 -> default/pod1@1", "OnUpdate default/pod2@1 -> default/pod2@1"}
		for _, tick := range []struct {
			at  time.Duration
			due []string
		}{
			{time.Second, nil},
			{2 * time.Second, names[1:2]},
			{3 * time.Second, names[2:3]},
			{4 * time.Second, names[1:2]},
			{5 * time.Second, nil},
			{6 * time.Second, names[1:3]},
		} {
			require.Equal(t, tick.at, <-ticks)
			synctest.Wait()
			var who []string
			for _, name := range names {
				got := recs[name].take()
				if len(got) > 0 {
					assert.Equal(t, resynced, got, "t=%v: %s", tick.at, name)
					who = append(who, name)
				}
			}
			assert.Equal(t, tick.due, who, "t=%v", tick.at)
			t.Logf("t=%v: resynced %v", tick.at, who)
		}
	})
}

// PL-3: three handlers, one of them stalled for a while; each sees exactly the distribute
// order, and none waits for another.
func TestCh07_PL3_DistributeOrderPerListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		recs := []*recorder{{}, {gate: gate}, {}}
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		for i, r := range recs {
			p.AddListener(listener(t, r, upstream, fmt.Sprint("h", i), 0, 0, processor.ListenerOptions{}))
		}
		stop := start(p)
		defer stop()

		a1, a2, b1 := pod("a", "1"), pod("a", "2"), pod("b", "3")
		notes := []any{
			processor.AddNotification{NewObj: a1},
			processor.AddNotification{NewObj: b1},
			processor.UpdateNotification{OldObj: a1, NewObj: a2},
			processor.DeleteNotification{OldObj: store.DeletedFinalStateUnknown{Key: "default/b", Obj: b1}},
			processor.DeleteNotification{OldObj: a2},
		}
		want := []string{"OnAdd default/a@1", "OnAdd default/b@3", "OnUpdate default/a@1 -> default/a@2",
			"OnDelete DFSU(default/b)", "OnDelete default/a@2"}
		for _, n := range notes {
			p.Distribute(n, false)
		}
		synctest.Wait()
		assert.Equal(t, want, recs[0].take())
		assert.Equal(t, want, recs[2].take())
		assert.Equal(t, want[:1], recs[1].take())
		close(gate)
		synctest.Wait()
		assert.Equal(t, want[1:], recs[1].take())
	})
}

// SI-15, SI-19, PL-7: each registration has its own HasSynced. The informer's checker closing
// is not enough: a handle syncs once its own initial-list adds have returned from its handler.
// ResourceEventHandlerFuncs.AddFunc cannot tell initial adds apart; DetailedFuncs can.
func TestCh07_SI15_PerRegistrationHasSynced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		var mu sync.Mutex
		var plainSaw, detailedSaw []string
		plain := processor.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			mu.Lock()
			plainSaw = append(plainSaw, show(obj))
			mu.Unlock()
		}}
		detailed := processor.ResourceEventHandlerDetailedFuncs{AddFunc: func(obj any, init bool) {
			mu.Lock()
			detailedSaw = append(detailedSaw, fmt.Sprintf("%s init=%v", show(obj), init))
			mu.Unlock()
			if init {
				<-gate // a slow handler during the initial list
			}
		}}
		upstream, informerDone := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		fastReg, _ := p.AddListener(listener(t, plain, upstream, "plain", 0, 0, processor.ListenerOptions{}))
		slowReg, _ := p.AddListener(listener(t, detailed, upstream, "detailed", 0, 0, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()

		// The informer pops its initial list, then a watch event, then reports synced.
		p.Distribute(processor.AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
		p.Distribute(processor.AddNotification{NewObj: pod("b", "2"), IsInInitialList: true}, false)
		p.Distribute(processor.AddNotification{NewObj: pod("c", "3")}, false)
		synctest.Wait()
		assert.False(t, fastReg.HasSynced(), "the informer has not synced yet")
		close(informerDone)
		synctest.Wait()
		assert.True(t, fastReg.HasSynced())
		assert.False(t, slowReg.HasSynced(), "informer synced, but this handler is still in its initial adds (T14)")
		close(gate)
		<-slowReg.HasSyncedChecker().Done() // WaitFor-style: a channel, no polling
		assert.True(t, slowReg.HasSynced())
		synctest.Wait() // and the watch event behind them

		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{"default/a@1", "default/b@2", "default/c@3"}, plainSaw)
		assert.Equal(t, []string{"default/a@1 init=true", "default/b@2 init=true", "default/c@3 init=false"}, detailedSaw)
	})
}

// SI-16, SI-17, INV-27: removing a handler does not wait for it; its buffered notifications
// are dropped, the call in progress finishes, and no later call starts; ShutdownChan (what
// ShutDownEventHandler waits on) closes when its run goroutine has exited. The other handler
// is not affected.
func TestCh07_RemoveEventHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		removed, kept := &recorder{gate: gate}, &recorder{}
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		reg, _ := p.AddListener(listener(t, removed, upstream, "removed", 0, 0, processor.ListenerOptions{}))
		p.AddListener(listener(t, kept, upstream, "kept", 0, 0, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()

		for i := range 4 {
			p.Distribute(processor.AddNotification{NewObj: pod(fmt.Sprint("p", i), "1")}, false)
		}
		synctest.Wait()
		require.NoError(t, p.RemoveListener(reg), "returns while the handler is still stalled")
		require.NoError(t, p.RemoveListener(reg), "idempotent")
		assert.Error(t, p.RemoveListener(processor.ResourceEventHandlerRegistration(nil)))
		p.Distribute(processor.AddNotification{NewObj: pod("p4", "1")}, false)

		shutdown := reg.(*processor.ProcessorListener).ShutdownChan()
		select {
		case <-shutdown:
			t.Fatal("run cannot have exited: its handler is stalled")
		default:
		}
		close(gate)
		<-shutdown
		synctest.Wait()
		assert.Equal(t, []string{"OnAdd default/p0@1"}, removed.take(), "p1 … p3 were dropped, p4 never reached it")
		assert.Len(t, kept.take(), 5)
		assert.Equal(t, 1, p.ListenerCount())
	})
}

// PL-5, N-5 with SkipAndContinue: the panicking notification is skipped and the next one is
// delivered one (virtual) second later; the other handler never notices.
func TestCh07_PanickingHandlerContinues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		began := time.Now()
		var mu sync.Mutex
		var got []string
		next := make(chan struct{})
		h := processor.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			mu.Lock()
			got = append(got, fmt.Sprintf("t=%v %s", time.Since(began), show(obj)))
			mu.Unlock()
			if obj.(interface{ GetName() string }).GetName() == "bad" {
				panic("handler failed on bad")
			}
			next <- struct{}{}
		}}
		var observed []any
		other := &recorder{}
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		p.AddListener(listener(t, h, upstream, "h", 0, 0, processor.ListenerOptions{
			PanicPolicy: processor.SkipAndContinue,
			OnPanic:     func(_ string, r any) { observed = append(observed, r) },
		}))
		p.AddListener(listener(t, other, upstream, "other", 0, 0, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()

		for _, name := range []string{"good", "bad", "after"} {
			p.Distribute(processor.AddNotification{NewObj: pod(name, "1")}, false)
		}
		<-next // good
		<-next // after, once the pause is over
		mu.Lock()
		assert.Equal(t, []string{"t=0s default/good@1", "t=0s default/bad@1", "t=1s default/after@1"}, got)
		mu.Unlock()
		assert.Equal(t, []any{"handler failed on bad"}, observed)
		synctest.Wait()
		assert.Len(t, other.take(), 3)
	})
}

// crashChildEnv makes the test binary, started again by TestCh07_PanickingHandlerCrashes,
// play the crashing process.
const crashChildEnv = "CH07_CRASH_CHILD"

// PL-5, N-5 with ReallyCrash (the default, as in client-go): the panic is re-raised and the
// whole process dies. The test runs itself again as a child process and checks that the child
// crashed with the handler's panic.
func TestCh07_PanickingHandlerCrashes(t *testing.T) {
	if os.Getenv(crashChildEnv) == "1" {
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		h := processor.ResourceEventHandlerFuncs{AddFunc: func(any) { panic("handler failed on bad") }}
		p.AddListener(listener(t, h, upstream, "h", 0, 0, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()
		p.Distribute(processor.AddNotification{NewObj: pod("bad", "1")}, false)
		<-time.After(30 * time.Second) // a bound: the run goroutine's panic ends the process first
		t.Fatal("the handler's panic did not crash the process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCh07_PanickingHandlerCrashes$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the child must crash; output:\n%s", out)
	assert.Equal(t, 2, exit.ExitCode(), "an unrecovered panic exits with status 2")
	assert.Contains(t, string(out), "panic: handler failed on bad")
	t.Logf("child process output starts with: %q", firstLine(out))
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}
