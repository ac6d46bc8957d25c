package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
)

// TestCh05_WatchOptions_R13: the watch starts at the list RV, with bookmarks on and a timeout
// drawn from [min, 2·min), min = max(5 min, MinWatchTimeout).
func TestCh05_WatchOptions_R13(t *testing.T) {
	tests := []struct {
		name     string
		min      time.Duration
		from, to int64
	}{
		{"default", 0, 300, 600},
		{"MinWatchTimeout below 5 min is ignored", time.Minute, 300, 600},
		{"MinWatchTimeout 10 min", 10 * time.Minute, 600, 1200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				mustAdd(t, src, "a")
				h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, MinWatchTimeout: tt.min}).run()
				// Every timeout closes the watch normally; each re-watch draws a new timeout.
				advance(3 * time.Hour)
				h.stop()
				for _, c := range src.Calls() {
					if c.Verb != "WATCH" {
						continue
					}
					assert.Equal(t, "1", c.Options.ResourceVersion)
					assert.True(t, c.Options.AllowWatchBookmarks)
					assert.Nil(t, c.Options.SendInitialEvents)
					require.NotNil(t, c.Options.TimeoutSeconds)
					assert.GreaterOrEqual(t, *c.Options.TimeoutSeconds, tt.from)
					assert.Less(t, *c.Options.TimeoutSeconds, tt.to)
				}
				assert.Greater(t, src.Count("WATCH"), 10)
				assert.Equal(t, 1, src.Count("LIST"), "timeouts never relist (R-16)")
			})
		})
	}
}

// TestCh05_WatchOpenRetriable_R13: a 429 or a refused connection when opening the watch waits
// one backoff delay and re-watches from the same RV, without a relist or the handler.
func TestCh05_WatchOpenRetriable_R13(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		src.FailNextWatches(fakesource.NewTooManyRequests(), fakesource.ErrConnectionRefused)
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()
		advance(5 * time.Second)
		h.stop()
		assert.Equal(t, []time.Duration{0, 800 * time.Millisecond, 2400 * time.Millisecond}, h.callTimes("WATCH"))
		assert.Equal(t, []string{"1", "1", "1"}, src.WatchRVs())
		assert.Equal(t, 1, src.Count("LIST"))
		assert.Empty(t, h.errs())
	})
}

// TestCh05_WatchOpenOtherErrors_R13_R17: any other open error, 410 included, is returned from
// ListAndWatch: the handler sees it, and the next cycle relists after a backoff, at the last
// RV (a watch 410 does not set the unavailable flag).
func TestCh05_WatchOpenOtherErrors_R13_R17(t *testing.T) {
	for _, openErr := range []error{fakesource.NewExpired("too old resource version: 1 (3)"), fakesource.NewBadRequest("bad")} {
		t.Run(string(api.ReasonForError(openErr)), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				mustAdd(t, src, "a")
				src.FailNextWatches(openErr)
				h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()
				advance(time.Second)
				h.stop()
				require.Len(t, h.errs(), 1)
				assert.Same(t, openErr, h.errs()[0])
				assert.Equal(t, []string{"0", "1"}, src.ListRVs())
				assert.Equal(t, []time.Duration{0, 800 * time.Millisecond}, h.callTimes("LIST"))
			})
		})
	}
}

// TestCh05_EventsToStoreOps_R14_R19: ADDED, MODIFIED and DELETED become Add, Update and Delete
// with the event's object; a BOOKMARK writes nothing but reaches Bookmark; every event's RV
// becomes LastSyncResourceVersion and is passed to UpdateResourceVersion.
func TestCh05_EventsToStoreOps_R14_R19(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		st := &bookmarkStore{recStore: newRecStore()}
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList}).run()

		var rvs []string
		step := func(f func()) {
			f()
			synctest.Wait()
			rvs = append(rvs, h.r.LastSyncResourceVersion())
		}
		step(func() { mustAdd(t, src, "b") })
		step(func() { mustModify(t, src, "a") })
		step(func() { mustDelete(t, src, "b") })
		step(src.Bookmark)
		h.stop()

		assert.Equal(t, []string{
			"Replace [a@1] rv=1",
			"Add b@2",
			"Update a@3",
			"Delete b@4", // the last state, at the delete's RV (W10)
			"Bookmark rv=4",
		}, st.Ops())
		assert.Equal(t, []string{"2", "3", "4", "4"}, rvs)
		assert.Equal(t, []string{"2", "3", "4", "4"}, st.rvUpdates)
		assert.Equal(t, map[string]string{"ns/a": "3"}, st.State())
	})
}

