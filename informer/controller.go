package informer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/internal/chanctx"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector"
)

// ProcessFunc mirrors cache.ProcessFunc: what processLoop calls with each popped item.
type ProcessFunc = deltafifo.PopProcessFunc

// ProcessBatchFunc mirrors cache.ProcessBatchFunc: what processLoop calls with a batch.
type ProcessBatchFunc = deltafifo.ProcessBatchFunc

// batchQueue is a queue that can pop several keys at once (RealFIFO).
type batchQueue interface {
	PopBatch(processBatch deltafifo.ProcessBatchFunc, processSingle deltafifo.PopProcessFunc) error
}

// Config mirrors cache.Config in client-go tools/cache/controller.go: everything the low-level
// controller needs. UseWatchList, Clock and Logger are ours (docs/behaviour/client-go.md N-3, H-9).
type Config struct {
	// Queue is what the reflector writes to and processLoop pops from.
	Queue deltafifo.Queue
	// ListerWatcher is how the reflector reaches the server.
	ListerWatcher listwatch.ListerWatcher
	// Process handles one popped item.
	Process ProcessFunc
	// ProcessBatch, when set and the queue can batch, handles several keys at once (C-2).
	ProcessBatch ProcessBatchFunc
	// ObjectType is an example of the listed type, e.g. &api.Pod{}.
	ObjectType any
	// ObjectDescription names the type in logs; empty derives it from ObjectType.
	ObjectDescription string
	// FullResyncPeriod is the reflector's resync period; 0 never resyncs.
	FullResyncPeriod time.Duration
	// MinWatchTimeout is passed to the reflector.
	MinWatchTimeout time.Duration
	// ShouldResync is asked each resync period; nil means always.
	ShouldResync func() bool
	// WatchErrorHandler replaces reflector.DefaultWatchErrorHandler; it wins over
	// WatchErrorHandlerWithContext when both are set, as in client-go.
	WatchErrorHandler reflector.WatchErrorHandler
	// WatchErrorHandlerWithContext replaces reflector.DefaultWatchErrorHandler.
	WatchErrorHandlerWithContext reflector.WatchErrorHandlerWithContext
	// WatchListPageSize is the reflector's LIST page size; 0 lets it choose.
	WatchListPageSize int64
	// UseWatchList turns watch-list on or off; nil leaves the reflector's default (on).
	UseWatchList *bool
	// Clock is the time source; nil is the real clock.
	Clock clock.Clock
	// Logger receives the reflector's hops; nil is silent.
	Logger *slog.Logger
	// Pauser, when set, can hold processLoop before its next pop (ours, for tests and chapters).
	Pauser *Pauser
}

// Controller mirrors cache.Controller: the low-level informer loop.
type Controller interface {
	Run(stopCh <-chan struct{})
	RunWithContext(ctx context.Context)
	HasSynced() bool
	HasSyncedChecker() processor.DoneChecker
	LastSyncResourceVersion() string
}

// controller mirrors the unexported cache.controller.
type controller struct {
	config Config

	mu        sync.RWMutex
	reflector *reflector.Reflector
	clock     clock.Clock
}

// New mirrors cache.New: a controller that runs config's reflector and processLoop.
func New(config *Config) Controller {
	return &controller{config: *config, clock: clock.Or(config.Clock)}
}

// Run mirrors controller.Run: RunWithContext until stopCh closes.
func (c *controller) Run(stopCh <-chan struct{}) {
	c.RunWithContext(chanctx.ForChannel(stopCh))
}

