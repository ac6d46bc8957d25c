package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/internal/chanctx"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/store"
)

// minimumResyncPeriod mirrors minimumResyncPeriod in client-go (SI-13.1).
const minimumResyncPeriod = time.Second

// SharedInformer mirrors cache.SharedInformer in client-go tools/cache/shared_informer.go.
type SharedInformer interface {
	AddEventHandler(handler processor.ResourceEventHandler) (processor.ResourceEventHandlerRegistration, error)
	AddEventHandlerWithResyncPeriod(handler processor.ResourceEventHandler, resyncPeriod time.Duration) (processor.ResourceEventHandlerRegistration, error)
	AddEventHandlerWithOptions(handler processor.ResourceEventHandler, options HandlerOptions) (processor.ResourceEventHandlerRegistration, error)
	RemoveEventHandler(handle processor.ResourceEventHandlerRegistration) error
	GetStore() store.Store
	GetController() Controller
	Run(stopCh <-chan struct{})
	RunWithContext(ctx context.Context)
	HasSynced() bool
	HasSyncedChecker() processor.DoneChecker
	LastSyncResourceVersion() string
	SetWatchErrorHandler(handler reflector.WatchErrorHandler) error
	SetWatchErrorHandlerWithContext(handler reflector.WatchErrorHandlerWithContext) error
	SetTransform(handler store.TransformFunc) error
	IsStopped() bool
}

// SharedIndexInformer mirrors cache.SharedIndexInformer: a SharedInformer whose cache is an
// Indexer.
type SharedIndexInformer interface {
	SharedInformer
	AddIndexers(indexers store.Indexers) error
	GetIndexer() store.Indexer
}

// HandlerOptions mirrors cache.HandlerOptions. Name is ours: it labels the listener in traces.
type HandlerOptions struct {
	// Name labels the handler's listener in traces and in ListenerStats.
	Name string
	// Logger replaces the informer's logger for this handler's listener.
	Logger *slog.Logger
	// ResyncPeriod, when set, is the handler's requested resync period; nil inherits the
	// informer's default (SI-12).
	ResyncPeriod *time.Duration
}

// SharedIndexInformerOptions mirrors cache.SharedIndexInformerOptions. Profile, UseWatchList,
// PanicPolicy, Clock and Logger are ours.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default resync period of handlers and the initial check period.
	ResyncPeriod time.Duration
	// Indexers are the cache's initial indexes.
	Indexers store.Indexers
	// ObjectDescription names the type in logs; empty derives it from the example object.
	ObjectDescription string
	// Profile picks the queue and the watch-list default (docs/behaviour/client-go.md §0.2).
	Profile Profile
	// UseWatchList overrides the profile's watch-list default when set.
	UseWatchList *bool
	// PanicPolicy says what a panicking handler does (PL-5); the zero value re-panics.
	PanicPolicy processor.PanicPolicy
	// Clock is the time source; nil is the real clock.
	Clock clock.Clock
	// Logger receives every component's hops; nil is silent.
	Logger *slog.Logger
	// Pauser, when set, can hold the informer's processLoop before its next pop.
	Pauser *Pauser
}

// sharedIndexInformer mirrors the unexported cache.sharedIndexInformer.
type sharedIndexInformer struct {
	indexer    store.Indexer
	controller Controller
	processor  *processor.SharedProcessor

	listerWatcher     listwatch.ListerWatcher
	objectType        any
	objectDescription string
	profile           Profile
	useWatchList      *bool
	panicPolicy       processor.PanicPolicy
	pauser            *Pauser
	clock             clock.Clock
	logger            *slog.Logger

	// resyncCheckPeriod is how often the reflector asks the processor whether a listener is
	// due; defaultEventHandlerResyncPeriod is what AddEventHandler asks for (SI-1).
	resyncCheckPeriod               time.Duration
	defaultEventHandlerResyncPeriod time.Duration

	// synced is closed once the queue has handed out the initial list (SI-4).
	synced chan struct{}

	// startedLock guards started, stopped, the handler changes and the settings below.
	startedLock       sync.Mutex
	started, stopped  bool
	watchErrorHandler reflector.WatchErrorHandlerWithContext
	transform         store.TransformFunc

	// blockDeltas keeps delta processing, late handler joins and handler removal from
	// interleaving (SI-8, SI-14, docs/behaviour/client-go.md N-2).
	blockDeltas sync.Mutex
}