// fakeLW is a ListWatch over a list answer and a queue of test-driven FakeWatchers.
type fakeLW struct {
	mu       sync.Mutex
	list     func(opts api.ListOptions) (api.Object, error)
	watchers []*watch.FakeWatcher
	opened   chan *watch.FakeWatcher
	opts     []api.ListOptions
}

func newFakeLW(listRV string, items ...api.Pod) *fakeLW {
	f := &fakeLW{opened: make(chan *watch.FakeWatcher, 16)}
	f.list = func(api.ListOptions) (api.Object, error) {
		return &api.PodList{ListMeta: api.ListMeta{ResourceVersion: listRV}, Items: items}, nil
	}
	return f
}

func (f *fakeLW) List(opts api.ListOptions) (api.Object, error) { return f.list(opts) }

func (f *fakeLW) Watch(opts api.ListOptions) (watch.Interface, error) {
	w := watch.NewFake()
	f.mu.Lock()
	f.watchers = append(f.watchers, w)
	f.opts = append(f.opts, opts)
	f.mu.Unlock()
	f.opened <- w
	return w, nil
}

// TestCh05_SkippedEvents_R14: events of another Go type, another kind (unstructured), Table
// rows and objects without metadata are skipped; store errors are logged, not fatal; the
// watch goes on and the RV still advances for accepted events.
func TestCh05_SkippedEvents_R14(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := newFakeLW("1")
		st := newRecStore()
		logs := &logBuffer{}
		r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{UseWatchList: noWatchList, Logger: newLogger(logs, slog.LevelWarn)})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { r.RunWithContext(ctx); close(done) }()
		w := <-lw.opened

		w.Add(&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm", ResourceVersion: "2"}})
		w.Add(&api.PodList{})
		w.Add((*api.Pod)(nil))
		w.Add(pod("ok", "5"))
		synctest.Wait() // the reflector is done with "ok"
		st.mu.Lock()
		st.addErr = errors.New("disk full")
		st.mu.Unlock()
		w.Add(pod("rejected", "6"))
		synctest.Wait()
		assert.Equal(t, "6", r.LastSyncResourceVersion(), "a store error does not stop the RV")
		cancel()
		<-done

		assert.Equal(t, []string{"Replace [] rv=1", "Add ok@5", "Add rejected@6"}, st.Ops())
		assert.Len(t, logs.lines("unexpected watch event object type"), 2, "ConfigMap and PodList")
		assert.Len(t, logs.lines("unable to understand watch event"), 1, "nil pod")
		assert.Len(t, logs.lines("store rejected a watch event", "disk full"), 1)
		assert.Len(t, lw.watchers, 1, "skips never end the watch")
	})
}

// TestCh05_UnstructuredKindCheck_R14: with an unstructured expected type, the kind decides.
func TestCh05_UnstructuredKindCheck_R14(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		u := func(apiVersion, kind, name, rv string) *api.Unstructured {
			o := &api.Unstructured{Object: map[string]any{}}
			o.SetAPIVersion(apiVersion)
			o.SetKind(kind)
			o.SetName(name)
			o.SetResourceVersion(rv)
			return o
		}
		lw := newFakeLW("1")
		lw.list = func(api.ListOptions) (api.Object, error) {
			l := &api.UnstructuredList{Object: map[string]any{}}
			l.SetResourceVersion("1")
			return l, nil
		}
		st := newRecStore()
		r := NewReflectorWithOptions(lw, u("v1", "Pod", "", ""), st, ReflectorOptions{UseWatchList: noWatchList})
		assert.Equal(t, "/v1, Kind=Pod", r.TypeDescription())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { r.RunWithContext(ctx); close(done) }()
		w := <-lw.opened
		w.Add(u("v1", "ConfigMap", "cm", "2"))
		w.Add(u("meta.k8s.io/v1", "Table", "t", "3"))
		w.Add(u("v1", "Pod", "p", "4"))
		synctest.Wait()
		cancel()
		<-done
		assert.Equal(t, []string{"Replace [] rv=1", "Add p@4"}, st.Ops())
	})
}

