package informer

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// InformerOptions mirrors cache.InformerOptions: the settings of a non-shared informer.
// Profile, UseWatchList, Clock and Logger are ours.
type InformerOptions struct {
	// ListerWatcher is how the informer reaches the server. Required.
	ListerWatcher listwatch.ListerWatcher
	// ObjectType is an example of the listed type, e.g. &api.Pod{}. Required.
	ObjectType any
	// Handler is called synchronously on the processLoop goroutine (C-14). Required.
	Handler processor.ResourceEventHandler
	// ResyncPeriod is how often every cached object is handed to OnUpdate again; 0 never.
	ResyncPeriod time.Duration
	// MinWatchTimeout is passed to the reflector.
	MinWatchTimeout time.Duration
	// Indexers, when set, make the returned store an Indexer with these indexes.
	Indexers store.Indexers
	// Transform rewrites every object before it is queued.
	Transform store.TransformFunc
	// Profile picks the queue and the watch-list default (docs/behaviour/client-go.md §0.2).
	Profile Profile
	// UseWatchList overrides the profile's watch-list default when set.
	UseWatchList *bool
	// Clock is the time source; nil is the real clock.
	Clock clock.Clock
	// Logger receives every component's hops, and one hop per handler call (component
	// "informer", op "handle"); nil is silent.
	Logger *slog.Logger
	// Pauser, when set, can hold processLoop before its next pop.
	Pauser *Pauser
}

// NewInformerWithOptions mirrors cache.NewInformerWithOptions: a cache kept in step with the
// server and a controller that calls options.Handler after each cache write. The handler runs
// on the controller's own goroutine, so a slow handler holds up the whole pipeline (C-14); the
// shared informer's processor exists to avoid exactly that.
func NewInformerWithOptions(options InformerOptions) (store.Store, Controller) {
	var clientState store.Store
	if options.Indexers != nil {
		clientState = store.NewIndexer(store.DeletionHandlingMetaNamespaceKeyFunc, options.Indexers, options.Profile.storeOptions(options.Logger)...)
	} else {
		clientState = store.NewStore(store.DeletionHandlingMetaNamespaceKeyFunc, options.Profile.storeOptions(options.Logger)...)
	}
	return clientState, newInformer(clientState, options)
}

// NewInformer mirrors the deprecated cache.NewInformer, the constructor the articles use.
func NewInformer(lw listwatch.ListerWatcher, objType any, resyncPeriod time.Duration, h processor.ResourceEventHandler) (store.Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod})
}

// NewIndexerInformer mirrors the deprecated cache.NewIndexerInformer.
func NewIndexerInformer(lw listwatch.ListerWatcher, objType any, resyncPeriod time.Duration, h processor.ResourceEventHandler, indexers store.Indexers) (store.Indexer, Controller) {
	s, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Indexers: indexers})
	return s.(store.Indexer), c
}

// newInformer mirrors newInformer in client-go tools/cache/controller.go.
func newInformer(clientState store.Store, options InformerOptions) Controller {
	switch {
	case options.Handler == nil:
		// A nil handler would panic at the first event; an informer without one still keeps
		// its store up to date, so it gets a handler that does nothing.
		options.Handler = processor.ResourceEventHandlerFuncs{}
	case options.Logger != nil:
		options.Handler = tracingHandler{handler: options.Handler, logger: options.Logger}
	}
	queue := options.Profile.newQueue(clientState, options.Transform, options.Logger)
	cfg := &Config{
		Queue:            queue,
		ListerWatcher:    options.ListerWatcher,
		ObjectType:       options.ObjectType,
		FullResyncPeriod: options.ResyncPeriod,
		MinWatchTimeout:  options.MinWatchTimeout,
		UseWatchList:     watchListSetting(options.Profile, options.UseWatchList),
		Clock:            options.Clock,
		Logger:           options.Logger,
		Pauser:           options.Pauser,
		Process: func(obj any, isInInitialList bool) error {
			deltas, ok := obj.(deltafifo.Deltas)
			if !ok {
				return fmt.Errorf("informer: popped %T, not Deltas", obj)
			}
			return processDeltas(options.Handler, clientState, deltas, isInInitialList, store.DeletionHandlingMetaNamespaceKeyFunc)
		},
	}
	if options.Profile.batches() {
		cfg.ProcessBatch = func(deltas []deltafifo.Delta, isInInitialList bool) error {
			return processDeltasInBatch(options.Handler, clientState, deltas, isInInitialList, store.DeletionHandlingMetaNamespaceKeyFunc)
		}
	}
	return New(cfg)
}

// tracingHandler logs one hop per call of a non-shared informer's handler, the hop the
// processor's listener logs ("listener deliver") in a shared informer. It has no client-go
// counterpart: client-go traces with klog instead.
type tracingHandler struct {
	handler processor.ResourceEventHandler
	logger  *slog.Logger
}

func (h tracingHandler) OnAdd(obj any, isInInitialList bool) {
	if trace.Enabled(h.logger) {
		key, rv, _ := store.KeyAndResourceVersion(obj)
		trace.Hop(h.logger, "informer", "handle", key, rv, slog.String(trace.KeyType, "add"), slog.Bool("init", isInInitialList))
	}
	h.handler.OnAdd(obj, isInInitialList)
}

func (h tracingHandler) OnUpdate(oldObj, newObj any) {
	if trace.Enabled(h.logger) {
		key, rv, _ := store.KeyAndResourceVersion(newObj)
		_, oldRV, _ := store.KeyAndResourceVersion(oldObj)
		trace.Hop(h.logger, "informer", "handle", key, rv, slog.String(trace.KeyType, "update"), slog.String("old_rv", oldRV))
	}
	h.handler.OnUpdate(oldObj, newObj)
}

func (h tracingHandler) OnDelete(obj any) {
	if trace.Enabled(h.logger) {
		key, rv, _ := store.KeyAndResourceVersion(obj)
		trace.Hop(h.logger, "informer", "handle", key, rv, slog.String(trace.KeyType, "delete"))
	}
	h.handler.OnDelete(obj)
}

// watchListSetting resolves the watch-list switch: an explicit setting wins over the profile.
func watchListSetting(p Profile, explicit *bool) *bool {
	if explicit != nil {
		return explicit
	}
	v := p.usesWatchList()
	return &v
}
