package reflector

import (
	"context"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// defaultBases are the un-jittered delays of the default backoff: doubling from 0.8 s
// until the step that would pass 30 s clamps the base to 30 s.
var defaultBases = []time.Duration{
	800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
	6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond,
	30 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second,
}

// TestCh05_BackoffSequenceTable_R2 pins the jitter source and reads off the delays: each is
// the base stretched by (1 + jitter·rand).
func TestCh05_BackoffSequenceTable_R2(t *testing.T) {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	tests := []struct {
		name string
		rand float64
		want []time.Duration
	}{
		{"rand=0 (lower bound)", 0, defaultBases},
		{"rand=0.5", 0.5, []time.Duration{ms(1200), ms(2400), ms(4800), ms(9600), ms(19200), ms(38400),
			45 * time.Second, 45 * time.Second, 45 * time.Second, 45 * time.Second}},
		{"rand=0.999 (upper bound)", 0.999, []time.Duration{ms(1599.2), ms(3198.4), ms(6396.8), ms(12793.6),
			ms(25587.2), ms(51174.4), ms(59970), ms(59970), ms(59970), ms(59970)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := DefaultBackoff()
			b.Rand = func() float64 { return tt.rand }
			next := b.DelayFunc()
			var got []time.Duration
			for range tt.want {
				got = append(got, next())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCh05_BackoffRanges_R2 draws real jitter: delay i lies in [base_i, 2·base_i); the 6th in
// [25.6 s, 51.2 s) and every later one in [30 s, 60 s) (INV-18).
func TestCh05_BackoffRanges_R2(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := DefaultBackoff()
		b.Rand = rnd.Float64
		for i := range 12 {
			base := defaultBases[min(i, len(defaultBases)-1)]
			d := b.Step()
			require.GreaterOrEqual(t, d, base, "delay %d", i)
			require.Less(t, d, 2*base, "delay %d", i)
		}
	}
}

// TestCh05_BackoffResetEvery2Min_R3 runs the default backoff back to back in virtual time
// (each failure waits exactly its delay). The reset time moves only on a reset, so even
// continuous failures restart at 0.8 s once more than 2 minutes have passed since the last
// reset, and a quiet period restarts it too.
func TestCh05_BackoffResetEvery2Min_R3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := *zeroJitter()
		next := b.DelayWithReset(clock.RealClock{}, 2*time.Minute)
		start := time.Now()
		type step struct {
			at    time.Duration
			delay time.Duration
		}
		var got []step
		for range 12 {
			d := next()
			got = append(got, step{time.Since(start), d})
			time.Sleep(d)
		}
		s := func(at, d float64) step {
			return step{time.Duration(at * float64(time.Second)), time.Duration(d * float64(time.Second))}
		}
		want := []step{
			s(0, 0.8), s(0.8, 1.6), s(2.4, 3.2), s(5.6, 6.4), s(12, 12.8), s(24.8, 25.6),
			s(50.4, 30), s(80.4, 30), s(110.4, 30),
			s(140.4, 0.8), // 140.4 s since the reset at 0 > 2 min: start over
			s(141.2, 1.6), s(142.8, 3.2),
		}
		assert.Equal(t, want, got)

		// A quiet period longer than 2 minutes also restarts the sequence.
		time.Sleep(3 * time.Minute)
		assert.Equal(t, 800*time.Millisecond, next())
	})
}

// TestCh05_BackoffEdgeCases_R5 covers what a custom Backoff (ReflectorOptions.Backoff) may be:
// no factor means a constant delay, no reset interval means no growth, and exhausted steps
// freeze the base without a cap.
func TestCh05_BackoffEdgeCases_R5(t *testing.T) {
	noRand := func() float64 { return 0 }
	collect := func(f DelayFunc, n int) []time.Duration {
		var out []time.Duration
		for range n {
			out = append(out, f())
		}
		return out
	}
	sec := time.Second
	tests := []struct {
		name  string
		b     Backoff
		reset time.Duration
		want  []time.Duration
	}{
		{"factor 0 is constant", Backoff{Duration: sec, Steps: 5, Rand: noRand}, time.Minute, []time.Duration{sec, sec, sec}},
		{"reset 0 disables growth", Backoff{Duration: sec, Factor: 2, Steps: 5, Rand: noRand}, 0, []time.Duration{sec, sec, sec}},
		{"steps run out", Backoff{Duration: sec, Factor: 3, Steps: 2, Rand: noRand}, time.Minute, []time.Duration{sec, 3 * sec, 9 * sec, 9 * sec}},
		{"cap clamps", Backoff{Duration: sec, Factor: 10, Steps: 9, Cap: 5 * sec, Rand: noRand}, time.Minute, []time.Duration{sec, 5 * sec, 5 * sec}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, collect(tt.b.DelayWithReset(clock.RealClock{}, tt.reset), len(tt.want)))
		})
	}
	var nilBackoff *Backoff
	assert.Zero(t, nilBackoff.Step())
}