// TestCh05_InitialAddsRVNotRecorded_R15: a watch from "" (here because the list had no RV)
// starts with synthetic ADDED events in no RV order, so their RVs are not recorded until a
// non-ADDED event arrives. A watch from a real RV records every RV at once.
func TestCh05_InitialAddsRVNotRecorded_R15(t *testing.T) {
	tests := []struct {
		listRV string
		want   []string // LastSyncResourceVersion after ADDED@5, ADDED@3, MODIFIED@7
	}{
		{"", []string{"", "", "7"}},
		{"2", []string{"5", "3", "7"}},
	}
	for _, tt := range tests {
		t.Run("list RV "+tt.listRV, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lw := newFakeLW(tt.listRV)
				r := NewReflectorWithOptions(lw, &api.Pod{}, newRecStore(), ReflectorOptions{UseWatchList: noWatchList})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { r.RunWithContext(ctx); close(done) }()
				w := <-lw.opened
				var got []string
				for _, ev := range []watch.Event{{Type: watch.Added, Object: pod("x", "5")}, {Type: watch.Added, Object: pod("y", "3")}, {Type: watch.Modified, Object: pod("x", "7")}} {
					w.Action(ev.Type, ev.Object)
					synctest.Wait()
					got = append(got, r.LastSyncResourceVersion())
				}
				cancel()
				<-done
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

// TestCh05_NormalCloseRewatch_T8_R16: teaching point T8. A watch that ends normally (its
// timeout) after a bookmark is re-opened at once from the bookmark's RV: no relist, no backoff.
func TestCh05_NormalCloseRewatch_T8_R16(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList}).run()
		// Writes to other resources move the RV; only a bookmark tells this watcher so.
		src.AdvanceResourceVersion(49)
		src.Bookmark()
		synctest.Wait()
		advance(1100 * time.Millisecond)
		src.ResetWatches()
		synctest.Wait()
		h.stop()
		assert.Equal(t, []string{"1", "50"}, src.WatchRVs())
		w := h.callTimes("WATCH")
		assert.Equal(t, 1100*time.Millisecond, w[1], "re-watch at the same instant as the close")
		assert.Equal(t, 1, src.Count("LIST"))
	})
}

// TestCh05_VeryShortWatch_R16: a watch that closes within a second having delivered nothing
// is a VeryShortWatchError: the cycle ends, and after a backoff the reflector relists
// (unpaged, at the last RV). The error does not reach the handler.
func TestCh05_VeryShortWatch_R16(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		src.CloseNextWatches(1)
		logs := &logBuffer{}
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter(), Logger: newLogger(logs, slog.LevelWarn)}).run()
		advance(time.Second)
		h.stop()
		assert.Equal(t, []time.Duration{0, 800 * time.Millisecond}, h.callTimes("LIST"))
		assert.Equal(t, []string{"0", "1"}, src.ListRVs())
		assert.Empty(t, h.errs())
		assert.Len(t, logs.lines("very short watch: test: Unexpected watch close"), 1)
		var vs *VeryShortWatchError
		assert.ErrorAs(t, fmt.Errorf("wrapped: %w", &VeryShortWatchError{Name: "x"}), &vs)
	})
}

