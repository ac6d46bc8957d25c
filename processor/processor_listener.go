package processor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// InitialBufferSize mirrors initialBufferSize in client-go tools/cache/shared_informer.go: the
// capacity a listener's ring starts with; the informer passes it to NewProcessorListener.
const InitialBufferSize = 1024

// crashPause is how long run waits after a contained panic before the next notification.
const crashPause = time.Second

// slowHandlerThreshold is how long a handler call may take, while more than InitialBufferSize
// notifications wait behind it, before the listener logs it (client-go v0.36+ traces such
// calls with LogIfLong(100ms)).
const slowHandlerThreshold = 100 * time.Millisecond

// traceComponent is the trace component of every listener hop.
const traceComponent = "listener"

// ListenerOptions is ours: what NewProcessorListener takes beyond client-go's arguments (it
// stands in for klog's logger and utilruntime's crash settings). The zero value is valid.
type ListenerOptions struct {
	// Name is the listener's trace attribute and part of its HasSyncedChecker name; empty
	// means the handler's Go type.
	Name string
	// Logger receives the listener's Debug hops (add, buffer, pop, deliver) and the Error line
	// of a handler panic; nil is silent.
	Logger *slog.Logger
	// Clock times the pause after a contained panic; nil means the real clock.
	Clock clock.Clock
	// PanicPolicy decides what a handler panic does; the zero value re-panics (PL-5).
	PanicPolicy PanicPolicy
	// OnPanic, if set, is called with the listener's name and the recovered value before the
	// policy is applied, like utilruntime.PanicHandlers.
	OnPanic func(listener string, recovered any)
}

// ProcessorListener mirrors processorListener in client-go tools/cache/shared_informer.go: it
// relays notifications from a SharedProcessor to one handler, with two goroutines, two
// unbuffered channels and an unbounded ring (N-1):
//
//	Add ──addCh──▶ pop ──nextCh──▶ run ──▶ handler
//	                │ ▲
//	                ▼ │ (only while run is busy)
//	        pendingNotifications (RingGrowing)
//
// pop is always ready to receive on addCh, so Add never waits for the handler (PL-1). It is
// also the ResourceEventHandlerRegistration the processor hands out for it (SP-1).
type ProcessorListener struct {
	// addCh carries notifications from Add to pop.
	addCh chan any
	// nextCh carries notifications from pop to run; pop closes it when it exits.
	nextCh chan any
	// stopCh is closed (once) when the listener is removed or its processor stops. client-go
	// closes addCh instead; a send on a closed channel panics, so we keep addCh open and let
	// Add, pop and run all watch stopCh: a late Add is then dropped, never a panic.
	stopCh   chan struct{}
	stopOnce sync.Once

	// done is closed when pop exits, which stops the upstream-synced watcher.
	done chan struct{}
	// runFinished is closed when run exits, or at removal if run never started.
	runFinished     chan struct{}
	runFinishedOnce sync.Once
	// popStarted and runStarted make starting each goroutine a one-time event.
	popStarted, runStarted atomic.Bool

	handler     ResourceEventHandler
	name        string
	syncTracker *singleFileTracker
	upstream    DoneChecker

	// pendingNotifications is touched only by pop. pendingLength and pendingCap mirror its Len
	// and Cap for readers on other goroutines (Pending, PendingCap).
	pendingNotifications RingGrowing
	pendingLength        atomic.Int64
	pendingCap           atomic.Int64

	// resyncLock guards the three resync fields.
	resyncLock sync.Mutex
	// requestedResyncPeriod is what the handler asked for, after the informer's 1 s floor.
	requestedResyncPeriod time.Duration
	// resyncPeriod is the effective period: 0 when the informer never resyncs (SI-13.3).
	resyncPeriod time.Duration
	// nextResync is the earliest time of the listener's next resync (SP-7).
	nextResync time.Time

	clock       clock.Clock
	logger      *slog.Logger
	panicPolicy PanicPolicy
	onPanic     func(string, any)
}

var _ ResourceEventHandlerRegistration = (*ProcessorListener)(nil)

