package processor

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Where this package differs from client-go, on purpose:
//
//   - Removal and shutdown close a separate stop channel instead of addCh, so an Add that
//     comes late is dropped rather than panicking on a closed channel; run checks that channel
//     before each call, so no handler call starts after RemoveListener returns (client-go's
//     pop may still hand over a notification or two, at the mercy of select).
//   - AddListener on a stopped processor does not register the listener (client-go would, and
//     a later Distribute would then wait forever); a second Run returns at once.
//   - NewProcessorListener returns an error for a nil handler or checker and for negative
//     sizes or periods; FilteringResourceEventHandler tolerates nil fields; NewRingGrowing
//     treats a negative size as 0.
//   - The crash switch is a per-listener PanicPolicy instead of the global
//     utilruntime.ReallyCrash, and the one-second pause uses the injected clock.

// ResourceEventHandlerRegistration mirrors cache.ResourceEventHandlerRegistration in client-go
// tools/cache/shared_informer.go: the handle AddEventHandler returns. Its concrete value is the
// *ProcessorListener, which RemoveListener expects back.
type ResourceEventHandlerRegistration interface {
	// HasSynced reports whether the informer has synced and this handler has returned from
	// every initial-list add queued to it (SI-15).
	HasSynced() bool
	// HasSyncedChecker is HasSynced as a DoneChecker (v0.36+).
	HasSyncedChecker() DoneChecker
}

// DetermineResyncPeriod mirrors determineResyncPeriod in client-go tools/cache/shared_informer.go
// (SI-13.3): the effective period of a handler that asked for desired when the informer checks
// every check. 0 stays 0; an informer that never checks (check 0) never resyncs anyone; a
// period below the check period is raised to it.
func DetermineResyncPeriod(desired, check time.Duration) time.Duration {
	switch {
	case desired == 0, check == 0:
		return 0
	case desired < check:
		return check
	default:
		return desired
	}
}

// ProcessorOptions is ours: what NewSharedProcessor takes (client-go sets the clock inline).
// The zero value is valid.
type ProcessorOptions struct {
	// Clock is what ShouldResync calls Now on; nil means the real clock.
	Clock clock.Clock
	// Logger receives one Debug hop per Distribute (component "processor"); nil is silent.
	Logger *slog.Logger
}

// SharedProcessor mirrors sharedProcessor in client-go tools/cache/shared_informer.go: the set
// of listeners of one informer, with a "syncing" flag per listener. Non-sync notifications go to
// every listener, sync notifications only to those flagged by the last ShouldResync (SP-2, SP-3).
type SharedProcessor struct {
	// listenersLock guards everything below; Distribute holds it for reading, so removal and
	// resync checks (writers) never interleave with a distribution.
	listenersLock sync.RWMutex
	// listenersRCond wakes a Distribute waiting (under the read lock) for Run to start (SP-2).
	listenersRCond *sync.Cond
	// listeners maps each listener to its syncing flag; nil once the processor has stopped.
	listeners        map[*ProcessorListener]bool
	listenersStarted bool
	// ran and stopped record that Run began and ended: a processor is not reusable (SP-6).
	ran, stopped bool

	clock  clock.Clock
	logger *slog.Logger
	wg     sync.WaitGroup
}

// NewSharedProcessor is ours: a processor with no listeners. client-go builds its
// sharedProcessor inline in NewSharedIndexInformerWithOptions.
func NewSharedProcessor(opts ProcessorOptions) *SharedProcessor {
	p := &SharedProcessor{
		listeners: make(map[*ProcessorListener]bool),
		clock:     clock.Or(opts.Clock),
		logger:    opts.Logger,
	}
	p.listenersRCond = sync.NewCond(p.listenersLock.RLocker())
	return p
}

// AddListener mirrors sharedProcessor.addListener (SP-1): register l with its syncing flag set,
// and, if the processor is running, start its pop and run goroutines at once. It returns l as
// the registration, and whether the processor was running. In that case the caller (the
// informer, holding blockDeltas) first Adds the synthetic initial list, then calls
// StartWatchSynced; before Run, Run starts the watcher itself (SI-14).
//
// Adding a listener that is already registered changes nothing. On a processor that has
// stopped, l is not registered and ends at once (its ShutdownChan is closed): client-go would
// register it in a fresh map where it would never start, and Distribute would wait for it
// forever. A nil l returns (nil, false).
func (p *SharedProcessor) AddListener(l *ProcessorListener) (ResourceEventHandlerRegistration, bool) {
	if l == nil {
		return nil, false
	}
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()
	if p.stopped {
		l.stop()
		l.finishRun()
		return l, false
	}
	if _, ok := p.listeners[l]; ok {
		return l, p.listenersStarted
	}
	p.listeners[l] = true
	if p.listenersStarted {
		// Not the upstream-synced watcher: the caller starts it after the initial list.
		p.wg.Go(l.run)
		p.wg.Go(l.pop)
	}
	return l, p.listenersStarted
}