// TestCh05_WatchEndings_R16 is the table of R-16: how each way a watch ends decides what
// happens next. Each case starts from a synced reflector (LIST RV "0" → 1, WATCH "1") and
// looks at the next requests.
func TestCh05_WatchEndings_R16(t *testing.T) {
	tests := []struct {
		name       string
		maxRetry   time.Duration
		end        func(src *fakesource.Source)
		wantLists  []string
		wantWatchs []string
		wantGap    time.Duration // from the end of the watch to the next request
	}{
		{"normal close: re-watch now", 0, func(s *fakesource.Source) { s.ResetWatches() }, []string{"0"}, []string{"1", "1"}, 0},
		{"410 Expired: relist at last RV after backoff", 0, func(s *fakesource.Source) { s.SendError(fakesource.NewExpired("too old")) },
			[]string{"0", "1"}, []string{"1", "1"}, 800 * time.Millisecond},
		{"410 Gone: same", 0, func(s *fakesource.Source) { s.SendError(fakesource.NewGone("gone")) },
			[]string{"0", "1"}, []string{"1", "1"}, 800 * time.Millisecond},
		{"429: backoff, re-watch, no relist", 0, func(s *fakesource.Source) { s.SendError(fakesource.NewTooManyRequests()) },
			[]string{"0"}, []string{"1", "1"}, 800 * time.Millisecond},
		{"500 without retry window: relist", 0, func(s *fakesource.Source) { s.SendError(fakesource.NewInternalError("x")) },
			[]string{"0", "1"}, []string{"1", "1"}, 800 * time.Millisecond},
		{"500 within MaxInternalErrorRetryDuration: re-watch now", time.Minute, func(s *fakesource.Source) { s.SendError(fakesource.NewInternalError("x")) },
			[]string{"0"}, []string{"1", "1"}, 0},
		{"other error: relist after backoff", 0, func(s *fakesource.Source) { s.SendError(fakesource.NewBadRequest("nope")) },
			[]string{"0", "1"}, []string{"1", "1"}, 800 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				mustAdd(t, src, "a")
				h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()})
				h.r.MaxInternalErrorRetryDuration = tt.maxRetry
				h.run()
				advance(2 * time.Second) // the watch is not "very short"
				endAt := time.Now()
				tt.end(src)
				advance(time.Second)
				h.stop()
				assert.Equal(t, tt.wantLists, src.ListRVs())
				assert.Equal(t, tt.wantWatchs, src.WatchRVs())
				calls := src.Calls()
				assert.Equal(t, tt.wantGap, calls[len(calls)-1].At.Sub(endAt), "time to the next request")
				assert.Empty(t, h.errs(), "errors that end an established watch never reach the handler (R-17)")
			})
		})
	}
}

// TestCh05_InternalErrorWindow_R16: 500s are retried at once only while they have been
// happening for no longer than MaxInternalErrorRetryDuration; after that, relist.
func TestCh05_InternalErrorWindow_R16(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()})
		h.r.MaxInternalErrorRetryDuration = 30 * time.Second
		h.run()
		for range 4 { // 500s at 2 s, 14 s, 26 s, 38 s: the last is past the 30 s window
			advance(2 * time.Second)
			src.SendError(fakesource.NewInternalError("x"))
			synctest.Wait()
			advance(10 * time.Second)
		}
		h.stop()
		assert.Equal(t, []string{"0", "1"}, src.ListRVs(), "only the 4th 500 relists")
		assert.Equal(t, 5, src.Count("WATCH"))
	})
}

// TestCh05_HandlerOnlyForListAndOpen_R17 counts the handler calls across every kind of
// failure: only the failed LIST and the failed watch open reach it.
func TestCh05_HandlerOnlyForListAndOpen_R17(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		src.FailNextLists(fakesource.NewInternalError("list failed"))
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList}).run()
		advance(2 * time.Second)
		for _, st := range []*api.Status{fakesource.NewExpired("x"), fakesource.NewInternalError("x"), fakesource.NewTooManyRequests(), fakesource.NewBadRequest("x")} {
			advance(2 * time.Second)
			src.SendError(st)
			advance(time.Minute)
		}
		src.CloseNextWatches(1)
		src.ResetWatches()
		advance(time.Minute)
		src.FailNextWatches(fakesource.NewBadRequest("open failed"))
		src.ResetWatches()
		advance(time.Minute)
		h.stop()
		var msgs []string
		for _, err := range h.errs() {
			msgs = append(msgs, err.Error())
		}
		assert.Equal(t, []string{"failed to list *api.Pod: Internal error occurred: list failed", "open failed"}, msgs)
	})
}

