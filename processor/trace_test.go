package processor

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// safeBuffer lets the test read what several goroutines logged; slog's handler already
// serialises the writes.
type safeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the lines written since the last call.
func (b *safeBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(b.buf.String())
	b.buf.Reset()
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// The hops of one listener, step by step: the first notification goes straight to the
// handler, the second waits as pop's next one, the third is buffered; when the handler is
// released pop hands the buffered one over while run delivers the second (those two lines
// come from two goroutines, so their order is free).
func TestCh07_TraceHops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out safeBuffer
		log := trace.NewPlainLogger(&out)
		gate := make(chan struct{})
		p := NewSharedProcessor(ProcessorOptions{Logger: log})
		l := newListener(t, &recorder{gate: gate}, alreadySynced(), ListenerOptions{Name: "slow", Logger: log})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		p.Distribute(AddNotification{NewObj: pod("a", "1"), IsInInitialList: true}, false)
		synctest.Wait()
		assert.Equal(t, []string{
			`msg="processor distribute" component=processor op=distribute key=ns/a rv=1 type=add init=true sync=false listeners=1`,
			`msg="listener add" component=listener op=add key=ns/a rv=1 type=add listener=slow init=true`,
			`msg="listener pop" component=listener op=pop key=ns/a rv=1 type=add listener=slow init=true pending=0`,
			`msg="listener deliver" component=listener op=deliver key=ns/a rv=1 type=add listener=slow init=true`,
		}, out.lines())

		p.Distribute(UpdateNotification{OldObj: pod("a", "1"), NewObj: pod("a", "2")}, false)
		synctest.Wait()
		assert.Equal(t, []string{
			`msg="processor distribute" component=processor op=distribute key=ns/a rv=2 type=update old_rv=1 sync=false listeners=1`,
			`msg="listener add" component=listener op=add key=ns/a rv=2 type=update listener=slow old_rv=1`,
			`msg="listener pop" component=listener op=pop key=ns/a rv=2 type=update listener=slow old_rv=1 pending=0`,
		}, out.lines())

		p.Distribute(DeleteNotification{OldObj: tombstone{Key: "ns/a", Obj: pod("a", "2")}}, false)
		synctest.Wait()
		assert.Equal(t, []string{
			`msg="processor distribute" component=processor op=distribute key=ns/a rv=2 type=delete sync=false listeners=1`,
			`msg="listener add" component=listener op=add key=ns/a rv=2 type=delete listener=slow`,
			`msg="listener buffer" component=listener op=buffer key=ns/a rv=2 type=delete listener=slow pending=1 cap=1024`,
		}, out.lines())

		p.Distribute(resyncOf(pod("a", "2")), true) // flagged: no check has run yet
		p.ShouldResync()                            // period 0: no longer flagged
		p.Distribute(resyncOf(pod("a", "2")), true)
		close(gate)
		synctest.Wait()
		assert.ElementsMatch(t, []string{
			`msg="processor distribute" component=processor op=distribute key=ns/a rv=2 type=update old_rv=2 sync=true listeners=1`,
			`msg="listener add" component=listener op=add key=ns/a rv=2 type=update listener=slow old_rv=2`,
			`msg="listener buffer" component=listener op=buffer key=ns/a rv=2 type=update listener=slow old_rv=2 pending=2 cap=1024`,
			`msg="processor distribute" component=processor op=distribute key=ns/a rv=2 type=update old_rv=2 sync=true listeners=0`,
			`msg="listener deliver" component=listener op=deliver key=ns/a rv=2 type=update listener=slow old_rv=1`,
			`msg="listener pop" component=listener op=pop key=ns/a rv=2 type=delete listener=slow pending=1`,
			`msg="listener deliver" component=listener op=deliver key=ns/a rv=2 type=delete listener=slow`,
			`msg="listener pop" component=listener op=pop key=ns/a rv=2 type=update listener=slow old_rv=2 pending=0`,
			`msg="listener deliver" component=listener op=deliver key=ns/a rv=2 type=update listener=slow old_rv=2`,
		}, out.lines())
	})
}

// A panic under SkipAndContinue is logged at Error level with the listener and the value.
func TestCh07_PanicIsLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out safeBuffer
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, ResourceEventHandlerFuncs{DeleteFunc: func(any) { panic("boom") }}, alreadySynced(),
			ListenerOptions{Name: "h", Logger: slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelError})), PanicPolicy: SkipAndContinue})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()
		p.Distribute(DeleteNotification{OldObj: pod("a", "1")}, false)
		p.Distribute(42, false)
		synctest.Wait()
		lines := out.lines()
		require.Len(t, lines, 1, "the unrecognised notification waits out the pause after the panic")
		assert.Contains(t, lines[0], `level=ERROR msg="Observed a panic" listener=h panic=boom policy=SkipAndContinue`)
	})
}

// Trace hops cost nothing when Debug is off: Add on a running listener allocates nothing with
// a disabled logger, and does allocate with an enabled one (so the guard is what saves it).
func TestCh07_TraceDisabledAllocatesNothing(t *testing.T) {
	measure := func(log *slog.Logger) float64 {
		p := NewSharedProcessor(ProcessorOptions{Logger: log})
		l := newListener(t, ResourceEventHandlerFuncs{}, alreadySynced(), ListenerOptions{Logger: log})
		p.AddListener(l)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		defer func() {
			cancel()
			wg.Wait()
		}()
		var n any = AddNotification{NewObj: pod("a", "1")}
		// 100 runs stay far below the ring's 1024 slots, so the ring never grows.
		return testing.AllocsPerRun(100, func() { p.Distribute(n, false) })
	}
	assert.Zero(t, measure(nil), "nil logger")
	assert.Zero(t, measure(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))), "Debug disabled")
	assert.Positive(t, measure(trace.NewPlainLogger(io.Discard)), "Debug enabled")
}

// PL-6 (v0.36+): a handler call that takes 100 ms or more while more than 1024 notifications
// wait behind it is logged at Info level, with the backlog; a quick call or a short backlog
// is not.
func TestCh07_PL6_SlowHandlerWithBacklogIsLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out safeBuffer
		log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo}))
		gate := make(chan struct{})
		stalls := 0
		h := ResourceEventHandlerFuncs{AddFunc: func(any) {
			if stalls < 2 { // the first call stalls to build the backlog, the second is slow
				stalls++
				<-gate
			}
		}}
		p := NewSharedProcessor(ProcessorOptions{})
		l := newListener(t, h, alreadySynced(), ListenerOptions{Name: "h", Logger: log})
		p.AddListener(l)
		stop := running(t, p)
		defer stop()

		for _, n := range addsOf(1 + 1027) {
			p.Distribute(n, false)
		}
		synctest.Wait()
		require.Equal(t, 1026, l.Pending())
		gate <- struct{}{} // the first call returns at once: its backlog was counted before it began
		synctest.Wait()
		<-time.After(150 * time.Millisecond) // virtual time: the second call takes 150 ms
		gate <- struct{}{}
		synctest.Wait()
		lines := out.lines()
		require.Len(t, lines, 1)
		// pending is read as the call begins, racing with pop refilling nextCh: 1025 or 1026.
		assert.Regexp(t, `level=INFO msg="processorListener handler" listener=h pending=102[56] took=150ms$`, lines[0])
	})
}
