package reflector

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// delayRecorder is a slog.Handler that keeps the "backoff" hops: when and how long.
type delayRecorder struct {
	mu     sync.Mutex
	at     []time.Time
	delays []time.Duration
}

func (d *delayRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (d *delayRecorder) WithAttrs([]slog.Attr) slog.Handler       { return d }
func (d *delayRecorder) WithGroup(string) slog.Handler            { return d }
func (d *delayRecorder) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "reflector backoff" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "delay" {
			d.mu.Lock()
			d.at = append(d.at, time.Now())
			d.delays = append(d.delays, a.Value.Duration())
			d.mu.Unlock()
		}
		return true
	})
	return nil
}

// TestCh05_ReflectorProperties_INV15_16_17_18 drives a reflector through random faults and
// checks the reflector properties of docs/behaviour/client-go.md §12.3, in both sync modes, then INV-1: after
// quiescence the store equals the server.
func TestCh05_ReflectorProperties_INV15_16_17_18(t *testing.T) {
	for seed := range uint64(12) {
		watchList := seed%2 == 0
		t.Run(fmt.Sprintf("seed=%d,watchList=%v", seed, watchList), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { chaosRun(t, seed, watchList) })
		})
	}
}

func chaosRun(t *testing.T, seed uint64, watchList bool) {
	rng := rand.New(rand.NewPCG(seed, 99))
	src := fakesource.New()
	names := []string{"a", "b", "c", "d", "e", "f"}
	live := map[string]bool{}
	for _, n := range names[:3] {
		mustAdd(t, src, n)
		live[n] = true
	}
	rec := &delayRecorder{}
	backoff := DefaultBackoff()
	backoff.Rand = rng.Float64
	st := newRecStore()
	h := start(t, src, nil, st, ReflectorOptions{UseWatchList: ptrTo(watchList), Backoff: &backoff, Logger: slog.New(rec)}).run()

	write := func() {
		n := names[rng.IntN(len(names))]
		switch {
		case !live[n]:
			mustAdd(t, src, n)
			live[n] = true
		case rng.IntN(3) == 0:
			mustDelete(t, src, n)
			live[n] = false
		default:
			mustModify(t, src, n)
		}
	}
	// settle waits until the reflector is watching again (bounded).
	settle := func() {
		for range 600 {
			if now, _ := src.OpenWatches(); now == 1 {
				return
			}
			advance(time.Second)
		}
		t.Fatal("the reflector never got back to watching")
	}

	for range 80 {
		advance(time.Duration(rng.IntN(5000)) * time.Millisecond)
		switch rng.IntN(9) {
		case 0, 1, 2:
			for range 1 + rng.IntN(3) {
				write()
			}
		case 3:
			src.Bookmark()
		case 4: // INV-17: a normal close of a watch older than 1 s never relists
			settle()
			advance(2 * time.Second)
			lists := src.Count("LIST")
			src.ResetWatches()
			settle()
			assert.Equal(t, lists, src.Count("LIST"), "INV-17: normal close")
		case 5: // INV-17: nor does a 429
			settle()
			lists := src.Count("LIST")
			src.SendError(fakesource.NewTooManyRequests())
			advance(61 * time.Second)
			settle()
			assert.Equal(t, lists, src.Count("LIST"), "INV-17: 429")
		case 6: // missed events, compaction, reset: the re-watch gets 410 and a relist repairs
			src.DropNextEvents(1 + rng.IntN(2))
			write()
			write()
			src.Compact()
			src.ResetWatches()
			settle()
		case 7: // the server answers errors for a while
			for range 1 + rng.IntN(3) {
				switch rng.IntN(4) {
				case 0:
					src.FailNextLists(fakesource.NewInternalError("etcd"))
				case 1:
					src.FailNextWatches(fakesource.NewTooManyRequests())
				case 2:
					src.FailNextWatches(fakesource.ErrConnectionRefused)
				case 3:
					src.CloseNextWatches(1)
				}
			}
			src.SendError(fakesource.NewExpired("too old"))
			settle()
		case 8: // the last RV becomes unusable for a LIST
			src.FailListAt(h.r.LastSyncResourceVersion(), fakesource.NewExpired("too old"))
			src.SendError(fakesource.NewExpired("too old"))
			settle()
			src.FailListAt(h.r.LastSyncResourceVersion(), nil)
		}
	}

	// Quiescence: one forced relist repairs anything a dropped event broke (INV-1, INV-4).
	settle()
	advance(2 * time.Second)
	src.SendError(fakesource.NewExpired("too old"))
	settle()
	advance(time.Second)
	assert.Equal(t, src.State(), st.State(), "INV-1: store == server")
	assert.Equal(t, src.ResourceVersion(), h.r.LastSyncResourceVersion(), "INV-4")
	h.stop()

	checkRequestRVs(t, src.Calls())
	_, most := src.OpenWatches()
	assert.Equal(t, 1, most, "INV-16: never two watches")
	checkDelays(t, h.born, rec)
}