// TestCh05_WatchersStopped_R18_INV16: across many cycles of every kind, the reflector never
// has two watches open, and none is left open once Run returns.
func TestCh05_WatchersStopped_R18_INV16(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList}).run()
		for i := range 20 {
			advance(2 * time.Second)
			switch i % 4 {
			case 0:
				src.ResetWatches()
			case 1:
				src.SendError(fakesource.NewExpired("x"))
			case 2:
				src.SendError(fakesource.NewTooManyRequests())
			case 3:
				mustModify(t, src, "a")
			}
			advance(time.Minute)
		}
		h.cancel()
		<-h.done
		now, most := src.OpenWatches()
		assert.Equal(t, 0, now, "Run stopped its watcher")
		assert.Equal(t, 1, most)
		assert.Greater(t, src.Count("WATCH"), 15)
	})
}

// TestCh05_LastSyncConcurrentReads_R19: LastSyncResourceVersion may be read from any
// goroutine while events flow (checked by -race).
func TestCh05_LastSyncConcurrentReads_R19(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "seed") // so that the watch starts at a real RV
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList}).run()
		stop := make(chan struct{})
		readerDone := make(chan struct{})
		go func() {
			defer close(readerDone)
			for {
				select {
				case <-stop:
					return
				default:
					_ = h.r.LastSyncResourceVersion()
					time.Sleep(time.Millisecond)
				}
			}
		}()
		for i := range 100 {
			mustAdd(t, src, fmt.Sprint("p", i))
		}
		synctest.Wait()
		close(stop)
		<-readerDone
		assert.Equal(t, "101", h.r.LastSyncResourceVersion())
		h.stop()
	})
}

// TestCh05_DefaultWatchErrorHandler_R20: 410 at Debug, io.EOF silent, unexpected EOF at Info,
// anything else at Error; a nil logger is silent.
func TestCh05_DefaultWatchErrorHandler_R20(t *testing.T) {
	logs := &logBuffer{}
	r := NewReflectorWithOptions(fakesource.New(), &api.Pod{}, newRecStore(), ReflectorOptions{Name: "r", Logger: newLogger(logs, slog.LevelDebug)})
	ctx := context.Background()
	DefaultWatchErrorHandler(ctx, r, fakesource.NewExpired("too old"))
	DefaultWatchErrorHandler(ctx, r, io.EOF)
	DefaultWatchErrorHandler(ctx, r, io.ErrUnexpectedEOF)
	DefaultWatchErrorHandler(ctx, r, errors.New("boom"))
	assert.Equal(t, []string{
		`level=DEBUG msg="reflector watch error" reflector=r type=*api.Pod err="too old"`,
		`level=INFO msg="reflector watch error" reflector=r type=*api.Pod err="unexpected EOF"`,
		`level=ERROR msg="reflector watch error" reflector=r type=*api.Pod err=boom`,
	}, logs.lines("reflector watch error"))

	silent := NewReflector(fakesource.New(), nil, newRecStore(), 0)
	DefaultWatchErrorHandler(ctx, silent, errors.New("boom")) // no logger: nothing, no panic
	DefaultWatchErrorHandler(ctx, nil, errors.New("boom"))
}

