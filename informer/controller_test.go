package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/store"
)

// fakeQueue is a Queue whose Pop hands out what the test puts on items and records every call;
// once items is closed, or the queue is, Pop reports ErrFIFOClosed.
type fakeQueue struct {
	items  chan any
	closed chan struct{}
	once   sync.Once
	synced chan struct{}

	mu     sync.Mutex
	popsAt []time.Time
	batch  int
}

func newFakeQueue() *fakeQueue {
	return &fakeQueue{items: make(chan any), closed: make(chan struct{}), synced: make(chan struct{})}
}

func (q *fakeQueue) Add(any) error               { return nil }
func (q *fakeQueue) Update(any) error            { return nil }
func (q *fakeQueue) Delete(any) error            { return nil }
func (q *fakeQueue) Replace([]any, string) error { return nil }
func (q *fakeQueue) Resync() error               { return nil }
func (q *fakeQueue) Done() <-chan struct{}       { return q.synced }
func (q *fakeQueue) Close()                      { q.once.Do(func() { close(q.closed) }) }
func (q *fakeQueue) IsClosed() bool {
	select {
	case <-q.closed:
		return true
	default:
		return false
	}
}
func (q *fakeQueue) HasSynced() bool {
	select {
	case <-q.synced:
		return true
	default:
		return false
	}
}

func (q *fakeQueue) Pop(process deltafifo.PopProcessFunc) (any, error) {
	q.mu.Lock()
	q.popsAt = append(q.popsAt, time.Now())
	q.mu.Unlock()
	select {
	case it, ok := <-q.items:
		if !ok {
			return nil, deltafifo.ErrFIFOClosed
		}
		return it, process(it, false)
	case <-q.closed:
		return nil, deltafifo.ErrFIFOClosed
	}
}

func (q *fakeQueue) pops() []time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]time.Time(nil), q.popsAt...)
}

// fakeBatchQueue is a fakeQueue that can also PopBatch.
type fakeBatchQueue struct{ *fakeQueue }

func (q fakeBatchQueue) PopBatch(batch deltafifo.ProcessBatchFunc, single deltafifo.PopProcessFunc) error {
	q.mu.Lock()
	q.batch++
	q.mu.Unlock()
	select {
	case it, ok := <-q.items:
		if !ok {
			return deltafifo.ErrFIFOClosed
		}
		return batch([]deltafifo.Delta{{Type: deltafifo.Added, Object: it}}, false)
	case <-q.closed:
		return deltafifo.ErrFIFOClosed
	}
}

// TestCh06_Controller_C1_RunAndShutdown: Run runs the reflector and processLoop; when the
// context ends the queue is closed and Run returns once the reflector has stopped. synctest
// fails the test if any goroutine outlives it.
func TestCh06_Controller_C1_RunAndShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1", "p2")
		clientState := store.NewStore(keyFunc)
		queue := ProfileInOrder.newQueue(clientState, nil, nil)
		rec := newRecorder()
		c := New(&Config{
			Queue: queue, ListerWatcher: src, ObjectType: &api.Pod{}, UseWatchList: ptrTo(false),
			Process: func(obj any, init bool) error {
				return processDeltas(rec, clientState, obj.(deltafifo.Deltas), init, keyFunc)
			},
		})
		r := runInBubble(t, c.RunWithContext)
		assert.Equal(t, []string{"ADD p1@1 init", "ADD p2@2 init"}, rec.Lines())
		assert.False(t, queue.IsClosed())
		r.stop()
		assert.True(t, queue.IsClosed(), "C-1: the queue is closed when the context ends")
		assert.Equal(t, 1, src.Count("LIST"))
	})
}