// RunWithContext mirrors controller.RunWithContext (C-1): it closes the queue when ctx ends, runs the
// reflector in a goroutine and processLoop on this one, and returns once both have stopped.
func (c *controller) RunWithContext(ctx context.Context) {
	go func() {
		<-ctx.Done()
		c.config.Queue.Close()
	}()
	r := reflector.NewReflectorWithOptions(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue,
		reflector.ReflectorOptions{
			TypeDescription: c.config.ObjectDescription,
			ResyncPeriod:    c.config.FullResyncPeriod,
			MinWatchTimeout: c.config.MinWatchTimeout,
			Clock:           c.config.Clock,
			Logger:          c.config.Logger,
			UseWatchList:    c.config.UseWatchList,
		})
	r.ShouldResync = c.config.ShouldResync
	r.WatchListPageSize = c.config.WatchListPageSize
	switch {
	case c.config.WatchErrorHandler != nil:
		r.SetWatchErrorHandler(c.config.WatchErrorHandler)
	case c.config.WatchErrorHandlerWithContext != nil:
		r.SetWatchErrorHandlerWithContext(c.config.WatchErrorHandlerWithContext)
	}
	c.mu.Lock()
	c.reflector = r
	c.mu.Unlock()

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.RunWithContext(ctx)
	}()
	// processLoop only returns early if the queue misbehaves; C-1 restarts it after 1 s.
	for ctx.Err() == nil {
		c.processLoop(ctx)
		select {
		case <-ctx.Done():
		case <-c.clock.After(time.Second):
		}
	}
	wg.Wait()
}

// processLoop mirrors controller.processLoop (C-2, C-3): pop until ctx ends or the queue
// closes. Errors from the process function are dropped with the item: there is no requeue.
func (c *controller) processLoop(ctx context.Context) {
	bq, canBatch := c.config.Queue.(batchQueue)
	useBatch := canBatch && c.config.ProcessBatch != nil
	for ctx.Err() == nil {
		if !c.config.Pauser.wait(ctx) {
			return
		}
		var err error
		if useBatch {
			err = bq.PopBatch(c.config.ProcessBatch, c.config.Process)
		} else {
			_, err = c.config.Queue.Pop(c.config.Process)
		}
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			return
		}
	}
}

// HasSynced mirrors controller.HasSynced (C-4): the queue has handed out its initial list.
func (c *controller) HasSynced() bool { return c.config.Queue.HasSynced() }

// HasSyncedChecker mirrors controller.HasSyncedChecker (v0.36).
func (c *controller) HasSyncedChecker() processor.DoneChecker {
	return processor.NewDoneChecker("controller", c.config.Queue.Done())
}

// LastSyncResourceVersion mirrors controller.LastSyncResourceVersion (C-4): "" before Run.
func (c *controller) LastSyncResourceVersion() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.reflector == nil {
		return ""
	}
	return c.reflector.LastSyncResourceVersion()
}

// Pauser is ours, with no client-go counterpart: a switch processLoop checks before every pop.
// While it is paused the reflector keeps filling the queue but nothing reaches the cache or the
// handlers, so a test or a chapter can line up several events and then watch how each profile
// hands them over (docs/behaviour/client-go.md §14: DeltaFIFO gives a key's pending deltas to one process call,
// RealFIFO one delta per call). A pop already waiting on an empty queue is not held back, so
// pause before Run, or while the consumer is busy. Inside a testing/synctest bubble, create
// and pause it inside the bubble. A nil *Pauser never pauses.
type Pauser struct {
	mu sync.Mutex
	// resumed is open while paused and closed by Resume; nil while running.
	resumed chan struct{}
}

// Pause makes processLoop stop before its next pop, until Resume.
func (p *Pauser) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.resumed == nil {
		p.resumed = make(chan struct{})
	}
}

// Resume lets processLoop pop again.
func (p *Pauser) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.resumed != nil {
		close(p.resumed)
		p.resumed = nil
	}
}

// Paused reports whether the pauser holds processLoop back.
func (p *Pauser) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resumed != nil
}

// wait blocks while p is paused; it reports false if ctx ended first.
func (p *Pauser) wait(ctx context.Context) bool {
	if p == nil {
		return ctx.Err() == nil
	}
	for {
		p.mu.Lock()
		ch := p.resumed
		p.mu.Unlock()
		if ch == nil {
			return ctx.Err() == nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}