// TestCh05_ErrorEventObjects_LW5: an ERROR event's Status becomes the watch's error, also as
// an unstructured Status (a dynamic client); anything else in an ERROR event is an
// "unexpected object" error. Either way the watch ends and the next cycle relists.
func TestCh05_ErrorEventObjects_LW5(t *testing.T) {
	unstructuredExpired := &api.Unstructured{Object: map[string]any{
		"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired", "code": int64(410), "message": "too old",
	}}
	tests := []struct {
		name    string
		obj     api.Object
		warning string // "" means handled quietly as a 410
	}{
		{"Status 410", fakesource.NewExpired("too old"), ""},
		{"unstructured Status 410", unstructuredExpired, ""},
		{"Status 400", fakesource.NewBadRequest("bad"), "bad"},
		{"not a Status", pod("x", "9"), "unexpected object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lw := newFakeLW("1")
				logs := &logBuffer{}
				r := NewReflectorWithOptions(lw, &api.Pod{}, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Logger: newLogger(logs, slog.LevelWarn)})
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { r.RunWithContext(ctx); close(done) }()
				w := <-lw.opened
				w.Error(tt.obj)
				synctest.Wait()
				assert.True(t, w.IsStopped(), "the ERROR event ended the watch")
				ended := logs.lines("watch ended with error")
				if tt.warning == "" {
					assert.Empty(t, ended)
				} else {
					require.Len(t, ended, 1)
					assert.Contains(t, ended[0], tt.warning)
				}
				time.Sleep(2 * time.Second) // virtual: past the backoff
				<-lw.opened                 // the relist is followed by a new watch
				cancel()
				<-done
			})
		})
	}
}

// TestCh05_ErrorPredicates classifies the errors the reflector tells apart.
func TestCh05_ErrorPredicates(t *testing.T) {
	legacy := &api.Status{Code: 504, Reason: api.StatusReasonTimeout, Message: "Too large resource version: 5, current: 3"}
	tests := []struct {
		name                                         string
		err                                          error
		expired, tooLarge, retriable, internal, many bool
	}{
		{"Expired", fakesource.NewExpired("x"), true, false, false, false, false},
		{"Gone", fakesource.NewGone("x"), true, false, false, false, false},
		{"410 without reason", &api.Status{Code: 410}, true, false, false, false, false},
		{"too large (cause)", fakesource.NewTooLargeResourceVersion(5, 3), false, true, false, false, false},
		{"too large (legacy message)", legacy, false, true, false, false, false},
		{"plain timeout", &api.Status{Code: 504, Reason: api.StatusReasonTimeout, Message: "slow"}, false, false, false, false, false},
		{"429", fakesource.NewTooManyRequests(), false, false, true, false, true},
		{"429 code only", &api.Status{Code: 429, Reason: api.StatusReasonServiceUnavailable}, false, false, true, false, true},
		{"connection refused", fmt.Errorf("watch: %w", fakesource.ErrConnectionRefused), false, false, true, false, false},
		{"500", fakesource.NewInternalError("x"), false, false, false, true, false},
		{"500 without reason", &api.Status{Code: 500}, false, false, false, true, false},
		{"plain error", errors.New("x"), false, false, false, false, false},
		{"nil", nil, false, false, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.expired, IsExpiredError(tt.err), "expired")
			assert.Equal(t, tt.tooLarge, IsTooLargeResourceVersionError(tt.err), "too large")
			assert.Equal(t, tt.retriable, isWatchErrorRetriable(tt.err), "retriable")
			assert.Equal(t, tt.internal, api.IsInternalError(tt.err), "internal")
			assert.Equal(t, tt.many, api.IsTooManyRequests(tt.err), "429")
		})
	}
}

// TestCh05_Names covers the naming defaults.
func TestCh05_Names(t *testing.T) {
	r := NewReflector(fakesource.New(), &api.Pod{}, newRecStore(), 0)
	assert.Regexp(t, `^watch_test\.go:\d+$`, r.Name(), "named after the caller")
	assert.Equal(t, "*api.Pod", r.TypeDescription())
	assert.Equal(t, "<unspecified>", NewNamedReflector("n", fakesource.New(), nil, newRecStore(), 0).TypeDescription())
	assert.Equal(t, "n", NewNamedReflector("n", fakesource.New(), nil, newRecStore(), 0).Name())
	r2 := NewReflectorWithOptions(fakesource.New(), nil, newRecStore(), ReflectorOptions{TypeDescription: "pods"})
	assert.Equal(t, "pods", r2.TypeDescription())
}

var _ listwatch.ListerWatcher = (*fakeLW)(nil)