// checkRequestRVs is INV-15: numeric RVs never decrease; "0" only before any RV was seen;
// "" only before any RV was seen (watch-list) or in a retry right after a failed request.
func checkRequestRVs(t *testing.T, calls []fakesource.Call) {
	t.Helper()
	var last int64 = -1
	for i, c := range calls {
		rv := c.Options.ResourceVersion
		switch rv {
		case "0":
			assert.Equal(t, int64(-1), last, "INV-15: call %d uses \"0\" after an RV was seen", i)
			assert.Equal(t, "LIST", c.Verb, "INV-15: only LISTs use \"0\"")
		case "":
			if c.Options.Continue != "" || last == -1 {
				continue
			}
			prev := calls[i-1]
			retry := prev.Verb == "LIST" || prev.IsWatchList()
			assert.True(t, retry && prev.Options.Continue == "", "INV-15: call %d uses \"\" without an unusable RV", i)
		default:
			n, err := strconv.ParseInt(rv, 10, 64)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, n, last, "INV-15: call %d goes back in RV", i)
			last = n
		}
	}
}

// checkDelays is INV-18: every delay lies in [base, 2·base) of the sequence, which restarts
// at 0.8 s when more than 2 minutes have passed since the last restart.
func checkDelays(t *testing.T, born time.Time, rec *delayRecorder) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	lastReset, step := born, 0
	for i, d := range rec.delays {
		if rec.at[i].Sub(lastReset) > 2*time.Minute {
			lastReset, step = rec.at[i], 0
		}
		base := defaultBases[min(step, len(defaultBases)-1)]
		assert.GreaterOrEqual(t, d, base, "INV-18: delay %d", i)
		assert.Less(t, d, 2*base, "INV-18: delay %d", i)
		step++
	}
	assert.NotEmpty(t, rec.delays)
}

// TestCh05_CompactionRelist_T9 is teaching point T9: while the reflector is disconnected the
// server changes and compacts its history; the re-watch from the old RV gets ERROR 410, and
// one LIST at that RV (not "") repairs the store.
func TestCh05_CompactionRelist_T9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		mustAdd(t, src, "b")
		st := newRecStore()
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList}).run()
		src.DropNextEvents(3) // the reflector misses these three writes
		mustModify(t, src, "a")
		mustDelete(t, src, "b")
		mustAdd(t, src, "c")
		src.Compact()
		advance(2 * time.Second)
		src.ResetWatches()
		advance(5 * time.Second) // the 410 ends the cycle; the relist follows one backoff later
		h.stop()
		assert.Equal(t, []string{"0", "2"}, src.ListRVs(), "one relist, at the last RV seen")
		assert.Equal(t, []string{"2", "2", "5"}, src.WatchRVs())
		assert.Equal(t, src.State(), st.State())
		assert.Equal(t, []string{"Replace [a@1 b@2] rv=2", "Replace [a@3 c@5] rv=5"}, st.Ops())
	})
}