// TestCh06_Controller_C1_ReflectorSettings: the reflector Run builds takes the Config's resync
// period, ShouldResync, page size and watch error handler (C-1).
func TestCh06_Controller_C1_ReflectorSettings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		clientState := store.NewStore(keyFunc)
		queue := ProfileClassic.newQueue(clientState, nil, nil)
		rec := newRecorder()
		var mu sync.Mutex
		var asked, handled int
		c := New(&Config{
			Queue: queue, ListerWatcher: src, ObjectType: &api.Pod{},
			FullResyncPeriod:             time.Second,
			ShouldResync:                 func() bool { mu.Lock(); defer mu.Unlock(); asked++; return asked%2 == 0 },
			WatchListPageSize:            7,
			UseWatchList:                 ptrTo(false),
			WatchErrorHandlerWithContext: func(context.Context, *reflector.Reflector, error) { mu.Lock(); handled++; mu.Unlock() },
			Process: func(obj any, init bool) error {
				return processDeltas(rec, clientState, obj.(deltafifo.Deltas), init, keyFunc)
			},
		})
		r := runInBubble(t, c.RunWithContext)
		defer r.stop()
		advance(4 * time.Second)
		mu.Lock()
		assert.Equal(t, 4, asked, "ShouldResync asked every FullResyncPeriod")
		mu.Unlock()
		assert.Equal(t, []string{"ADD p1@1 init", "UPD p1@1→p1@1", "UPD p1@1→p1@1"}, rec.Lines(),
			"only the ticks where ShouldResync said yes resynced")
		assert.Equal(t, int64(7), src.Calls()[0].Options.Limit, "WatchListPageSize")

		mu.Lock()
		assert.Zero(t, handled)
		mu.Unlock()
	})
}

// TestCh06_Controller_C1_WatchErrorHandler: a failed LIST goes to the Config's watch error
// handler, then the reflector backs off and lists again (C-1, R-20). The plain handler wins
// over the context one when both are set, as in client-go.
func TestCh06_Controller_C1_WatchErrorHandler(t *testing.T) {
	for _, both := range []bool{false, true} {
		t.Run(fmt.Sprintf("both=%v", both), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				src.FailNextLists(errors.New("connection reset"))
				var mu sync.Mutex
				var errs []string
				note := func(who string, err error) {
					mu.Lock()
					defer mu.Unlock()
					errs = append(errs, who+": "+err.Error())
				}
				q := ProfileClassic.newQueue(store.NewStore(keyFunc), nil, nil)
				cfg := &Config{Queue: q, ListerWatcher: src, ObjectType: &api.Pod{}, UseWatchList: ptrTo(false),
					WatchErrorHandlerWithContext: func(_ context.Context, _ *reflector.Reflector, err error) { note("ctx", err) },
					Process:                      func(any, bool) error { return nil }}
				want := "ctx: failed to list *api.Pod: connection reset"
				if both {
					cfg.WatchErrorHandler = func(_ *reflector.Reflector, err error) { note("plain", err) }
					want = "plain: failed to list *api.Pod: connection reset"
				}
				c := New(cfg)
				r := runInBubble(t, c.RunWithContext)
				defer r.stop()
				waitUntil(t, "the relist after the backoff", c.HasSynced)
				mu.Lock()
				defer mu.Unlock()
				assert.Equal(t, []string{want}, errs)
			})
		})
	}
}

// TestCh06_Controller_C1_ProcessLoopRestarts: if processLoop returns while the context is live
// (here: the queue reports closed), it is started again one second later (C-1).
func TestCh06_Controller_C1_ProcessLoopRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newFakeQueue()
		close(q.items)
		c := New(&Config{Queue: q, ListerWatcher: newSource(t), ObjectType: &api.Pod{}, UseWatchList: ptrTo(false),
			Process: func(any, bool) error { return nil }})
		start := time.Now()
		r := runInBubble(t, c.RunWithContext)
		advance(2500 * time.Millisecond)
		r.stop()
		var at []time.Duration
		for _, p := range q.pops() {
			at = append(at, p.Sub(start))
		}
		assert.Equal(t, []time.Duration{0, time.Second, 2 * time.Second}, at)
	})
}

// TestCh06_Controller_C2_PopOrPopBatch: processLoop uses PopBatch only when the queue can batch
// and ProcessBatch is set (C-2).
func TestCh06_Controller_C2_PopOrPopBatch(t *testing.T) {
	tests := []struct {
		name         string
		batchQueue   bool
		processBatch bool
		wantBatch    bool
	}{
		{"batch queue and ProcessBatch", true, true, true},
		{"batch queue without ProcessBatch", true, false, false},
		{"plain queue with ProcessBatch", false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fq := newFakeQueue()
				var q deltafifo.Queue = fq
				if tc.batchQueue {
					q = fakeBatchQueue{fq}
				}
				var got []string
				cfg := &Config{Queue: q, Process: func(obj any, _ bool) error { got = append(got, "single "+obj.(string)); return nil }}
				if tc.processBatch {
					cfg.ProcessBatch = func(d []deltafifo.Delta, _ bool) error { got = append(got, "batch "+d[0].Object.(string)); return nil }
				}
				c := New(cfg).(*controller)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); c.processLoop(ctx) }()
				fq.items <- "x"
				synctest.Wait()
				cancel()
				fq.Close()
				<-done
				want := "single x"
				if tc.wantBatch {
					want = "batch x"
				}
				assert.Equal(t, []string{want}, got)
			})
		})
	}
}