// TestCh05_RunBackoffDelays_T10_R1_R2 is teaching point T10: a LIST that always fails is
// retried after each backoff delay, all in virtual time. Each failure reaches the
// watch-error handler first.
func TestCh05_RunBackoffDelays_T10_R1_R2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		errs := make([]error, 9)
		for i := range errs {
			errs[i] = fakesource.NewInternalError("etcd down")
		}
		src.FailNextLists(errs...)
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()
		advance(3 * time.Minute)
		h.stop()

		times := h.callTimes("LIST")
		require.GreaterOrEqual(t, len(times), 10)
		var gaps []time.Duration
		for i := 1; i < 10; i++ {
			gaps = append(gaps, times[i]-times[i-1])
		}
		assert.Equal(t, defaultBases[:9], gaps, "gaps between LIST attempts")
		assert.Len(t, h.errs(), 9, "one handler call per failed LIST (R-1, R-17)")
		assert.Equal(t, 1, src.Count("WATCH"), "the 10th LIST succeeds and a watch follows")
	})
}

// TestCh05_NilReturnStillBacksOff_R1: ListAndWatch returning nil (here after a watch 410) is
// followed by a backoff delay too, and the handler is not called.
func TestCh05_NilReturnStillBacksOff_R1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()
		advance(10 * time.Second)
		src.SendError(fakesource.NewExpired("too old resource version: 1 (5)"))
		synctest.Wait()
		advance(time.Second)
		h.stop()

		lists := h.callTimes("LIST")
		require.Len(t, lists, 2)
		assert.Equal(t, 10*time.Second+800*time.Millisecond, lists[1], "relist one 0.8 s delay after the 410")
		assert.Empty(t, h.errs())
	})
}

// TestCh05_SharedBackoff_R4: the Run loop and a watch re-open after 429 draw from one
// sequence. A failed LIST takes the 0.8 s delay; the 429 on the next watch open then waits
// 1.6 s, not 0.8 s.
func TestCh05_SharedBackoff_R4(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		src.FailNextLists(fakesource.NewInternalError("boom"))
		src.FailNextWatches(fakesource.NewTooManyRequests())
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()
		advance(10 * time.Second)
		h.stop()

		assert.Equal(t, []time.Duration{0, 800 * time.Millisecond}, h.callTimes("LIST"))
		assert.Equal(t, []time.Duration{800 * time.Millisecond, 2400 * time.Millisecond}, h.callTimes("WATCH"))
	})
}

// TestCh05_CustomBackoff_R5: ReflectorOptions.Backoff replaces the parameters.
func TestCh05_CustomBackoff_R5(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		src.FailNextLists(fakesource.NewInternalError("1"), fakesource.NewInternalError("2"), fakesource.NewInternalError("3"))
		b := &Backoff{Duration: 100 * time.Millisecond, Factor: 3, Steps: 10, Cap: time.Second}
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: b}).run()
		advance(5 * time.Second)
		h.stop()
		assert.Equal(t, []time.Duration{0, 100 * time.Millisecond, 400 * time.Millisecond, 1300 * time.Millisecond}, h.callTimes("LIST"))
	})
}

// TestCh05_RunStopsOnCancel_R1: Run returns when its context ends, also from inside a
// backoff wait, and from Run(stopCh).
func TestCh05_RunStopsOnCancel_R1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		src.FailNextLists(fakesource.NewInternalError("boom"))
		r := NewReflectorWithOptions(src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList})
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { r.Run(stop); close(done) }()
		synctest.Wait() // in the backoff wait
		close(stop)
		<-done

		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r.RunWithContext(ctx) // returns at once
	})
}
