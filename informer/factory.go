package informer

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/chanctx"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// ListWatchSource plays the part of the clientset in client-go's generated informers: it
// makes the ListerWatcher for one resource in one namespace ("" for all), passing every
// request's options through tweak.
type ListWatchSource interface {
	ListWatchFor(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher
}

// ListWatchSourceFunc adapts a function to ListWatchSource, e.g. one that lists and watches
// an in-process apiserver directly.
type ListWatchSourceFunc func(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher

// ListWatchFor calls f.
func (f ListWatchSourceFunc) ListWatchFor(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher {
	return f(gvr, namespace, tweak)
}

// RESTGetter is all NewRESTSource needs of a REST client: for each group-version, a client
// whose Get starts the requests of listwatch.NewFilteredListWatchFromClient (it is a
// listwatch.Getter). *rest.RESTClient is one. In client-go the generated informers
// take the typed clientset, whose group clients each hold a RESTClient.
type RESTGetter interface {
	ForGroupVersion(gv api.GroupVersion) *rest.RESTClient
}

// NewRESTSource is the ListWatchSource of a REST client: every resource is listed and
// watched over HTTP with listwatch.NewFilteredListWatchFromClient.
func NewRESTSource(c RESTGetter) ListWatchSource {
	if rc, ok := c.(*rest.RESTClient); ok && rc == nil {
		c = nil // a nil *rest.RESTClient is as unusable as no client
	}
	return ListWatchSourceFunc(func(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher {
		if c == nil {
			return failingListerWatcher{errors.New("informer: NewRESTSource was given a nil client")}
		}
		return listwatch.NewFilteredListWatchFromClient(c.ForGroupVersion(gvr.GroupVersion()), gvr.Resource, namespace, tweak)
	})
}

// failingListerWatcher answers every request with err: a factory built without a usable
// source still runs, and its informers report why they never sync to the watch error handler.
type failingListerWatcher struct{ err error }

func (f failingListerWatcher) List(api.ListOptions) (api.Object, error)       { return nil, f.err }
func (f failingListerWatcher) Watch(api.ListOptions) (watch.Interface, error) { return nil, f.err }

// NewInformerFunc mirrors internalinterfaces.NewInformerFunc: how InformerFor builds an
// informer the first time a type is asked for.
type NewInformerFunc func(source ListWatchSource, resyncPeriod time.Duration) SharedIndexInformer

// SharedInformerOption mirrors informers.SharedInformerOption.
type SharedInformerOption func(*sharedInformerFactory)

// WithNamespace mirrors informers.WithNamespace: every informer lists one namespace only.
func WithNamespace(namespace string) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.namespace = namespace }
}

// WithTweakListOptions mirrors informers.WithTweakListOptions: e.g. add a label selector to
// every LIST and WATCH.
func WithTweakListOptions(tweak func(*api.ListOptions)) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.tweakListOptions = tweak }
}

// WithCustomResyncConfig mirrors informers.WithCustomResyncConfig: a resync period per type,
// keyed by an example object such as &api.Pod{}.
func WithCustomResyncConfig(resyncConfig map[api.Object]time.Duration) SharedInformerOption {
	return func(f *sharedInformerFactory) {
		for obj, d := range resyncConfig {
			f.customResync[reflect.TypeOf(obj)] = d
		}
	}
}

// WithTransform mirrors informers.WithTransform: every informer's SetTransform.
func WithTransform(transform store.TransformFunc) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.transform = transform }
}

// WithProfile is ours: the queue profile of every informer the factory builds.
func WithProfile(p Profile) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.profile = p }
}

// WithLogger is ours: every informer's logger.
func WithLogger(l *slog.Logger) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.logger = l }
}

// WithClock is ours: every informer's clock.
func WithClock(c clock.Clock) SharedInformerOption {
	return func(f *sharedInformerFactory) { f.clock = c }
}

// SharedInformerFactory mirrors informers.SharedInformerFactory, without generated group
// accessors beyond Core().V1() for the kinds we serve.
type SharedInformerFactory interface {
	Start(stopCh <-chan struct{})
	StartWithContext(ctx context.Context)
	Shutdown()
	WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool
	WaitForCacheSyncWithContext(ctx context.Context) SyncResult
	InformerFor(obj api.Object, newFunc NewInformerFunc) SharedIndexInformer
	ForResource(gvr api.GroupVersionResource) (GenericInformer, error)
	Core() CoreInterface
}

// sharedInformerFactory mirrors the generated informers.sharedInformerFactory.
type sharedInformerFactory struct {
	// dynamic makes ForResource build *api.Unstructured informers for built-ins too
	// (NewDynamicSharedInformerFactory).
	dynamic          bool
	source           ListWatchSource
	defaultResync    time.Duration
	namespace        string
	tweakListOptions func(*api.ListOptions)
	customResync     map[reflect.Type]time.Duration
	transform        store.TransformFunc
	profile          Profile
	logger           *slog.Logger
	clock            clock.Clock

	lock      sync.Mutex
	informers map[reflect.Type]SharedIndexInformer
	// generic holds ForResource informers of kinds without a Go type, keyed by resource.
	generic map[api.GroupVersionResource]SharedIndexInformer
	// startedInformers records what Start launched, so a second Start only adds new ones.
	startedInformers map[SharedIndexInformer]bool
	wg               sync.WaitGroup
	shuttingDown     bool
}

// NewSharedInformerFactory mirrors informers.NewSharedInformerFactory.
func NewSharedInformerFactory(source ListWatchSource, defaultResync time.Duration) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(source, defaultResync)
}