// NewSharedInformer mirrors cache.NewSharedInformer.
func NewSharedInformer(lw listwatch.ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, store.Indexers{})
}

// NewSharedIndexInformer mirrors cache.NewSharedIndexInformer.
func NewSharedIndexInformer(lw listwatch.ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration, indexers store.Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions mirrors cache.NewSharedIndexInformerWithOptions (SI-1).
func NewSharedIndexInformerWithOptions(lw listwatch.ListerWatcher, exampleObject any, options SharedIndexInformerOptions) SharedIndexInformer {
	indexers := options.Indexers
	if indexers == nil {
		indexers = store.Indexers{}
	}
	c := clock.Or(options.Clock)
	return &sharedIndexInformer{
		indexer:                         store.NewIndexer(store.DeletionHandlingMetaNamespaceKeyFunc, indexers, options.Profile.storeOptions(options.Logger)...),
		processor:                       processor.NewSharedProcessor(processor.ProcessorOptions{Clock: c, Logger: options.Logger}),
		listerWatcher:                   lw,
		objectType:                      exampleObject,
		objectDescription:               options.ObjectDescription,
		profile:                         options.Profile,
		useWatchList:                    options.UseWatchList,
		panicPolicy:                     options.PanicPolicy,
		pauser:                          options.Pauser,
		clock:                           c,
		logger:                          options.Logger,
		resyncCheckPeriod:               options.ResyncPeriod,
		defaultEventHandlerResyncPeriod: options.ResyncPeriod,
		synced:                          make(chan struct{}),
		watchErrorHandler:               reflector.DefaultWatchErrorHandler,
	}
}

// Run mirrors sharedIndexInformer.Run: RunWithContext until stopCh closes.
func (s *sharedIndexInformer) Run(stopCh <-chan struct{}) {
	s.RunWithContext(chanctx.ForChannel(stopCh))
}

// RunWithContext mirrors sharedIndexInformer.RunWithContext (SI-2, SI-3): build the profile's
// queue and the controller, start the processor, run the controller until ctx ends, and stop
// the processor only after the controller has exited.
func (s *sharedIndexInformer) RunWithContext(ctx context.Context) {
	s.startedLock.Lock()
	if s.started || s.stopped {
		s.startedLock.Unlock()
		if s.logger != nil {
			s.logger.Warn("the sharedIndexInformer has started, run more than once is not allowed")
		}
		return
	}
	queue := s.profile.newQueue(s.indexer, s.transform, s.logger)
	cfg := &Config{
		Queue:                        queue,
		ListerWatcher:                s.listerWatcher,
		ObjectType:                   s.objectType,
		ObjectDescription:            s.objectDescription,
		FullResyncPeriod:             s.resyncCheckPeriod,
		ShouldResync:                 s.processor.ShouldResync,
		Process:                      s.handleDeltas,
		WatchErrorHandlerWithContext: s.watchErrorHandler,
		UseWatchList:                 watchListSetting(s.profile, s.useWatchList),
		Clock:                        s.clock,
		Logger:                       s.logger,
		Pauser:                       s.pauser,
	}
	if s.profile.batches() {
		cfg.ProcessBatch = s.handleBatchDeltas
	}
	s.controller = New(cfg)
	s.started = true
	s.startedLock.Unlock()

	processorCtx, stopProcessor := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-queue.Done():
			close(s.synced)
		case <-processorCtx.Done(): // stopped before syncing: HasSynced stays false (SI-4)
		}
	})
	wg.Go(func() { s.processor.Run(processorCtx) })
	defer func() {
		s.startedLock.Lock()
		s.stopped = true
		s.startedLock.Unlock()
		stopProcessor()
		wg.Wait()
	}()
	s.controller.RunWithContext(ctx)
}

// HasSynced mirrors sharedIndexInformer.HasSynced (SI-4).
func (s *sharedIndexInformer) HasSynced() bool {
	select {
	case <-s.synced:
		return true
	default:
		return false
	}
}

// HasSyncedChecker mirrors sharedIndexInformer.HasSyncedChecker (v0.36).
func (s *sharedIndexInformer) HasSyncedChecker() processor.DoneChecker {
	return processor.NewDoneChecker(fmt.Sprintf("SharedIndexInformer %T", s.objectType), s.synced)
}