// StartWatchSynced is ours: it starts l's upstream-synced watcher on the processor's wait group, as
// client-go's AddEventHandlerWithOptions does with processor.wg.Start(listener.watchSynced)
// once a late handler's synthetic adds are queued. It does nothing unless the processor is
// running and l is registered: before Run, Run starts the watcher; after a stop, it is moot.
func (p *SharedProcessor) StartWatchSynced(l *ProcessorListener) {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	if _, ok := p.listeners[l]; ok && p.listenersStarted {
		p.wg.Go(l.watchSynced)
	}
}

// GetListener mirrors sharedProcessor.getListener: the registered listener behind reg, or nil.
func (p *SharedProcessor) GetListener(reg ResourceEventHandlerRegistration) *ProcessorListener {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	if l, ok := reg.(*ProcessorListener); ok {
		if _, registered := p.listeners[l]; registered {
			return l
		}
	}
	return nil
}

// ListenerCount is ours: the number of registered listeners (client-go's tests read
// len(processor.listeners) for the same purpose).
func (p *SharedProcessor) ListenerCount() int {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	return len(p.listeners)
}

// RemoveListener mirrors sharedProcessor.removeListener (SI-16): unregister the listener behind
// reg and stop it. A started listener drops what it has buffered, lets a handler call in
// progress finish, and ends without being waited for; a listener that never started ends at
// once. A registration that is not (or no longer) registered is a no-op; a value that is not
// one of ours is an error.
func (p *SharedProcessor) RemoveListener(reg ResourceEventHandlerRegistration) error {
	l, ok := reg.(*ProcessorListener)
	if !ok || l == nil {
		return fmt.Errorf("processor: %T is not a registration returned by AddListener", reg)
	}
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()
	if _, registered := p.listeners[l]; !registered {
		return nil
	}
	delete(p.listeners, l)
	l.stop()
	if !p.listenersStarted {
		l.finishRun()
	}
	return nil
}

// Distribute mirrors sharedProcessor.distribute (SP-2): hand obj to every listener, or, for a
// sync notification, to every listener whose syncing flag is set. If listeners are registered
// but the processor has not started, it waits for Run (client-go v0.36+), because a listener's
// Add would otherwise block on a pop goroutine that does not exist yet. Within one listener,
// notifications keep the order of Distribute calls (PL-3).
func (p *SharedProcessor) Distribute(obj any, sync bool) {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	for !p.listenersStarted && len(p.listeners) > 0 {
		p.listenersRCond.Wait()
	}
	if trace.Enabled(p.logger) {
		p.traceDistribute(obj, sync)
	}
	for l, syncing := range p.listeners {
		if !sync || syncing {
			l.Add(obj)
		}
	}
}

// traceDistribute logs the distribute hop with the number of listeners that will receive obj.
func (p *SharedProcessor) traceDistribute(obj any, sync bool) {
	n := 0
	for _, syncing := range p.listeners {
		if !sync || syncing {
			n++
		}
	}
	kind, key, rv, extra := describe(obj)
	attrs := append([]slog.Attr{slog.String(trace.KeyType, kind)}, extra...)
	attrs = append(attrs, slog.Bool("sync", sync), slog.Int("listeners", n))
	trace.Hop(p.logger, "processor", "distribute", key, rv, attrs...)
}

// ShouldResync mirrors sharedProcessor.shouldResync (SP-3): under the write lock, flag each
// listener that is due (effective period set and now ≥ its nextResync), move each due
// listener's nextResync one period past now, and report whether any is due. The reflector
// calls it every resync check period; the flags hold until the next call.
func (p *SharedProcessor) ShouldResync() bool {
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()
	now := p.clock.Now()
	resyncNeeded := false
	for l := range p.listeners {
		due := l.shouldResync(now)
		p.listeners[l] = due
		if due {
			resyncNeeded = true
			l.determineNextResync(now)
		}
	}
	return resyncNeeded
}

// ResyncCheckPeriodChanged mirrors sharedProcessor.resyncCheckPeriodChanged (SP-5): recompute
// every listener's effective period from its requested period and the new check period. Its
// nextResync is left as it was, as in client-go.
func (p *SharedProcessor) ResyncCheckPeriodChanged(check time.Duration) {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	for l := range p.listeners {
		l.setResyncPeriod(DetermineResyncPeriod(l.RequestedResyncPeriod(), check))
	}
}

// Run mirrors sharedProcessor.run (SP-6): start every registered listener's upstream-synced
// watcher, run and pop goroutines, mark the processor started and wake a waiting Distribute;
// when ctx ends, stop every listener, forget them all, wake Distribute again, and return once
// every goroutine has exited. A processor runs once: a second Run returns at once.
func (p *SharedProcessor) Run(ctx context.Context) {
	p.listenersLock.Lock()
	if p.ran {
		p.listenersLock.Unlock()
		return
	}
	p.ran = true
	for l := range p.listeners {
		p.wg.Go(l.watchSynced)
		p.wg.Go(l.run)
		p.wg.Go(l.pop)
	}
	p.listenersStarted = true
	p.listenersRCond.Broadcast()
	p.listenersLock.Unlock()

	<-ctx.Done()

	p.listenersLock.Lock()
	for l := range p.listeners {
		l.stop()
	}
	p.listeners = nil
	p.listenersStarted = false
	p.stopped = true
	p.listenersRCond.Broadcast()
	p.listenersLock.Unlock()

	p.wg.Wait()
}