// NewProcessorListener mirrors newProcessListener in client-go tools/cache/shared_informer.go.
// requestedResync is the handler's period, effectiveResync the one the informer computed with
// DetermineResyncPeriod; nextResync starts at now + effectiveResync (SP-7). bufferSize is the
// ring's initial capacity (the informer passes InitialBufferSize). upstreamHasSynced is the
// informer's own sync checker, half of the listener's HasSynced (PL-7). Unlike client-go it
// returns an error for a nil handler or checker and for negative sizes or periods.
func NewProcessorListener(handler ResourceEventHandler, requestedResync, effectiveResync time.Duration, now time.Time,
	bufferSize int, upstreamHasSynced DoneChecker, opts ListenerOptions) (*ProcessorListener, error) {
	switch {
	case handler == nil:
		return nil, errors.New("processor: listener needs a handler")
	case upstreamHasSynced == nil:
		return nil, errors.New("processor: listener needs the informer's synced checker")
	case bufferSize < 0:
		return nil, fmt.Errorf("processor: negative buffer size %d", bufferSize)
	case requestedResync < 0 || effectiveResync < 0:
		return nil, fmt.Errorf("processor: negative resync period (requested %v, effective %v)", requestedResync, effectiveResync)
	}
	name := opts.Name
	if name == "" {
		name = fmt.Sprintf("%T", handler)
	}
	l := &ProcessorListener{
		addCh:                 make(chan any),
		nextCh:                make(chan any),
		stopCh:                make(chan struct{}),
		done:                  make(chan struct{}),
		runFinished:           make(chan struct{}),
		handler:               handler,
		name:                  name,
		syncTracker:           newSingleFileTracker(upstreamHasSynced.Name() + " + event handler " + name),
		upstream:              upstreamHasSynced,
		pendingNotifications:  *NewRingGrowing(bufferSize),
		requestedResyncPeriod: requestedResync,
		resyncPeriod:          effectiveResync,
		nextResync:            now.Add(effectiveResync),
		clock:                 clock.Or(opts.Clock),
		logger:                opts.Logger,
		panicPolicy:           opts.PanicPolicy,
		onPanic:               opts.OnPanic,
	}
	l.pendingCap.Store(int64(bufferSize))
	return l, nil
}

// Name is ours: the listener's name in traces (client-go's handlerName, from nameForHandler).
func (l *ProcessorListener) Name() string { return l.name }

// HasSynced mirrors processorListener.HasSynced: the informer has synced and every initial-list
// add queued to this listener has returned from the handler (SI-15, PL-7). It never turns false.
func (l *ProcessorListener) HasSynced() bool { return l.syncTracker.HasSynced() }

// HasSyncedChecker mirrors processorListener.HasSyncedChecker: HasSynced as a channel.
func (l *ProcessorListener) HasSyncedChecker() DoneChecker { return l.syncTracker }

// ShutdownChan mirrors processorListener.ShutdownChan: closed once run has returned, or at
// removal for a listener that never started. ShutDownEventHandler waits on it (SI-17).
func (l *ProcessorListener) ShutdownChan() <-chan struct{} { return l.runFinished }

// Pending is ours: the number of notifications waiting in the ring: neither in the handler nor the
// one pop is offering to run (PL-6). client-go keeps the same count, pendingNotificationsLength.
func (l *ProcessorListener) Pending() int { return int(l.pendingLength.Load()) }

// PendingCap is ours: the ring's capacity, InitialBufferSize·2^k, never shrinking (PL-6).
func (l *ProcessorListener) PendingCap() int { return int(l.pendingCap.Load()) }

// RequestedResyncPeriod is ours: processorListener.requestedResyncPeriod, the period the
// handler asked for.
func (l *ProcessorListener) RequestedResyncPeriod() time.Duration {
	l.resyncLock.Lock()
	defer l.resyncLock.Unlock()
	return l.requestedResyncPeriod
}

// ResyncPeriod is ours: processorListener.resyncPeriod, the effective period the processor
// checks against (SI-13.3).
func (l *ProcessorListener) ResyncPeriod() time.Duration {
	l.resyncLock.Lock()
	defer l.resyncLock.Unlock()
	return l.resyncPeriod
}

// Add mirrors processorListener.add: count an initial-list add in the sync tracker, then hand
// the notification to pop. It blocks only until pop receives it, never on the handler (PL-1);
// before the listener's goroutines start it blocks until they do. After the listener was
// removed or its processor stopped, the notification is dropped.
func (l *ProcessorListener) Add(notification any) {
	if a, ok := notification.(AddNotification); ok && a.IsInInitialList {
		l.syncTracker.Start()
	}
	if trace.Enabled(l.logger) {
		l.hop("add", notification)
	}
	select {
	case l.addCh <- notification:
	case <-l.stopCh:
	}
}

// stop ends the listener (SI-16): pop returns at once, dropping the notification it holds and
// its ring; run lets the handler call in progress finish, then returns without starting
// another. Idempotent.
func (l *ProcessorListener) stop() { l.stopOnce.Do(func() { close(l.stopCh) }) }

// stopped reports whether stop has been called.
func (l *ProcessorListener) stopped() bool {
	select {
	case <-l.stopCh:
		return true
	default:
		return false
	}
}

// finishRun closes runFinished once: run's exit and the removal of a never-started listener
// both end the listener.
func (l *ProcessorListener) finishRun() { l.runFinishedOnce.Do(func() { close(l.runFinished) }) }

