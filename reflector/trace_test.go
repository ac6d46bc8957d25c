package reflector

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// TestCh05_TraceHops: with a Logger, every step of a cycle logs one Debug hop with the
// standard attributes, in order: list, replace, watch-start, event (with its type), bookmark,
// watch-end, backoff, relist, resync.
func TestCh05_TraceHops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		logs := &logBuffer{}
		h := start(t, src, nil, newRecStore(), ReflectorOptions{
			UseWatchList: noWatchList, Backoff: zeroJitter(), ResyncPeriod: time.Minute,
			Logger: trace.NewPlainLogger(logs),
		}).run()
		mustAdd(t, src, "b")
		mustModify(t, src, "a")
		mustDelete(t, src, "b")
		src.Bookmark()
		advance(2 * time.Second)
		src.SendError(fakesource.NewExpired("too old"))
		advance(70 * time.Second)
		h.stop()

		want := []string{
			`msg="reflector list" component=reflector op=list key="" rv=0`,
			`msg="reflector replace" component=reflector op=replace key="" rv=1 items=1`,
			`msg="reflector watch-start" component=reflector op=watch-start key="" rv=1`,
			`msg="reflector event" component=reflector op=event key=ns/b rv=2 type=ADDED`,
			`msg="reflector event" component=reflector op=event key=ns/a rv=3 type=MODIFIED`,
			`msg="reflector event" component=reflector op=event key=ns/b rv=4 type=DELETED`,
			`msg="reflector bookmark" component=reflector op=bookmark key="" rv=4`,
			`msg="reflector watch-end" component=reflector op=watch-end key="" rv=4 reason="too old"`,
			`msg="reflector backoff" component=reflector op=backoff key="" rv=4 delay=800ms`,
			`msg="reflector relist" component=reflector op=relist key="" rv=4`,
			`msg="reflector replace" component=reflector op=replace key="" rv=4 items=1`,
			`msg="reflector watch-start" component=reflector op=watch-start key="" rv=4`,
			`msg="reflector resync" component=reflector op=resync key="" rv=4`,
			`msg="reflector watch-end" component=reflector op=watch-end key="" rv=4 reason=stopped`,
		}
		assert.Equal(t, want, logs.lines("component=reflector"))
	})
}

// sliceWatcher is a watch whose events are all queued already; it ends after the last.
type sliceWatcher struct{ ch chan watch.Event }

func newSliceWatcher(events []watch.Event) *sliceWatcher {
	ch := make(chan watch.Event, len(events))
	for _, ev := range events {
		ch <- ev
	}
	close(ch)
	return &sliceWatcher{ch: ch}
}

func (w *sliceWatcher) Stop()                          {}
func (w *sliceWatcher) ResultChan() <-chan watch.Event { return w.ch }

// nopStore accepts everything and keeps nothing, so a measurement sees only the reflector.
type nopStore struct{}

func (nopStore) Add(any) error               { return nil }
func (nopStore) Update(any) error            { return nil }
func (nopStore) Delete(any) error            { return nil }
func (nopStore) Replace([]any, string) error { return nil }
func (nopStore) Resync() error               { return nil }

// TestCh05_TraceDisabledAllocatesNothing: with no logger (or Debug off), the watch loop
// allocates nothing per event: 1000 events cost the same handful of allocations as one.
func TestCh05_TraceDisabledAllocatesNothing(t *testing.T) {
	p := pod("a", "7")
	events := make([]watch.Event, 1000)
	for i := range events {
		events[i] = watch.Event{Type: watch.Modified, Object: p}
	}
	for _, logger := range []*slog.Logger{nil, slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))} {
		r := NewReflectorWithOptions(fakesource.New(), &api.Pod{}, nopStore{}, ReflectorOptions{Name: "bench", Logger: logger})
		setRV := func(rv string, _ bool) { r.setLastSyncResourceVersion(rv) }
		var ws []*sliceWatcher
		for range 20 {
			ws = append(ws, newSliceWatcher(events))
		}
		i := 0
		allocs := testing.AllocsPerRun(10, func() {
			_, err := r.handleAnyWatch(context.Background(), time.Now(), ws[i], nopStore{}, setRV, false, nil)
			require.NoError(t, err)
			i++
		})
		assert.Less(t, allocs, 10.0, "allocations per 1000 events")
	}
}

// TestCh05_TraceEnabledCostsAllocations shows the other side: a Debug logger allocates.
func TestCh05_TraceEnabledCostsAllocations(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r := NewReflectorWithOptions(fakesource.New(), &api.Pod{}, nopStore{}, ReflectorOptions{Logger: logger})
	events := []watch.Event{{Type: watch.Added, Object: pod("a", "1")}}
	var sb strings.Builder
	allocs := testing.AllocsPerRun(10, func() {
		_, _ = r.handleAnyWatch(context.Background(), time.Now(), newSliceWatcher(events), nopStore{}, func(string, bool) {}, false, nil)
		sb.WriteString(".")
	})
	assert.Greater(t, allocs, 3.0)
}