// TestCh06_Controller_C2_ContextCheckedBeforeEveryPop: once the context ends, processLoop pops
// nothing more, even if items remain (C-2: abandoned, not drained).
func TestCh06_Controller_C2_ContextCheckedBeforeEveryPop(t *testing.T) {
	clientState := store.NewStore(keyFunc)
	q := ProfileInOrder.newQueue(clientState, nil, nil)
	for _, n := range []string{"a", "b", "c"} {
		require.NoError(t, q.Add(pod(n, "1")))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	c := New(&Config{Queue: q, Process: func(obj any, _ bool) error {
		got = append(got, show(obj.(deltafifo.Deltas).Newest().Object))
		cancel()
		return nil
	}}).(*controller)
	c.processLoop(ctx)
	assert.Equal(t, []string{"a@1"}, got)
}

// TestCh06_Controller_C3_ErrorsDropTheItem: an error from the process function is ignored by
// processLoop and the item is not retried (C-3).
func TestCh06_Controller_C3_ErrorsDropTheItem(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			clientState := store.NewStore(keyFunc)
			q := p.newQueue(clientState, nil, nil)
			for _, n := range []string{"a", "b", "c"} {
				require.NoError(t, q.Add(pod(n, "1")))
			}
			ctx, cancel := context.WithCancel(context.Background())
			var got []string
			c := New(&Config{Queue: q, Process: func(obj any, _ bool) error {
				name := show(obj.(deltafifo.Deltas).Newest().Object)
				got = append(got, name)
				if name == "c@1" {
					cancel()
				}
				if name == "a@1" {
					return errors.New("handler failed")
				}
				return nil
			}}).(*controller)
			c.processLoop(ctx)
			assert.Equal(t, []string{"a@1", "b@1", "c@1"}, got, "a was processed once and dropped")
		})
	}
}

// TestCh06_Controller_C4_HasSyncedAndRV: HasSynced is the queue's, LastSyncResourceVersion the
// reflector's, "" before Run (C-4).
func TestCh06_Controller_C4_HasSyncedAndRV(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newFakeQueue()
		c := New(&Config{Queue: q, ListerWatcher: newSource(t, "p1"), ObjectType: &api.Pod{}, UseWatchList: ptrTo(false),
			Process: func(any, bool) error { return nil }})
		assert.False(t, c.HasSynced())
		assert.False(t, processor.IsDone(c.HasSyncedChecker()))
		close(q.synced)
		assert.True(t, c.HasSynced())
		assert.True(t, processor.IsDone(c.HasSyncedChecker()))

		assert.Empty(t, c.LastSyncResourceVersion(), "before Run")
		r := runInBubble(t, c.RunWithContext)
		defer r.stop()
		assert.Equal(t, "1", c.LastSyncResourceVersion())
	})
}

// TestCh06_Pauser: a paused controller pops nothing; Resume lets it go on. A nil Pauser never
// pauses.
func TestCh06_Pauser(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var nilPauser *Pauser
		assert.True(t, nilPauser.wait(context.Background()))

		p := &Pauser{}
		p.Pause()
		p.Pause()
		assert.True(t, p.Paused())
		rec := newRecorder()
		st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: newSource(t, "p1"), ObjectType: &api.Pod{}, Handler: rec, Pauser: p})
		r := runInBubble(t, ctl.RunWithContext)
		assert.Empty(t, rec.Lines())
		assert.Empty(t, st.ListKeys())
		p.Resume()
		p.Resume()
		synctest.Wait()
		assert.False(t, p.Paused())
		assert.Equal(t, []string{"ADD p1@1 init"}, rec.Lines())

		p.Pause()
		r.stop() // a paused controller still stops
	})
}

func ptrTo[T any](v T) *T { return &v }