// pop mirrors processorListener.pop (PL-2). It keeps at most one notification, next, outside
// the ring, and offers it on nextCh; a nil channel disables that select case while there is
// nothing to offer. A notification that arrives while nothing is waiting skips the ring.
//
//lab:07.2
func (l *ProcessorListener) pop() {
	if !l.popStarted.CompareAndSwap(false, true) {
		return
	}
	defer close(l.nextCh) // tells run to stop
	defer close(l.done)   // tells the upstream-synced watcher to stop

	var nextCh chan<- any
	var next any
	for {
		select {
		case nextCh <- next:
			var ok bool
			next, ok = l.pendingNotifications.ReadOne()
			if !ok {
				nextCh = nil
				break
			}
			l.pendingLength.Add(-1)
			if trace.Enabled(l.logger) {
				l.hop("pop", next, slog.Int("pending", l.pendingNotifications.Len()))
			}
		case <-l.stopCh:
			return
		case n := <-l.addCh:
			if nextCh == nil {
				next, nextCh = n, l.nextCh
				if trace.Enabled(l.logger) {
					l.hop("pop", next, slog.Int("pending", l.pendingNotifications.Len()))
				}
				break
			}
			l.pendingNotifications.WriteOne(n)
			l.pendingLength.Add(1)
			l.pendingCap.Store(int64(l.pendingNotifications.Cap()))
			if trace.Enabled(l.logger) {
				l.hop("buffer", n, slog.Int("pending", l.pendingNotifications.Len()),
					slog.Int("cap", l.pendingNotifications.Cap()))
			}
		}
	}
}

// run mirrors processorListener.run (PL-4, PL-5): call the handler for each notification pop
// hands over, in order, until nextCh is closed. After a contained panic it pauses one second
// before the next notification. Once the listener is stopped it starts no handler call, even
// for a notification pop handed over in the same instant (pop's select may pick either).
//
//lab:07.2
func (l *ProcessorListener) run() {
	if !l.runStarted.CompareAndSwap(false, true) {
		return
	}
	defer l.finishRun()
	crashed := false
	for n := range l.nextCh {
		if crashed {
			select {
			case <-l.clock.After(crashPause):
			case <-l.stopCh:
			}
		}
		if l.stopped() {
			return
		}
		crashed = l.deliver(n)
	}
}

// deliver calls the handler method for one notification and reports whether it panicked (which
// only returns under SkipAndContinue). The tracker's Finished runs only when OnAdd returned, so
// a skipped initial add keeps the handle unsynced forever, as in client-go (PL-5).
func (l *ProcessorListener) deliver(n any) (crashed bool) {
	defer func() {
		if r := recover(); r != nil {
			crashed = true
			l.observePanic(r)
		}
	}()
	if trace.Enabled(l.logger) {
		l.hop("deliver", n)
	}
	if pending := l.pendingLength.Load(); pending > InitialBufferSize && l.logger != nil {
		defer l.logIfSlow(l.clock.Now(), pending)
	}
	switch n := n.(type) {
	case AddNotification:
		l.handler.OnAdd(n.NewObj, n.IsInInitialList)
		if n.IsInInitialList {
			l.syncTracker.Finished()
		}
	case UpdateNotification:
		l.handler.OnUpdate(n.OldObj, n.NewObj)
	case DeleteNotification:
		l.handler.OnDelete(n.OldObj)
	default:
		if l.logger != nil {
			l.logger.LogAttrs(context.Background(), slog.LevelError, "unrecognized notification",
				slog.String("listener", l.name), slog.String("notificationType", fmt.Sprintf("%T", n)))
		}
	}
	return false
}

// logIfSlow logs, at Info level, a handler call that took slowHandlerThreshold or more while a
// backlog of pending notifications waited behind it (PL-6).
func (l *ProcessorListener) logIfSlow(start time.Time, pending int64) {
	if took := l.clock.Since(start); took >= slowHandlerThreshold {
		l.logger.LogAttrs(context.Background(), slog.LevelInfo, "processorListener handler",
			slog.String("listener", l.name), slog.Int64("pending", pending), slog.Duration("took", took))
	}
}

// watchSynced mirrors processorListener.watchSynced: tell the tracker once the informer has
// synced, or give up when pop exits (PL-7).
func (l *ProcessorListener) watchSynced() {
	select {
	case <-l.upstream.Done():
		l.syncTracker.UpstreamHasSynced()
	case <-l.done:
	}
}

// shouldResync mirrors processorListener.shouldResync: due when the effective period is set
// and now is at or past nextResync (SP-3).
func (l *ProcessorListener) shouldResync(now time.Time) bool {
	l.resyncLock.Lock()
	defer l.resyncLock.Unlock()
	return l.resyncPeriod != 0 && !now.Before(l.nextResync)
}

// determineNextResync mirrors processorListener.determineNextResync.
func (l *ProcessorListener) determineNextResync(now time.Time) {
	l.resyncLock.Lock()
	defer l.resyncLock.Unlock()
	l.nextResync = now.Add(l.resyncPeriod)
}

// setResyncPeriod mirrors processorListener.setResyncPeriod.
func (l *ProcessorListener) setResyncPeriod(d time.Duration) {
	l.resyncLock.Lock()
	defer l.resyncLock.Unlock()
	l.resyncPeriod = d
}

// hop logs one listener hop; callers guard it with trace.Enabled.
func (l *ProcessorListener) hop(op string, n any, extra ...slog.Attr) {
	kind, key, rv, more := describe(n)
	attrs := append([]slog.Attr{slog.String(trace.KeyType, kind), slog.String(trace.KeyListener, l.name)}, more...)
	trace.Hop(l.logger, traceComponent, op, key, rv, append(attrs, extra...)...)
}