// LastSyncResourceVersion mirrors sharedIndexInformer.LastSyncResourceVersion (SI-6).
func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.startedLock.Lock()
	c := s.controller
	s.startedLock.Unlock()
	if c == nil {
		return ""
	}
	return c.LastSyncResourceVersion()
}

// IsStopped mirrors sharedIndexInformer.IsStopped.
func (s *sharedIndexInformer) IsStopped() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.stopped
}

// GetStore mirrors sharedIndexInformer.GetStore.
func (s *sharedIndexInformer) GetStore() store.Store { return s.indexer }

// GetIndexer mirrors sharedIndexInformer.GetIndexer.
func (s *sharedIndexInformer) GetIndexer() store.Indexer { return s.indexer }

// GetController mirrors sharedIndexInformer.GetController (SI-7): a stand-in whose Run does
// nothing, so callers cannot start a second controller.
func (s *sharedIndexInformer) GetController() Controller { return &dummyController{informer: s} }

// AddIndexers mirrors sharedIndexInformer.AddIndexers (SI-5): allowed until the informer stops.
func (s *sharedIndexInformer) AddIndexers(indexers store.Indexers) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return errors.New("informer has already stopped")
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.indexer.AddIndexers(indexers)
}

// SetWatchErrorHandler mirrors sharedIndexInformer.SetWatchErrorHandler (SI-5).
func (s *sharedIndexInformer) SetWatchErrorHandler(handler reflector.WatchErrorHandler) error {
	if handler == nil {
		return errors.New("informer: nil watch error handler")
	}
	return s.SetWatchErrorHandlerWithContext(func(_ context.Context, r *reflector.Reflector, err error) {
		handler(r, err)
	})
}

// SetWatchErrorHandlerWithContext mirrors sharedIndexInformer.SetWatchErrorHandlerWithContext.
func (s *sharedIndexInformer) SetWatchErrorHandlerWithContext(handler reflector.WatchErrorHandlerWithContext) error {
	if handler == nil {
		return errors.New("informer: nil watch error handler")
	}
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errors.New("informer has already started")
	}
	s.watchErrorHandler = handler
	return nil
}

// SetTransform mirrors sharedIndexInformer.SetTransform (SI-5).
func (s *sharedIndexInformer) SetTransform(handler store.TransformFunc) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errors.New("informer has already started")
	}
	s.transform = handler
	return nil
}

// AddEventHandler mirrors sharedIndexInformer.AddEventHandler: the handler inherits the
// informer's default resync period (SI-12).
func (s *sharedIndexInformer) AddEventHandler(handler processor.ResourceEventHandler) (processor.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod mirrors sharedIndexInformer.AddEventHandlerWithResyncPeriod.
func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler processor.ResourceEventHandler, resyncPeriod time.Duration) (processor.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions mirrors sharedIndexInformer.AddEventHandlerWithOptions (SI-12,
// SI-13, SI-14). A handler added to a running informer joins under blockDeltas and receives one
// synthetic initial-list add per cached object before any later event.
//
//lab:06.2
func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler processor.ResourceEventHandler, options HandlerOptions) (processor.ResourceEventHandlerRegistration, error) {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handlerName(handler, options))
	}

	resync := s.defaultEventHandlerResyncPeriod
	if options.ResyncPeriod != nil {
		resync = *options.ResyncPeriod
	}
	if resync > 0 {
		if resync < minimumResyncPeriod {
			resync = minimumResyncPeriod // SI-13.1
		}
		if resync < s.resyncCheckPeriod {
			if s.started {
				resync = s.resyncCheckPeriod // SI-13.2, after start
			} else {
				s.resyncCheckPeriod = resync // SI-13.2, before start
				s.processor.ResyncCheckPeriodChanged(resync)
			}
		}
	}
	logger := s.logger
	if options.Logger != nil {
		logger = options.Logger
	}
	l, err := processor.NewProcessorListener(handler, resync, processor.DetermineResyncPeriod(resync, s.resyncCheckPeriod),
		s.clock.Now(), processor.InitialBufferSize, s.HasSyncedChecker(), processor.ListenerOptions{
			Name:        handlerName(handler, options),
			Logger:      logger,
			Clock:       s.clock,
			PanicPolicy: s.panicPolicy,
		})
	if err != nil {
		return nil, err
	}
	if !s.started {
		reg, _ := s.processor.AddListener(l)
		return reg, nil
	}

	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	reg, running := s.processor.AddListener(l)
	for _, obj := range s.indexer.List() {
		l.Add(processor.AddNotification{NewObj: obj, IsInInitialList: true})
	}
	if running {
		s.processor.StartWatchSynced(l)
	}
	return reg, nil
}