// NewSharedInformerFactoryWithOptions mirrors informers.NewSharedInformerFactoryWithOptions.
func NewSharedInformerFactoryWithOptions(source ListWatchSource, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	f := &sharedInformerFactory{
		source:           source,
		defaultResync:    defaultResync,
		customResync:     map[reflect.Type]time.Duration{},
		informers:        map[reflect.Type]SharedIndexInformer{},
		generic:          map[api.GroupVersionResource]SharedIndexInformer{},
		startedInformers: map[SharedIndexInformer]bool{},
	}
	for _, o := range options {
		o(f)
	}
	return f
}

// InformerFor mirrors sharedInformerFactory.InformerFor (FA-1, FA-2): one informer per Go type,
// built on first request and only registered: nothing runs until Start.
func (f *sharedInformerFactory) InformerFor(obj api.Object, newFunc NewInformerFunc) SharedIndexInformer {
	f.lock.Lock()
	defer f.lock.Unlock()
	t := reflect.TypeOf(obj)
	if inf, ok := f.informers[t]; ok {
		return inf
	}
	resync, ok := f.customResync[t]
	if !ok {
		resync = f.defaultResync
	}
	inf := newFunc(f.source, resync)
	if f.transform != nil {
		_ = inf.SetTransform(f.transform) // cannot fail: the informer has not started
	}
	f.informers[t] = inf
	return inf
}

// newInformerFor builds the informer of one resource the way generated informers do (FA-6):
// the factory's namespace and tweak, and a namespace index.
func (f *sharedInformerFactory) newInformerFor(gvr api.GroupVersionResource, example api.Object, namespaced bool) NewInformerFunc {
	return func(source ListWatchSource, resync time.Duration) SharedIndexInformer {
		ns := ""
		if namespaced {
			ns = f.namespace
		}
		indexers := store.Indexers{}
		if namespaced {
			indexers[store.NamespaceIndex] = store.MetaNamespaceIndexFunc
		}
		var lw listwatch.ListerWatcher = failingListerWatcher{errors.New("informer: the factory has no ListWatchSource")}
		if source != nil {
			lw = source.ListWatchFor(gvr, ns, f.tweak)
		}
		return NewSharedIndexInformerWithOptions(lw, example, SharedIndexInformerOptions{
			ResyncPeriod: resync,
			Indexers:     indexers,
			Profile:      f.profile,
			Clock:        f.clock,
			Logger:       f.logger,
		})
	}
}

// tweak applies the factory's tweak function, if any.
func (f *sharedInformerFactory) tweak(opts *api.ListOptions) {
	if f.tweakListOptions != nil {
		f.tweakListOptions(opts)
	}
}

// Start mirrors sharedInformerFactory.Start (FA-3): StartWithContext until stopCh closes.
func (f *sharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(chanctx.ForChannel(stopCh))
}

// StartWithContext mirrors sharedInformerFactory.StartWithContext (FA-3): run every registered
// informer that has not been started yet, each in its own goroutine, until ctx ends. After
// Shutdown it does nothing.
func (f *sharedInformerFactory) StartWithContext(ctx context.Context) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.shuttingDown {
		return
	}
	f.startLocked(ctx)
}

func (f *sharedInformerFactory) startLocked(ctx context.Context) {
	start := func(inf SharedIndexInformer) {
		if f.startedInformers[inf] {
			return
		}
		f.startedInformers[inf] = true
		f.wg.Go(func() { inf.RunWithContext(ctx) })
	}
	for _, inf := range f.informers {
		start(inf)
	}
	for _, inf := range f.generic {
		start(inf)
	}
}

// Shutdown mirrors sharedInformerFactory.Shutdown (FA-5): refuse further Starts and wait for
// every informer goroutine. The caller must cancel the context or stop channel it started
// them with.
func (f *sharedInformerFactory) Shutdown() {
	f.lock.Lock()
	f.shuttingDown = true
	f.lock.Unlock()
	f.wg.Wait()
}

// SyncResult mirrors informers.SyncResult (v0.36): which started informers synced, and why
// the wait ended early if some did not.
type SyncResult struct {
	// Synced holds, for every started informer, whether it synced.
	Synced map[reflect.Type]bool
	// Err is the cause of the context's end when some informer did not sync, else nil.
	Err error
}

// WaitForCacheSync mirrors sharedInformerFactory.WaitForCacheSync (FA-4): for every started
// informer, whether it synced before stopCh closed.
func (f *sharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(chanctx.ForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext mirrors sharedInformerFactory.WaitForCacheSyncWithContext (FA-4):
// wait on the Done channels of every started informer, without polling, until all are synced
// or ctx ends. The informers ForResource built for kinds without a Go type all share the type
// *api.Unstructured; that entry is true only when every one of them synced.
func (f *sharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) SyncResult {
	f.lock.Lock()
	started := map[SharedIndexInformer]reflect.Type{}
	for t, inf := range f.informers {
		if f.startedInformers[inf] {
			started[inf] = t
		}
	}
	for _, inf := range f.generic {
		if f.startedInformers[inf] {
			started[inf] = reflect.TypeOf(&api.Unstructured{})
		}
	}
	f.lock.Unlock()

	checkers := make([]processor.DoneChecker, 0, len(started))
	for inf := range started {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	WaitFor(ctx, "", checkers...)

	res := SyncResult{Synced: make(map[reflect.Type]bool, len(started))}
	for inf, t := range started {
		synced := inf.HasSynced()
		if prev, seen := res.Synced[t]; seen {
			synced = synced && prev
		}
		res.Synced[t] = synced
		if !synced {
			res.Err = context.Cause(ctx)
		}
	}
	return res
}