// handlerName is the listener's trace label: the option, else the handler's Go type.
func handlerName(handler processor.ResourceEventHandler, options HandlerOptions) string {
	if options.Name != "" {
		return options.Name
	}
	return fmt.Sprintf("%T", handler)
}

// RemoveEventHandler mirrors sharedIndexInformer.RemoveEventHandler (SI-16).
func (s *sharedIndexInformer) RemoveEventHandler(handle processor.ResourceEventHandlerRegistration) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.processor.RemoveListener(handle)
}

// ShutDownEventHandler mirrors cache.ShutDownEventHandler (v0.37, SI-17): remove the handler and
// wait until its listener has delivered its last notification. Never call it from inside the
// handler itself.
func ShutDownEventHandler(informer SharedInformer, handle processor.ResourceEventHandlerRegistration) error {
	if err := informer.RemoveEventHandler(handle); err != nil {
		return err
	}
	if l, ok := handle.(*processor.ProcessorListener); ok && l != nil {
		<-l.ShutdownChan()
	}
	return nil
}

// handleDeltas mirrors sharedIndexInformer.handleDeltas (SI-8): apply one key's deltas to the
// indexer and notify, holding blockDeltas throughout.
func (s *sharedIndexInformer) handleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	switch v := obj.(type) {
	case deltafifo.Deltas:
		return processDeltas(s, s.indexer, v, isInInitialList, store.DeletionHandlingMetaNamespaceKeyFunc)
	case deltafifo.Delta:
		return processDeltas(s, s.indexer, deltafifo.Deltas{v}, isInInitialList, store.DeletionHandlingMetaNamespaceKeyFunc)
	}
	return fmt.Errorf("informer: popped %T, not Deltas", obj)
}

// handleBatchDeltas mirrors sharedIndexInformer.handleBatchDeltas (C-11, D-9).
func (s *sharedIndexInformer) handleBatchDeltas(deltas []deltafifo.Delta, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return processDeltasInBatch(s, s.indexer, deltas, isInInitialList, store.DeletionHandlingMetaNamespaceKeyFunc)
}

// OnAdd mirrors sharedIndexInformer.OnAdd (SI-9): the informer is the handler processDeltas
// calls, and it fans out to its listeners.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.Distribute(processor.AddNotification{NewObj: obj, IsInInitialList: isInInitialList}, false)
}

// OnUpdate mirrors sharedIndexInformer.OnUpdate (SI-10): an update that does not change the
// resourceVersion is a resync, delivered only to listeners due for one.
//
//lab:06.2
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	isSync := false
	if o, err := api.Accessor(oldObj); err == nil {
		if n, err := api.Accessor(newObj); err == nil {
			isSync = o.GetResourceVersion() == n.GetResourceVersion()
		}
	}
	s.processor.Distribute(processor.UpdateNotification{OldObj: oldObj, NewObj: newObj}, isSync)
}

// OnDelete mirrors sharedIndexInformer.OnDelete (SI-11).
func (s *sharedIndexInformer) OnDelete(oldObj any) {
	s.processor.Distribute(processor.DeleteNotification{OldObj: oldObj}, false)
}

// dummyController mirrors dummyController in client-go (SI-7).
type dummyController struct{ informer *sharedIndexInformer }

func (d *dummyController) Run(<-chan struct{})            {}
func (d *dummyController) RunWithContext(context.Context) {}
func (d *dummyController) HasSynced() bool                { return d.informer.HasSynced() }
func (d *dummyController) HasSyncedChecker() processor.DoneChecker {
	return d.informer.HasSyncedChecker()
}
func (d *dummyController) LastSyncResourceVersion() string {
	return d.informer.LastSyncResourceVersion()
}
