package reflector

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/chanctx"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/store"
)

// traceComponent is the component attribute of every hop the reflector logs.
const traceComponent = "reflector"

// defaultExpectedTypeName is the type description of a reflector built with a nil expectedType.
const defaultExpectedTypeName = "<unspecified>"

// Watch timeouts are random in [min, 2·min) so that a restarted apiserver does not see every
// client re-watch at the same instant.
const defaultMinWatchTimeout = 5 * time.Minute

// ReflectorStore mirrors cache.ReflectorStore in client-go tools/cache/reflector.go: the only
// store methods the Reflector calls. deltafifo.DeltaFIFO, deltafifo.RealFIFO and store.Store
// all satisfy it.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	// Replace takes ownership of list: the store may keep the slice.
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// ReflectorBookmarkStore mirrors cache.ReflectorBookmarkStore: a store that wants to hear about
// BOOKMARK events (RealFIFO records them as Bookmark deltas, R-14).
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// ResourceVersionUpdater mirrors cache.ResourceVersionUpdater: a store that tracks the
// reflector's resourceVersion after every watch event.
type ResourceVersionUpdater interface {
	UpdateResourceVersion(resourceVersion string)
}

// TransformingStore mirrors cache.TransformingStore: a store whose transformer the reflector
// reuses for its watch-list temporary store, so both hold the same shape of object.
type TransformingStore interface {
	ReflectorStore
	Transformer() store.TransformFunc
}

// ReflectorOptions mirrors cache.ReflectorOptions. UseWatchList is ours: it replaces the
// WatchListClient feature gate (docs/behaviour/client-go.md N-3).
type ReflectorOptions struct {
	// Name names the reflector in logs; empty means the caller's file:line.
	Name string
	// TypeDescription describes the expected type in logs and errors; empty means it is
	// derived from expectedType.
	TypeDescription string
	// ResyncPeriod is how often the resync helper considers calling store.Resync; 0 never.
	ResyncPeriod time.Duration
	// MinWatchTimeout raises the 5-minute lower bound of the random watch timeout; smaller
	// values are ignored, as upstream.
	MinWatchTimeout time.Duration
	// Clock is the time source; nil means the real clock (virtual inside a synctest bubble).
	Clock clock.Clock
	// Backoff replaces the default backoff parameters; the reset interval stays 2 min.
	Backoff *Backoff
	// Logger receives one Debug hop per list, watch start and end, event, relist, backoff
	// and resync, and warnings; nil is silent.
	Logger *slog.Logger
	// UseWatchList turns watch-list on or off; nil means on, as client-go v0.37.
	UseWatchList *bool
}

// Reflector mirrors cache.Reflector in client-go tools/cache/reflector.go: it lists and watches
// one resource and mirrors every change into a ReflectorStore.
type Reflector struct {
	name            string
	typeDescription string
	// expectedType is the Go type events must have; nil accepts any.
	expectedType reflect.Type
	// expectedGVK is set for an *api.Unstructured expectedType that carries apiVersion and kind.
	expectedGVK *api.GroupVersionKind

	store           ReflectorStore
	listerWatcher   listwatch.ListerWatcherWithContext
	resyncPeriod    time.Duration
	minWatchTimeout time.Duration
	maxWatchTimeout time.Duration
	// delayHandler is the one backoff every retry path shares.
	delayHandler DelayFunc
	clock        clock.Clock
	logger       *slog.Logger
	useWatchList bool

	// paginatedResult remembers that an RV="0" LIST came back in pages, so the server does
	// not serve from a cache and later LISTs may as well be paged too.
	paginatedResult bool

	// mu guards the two fields below, which LastSyncResourceVersion reads concurrently.
	mu                      sync.RWMutex
	lastSyncResourceVersion string
	// isLastSyncResourceVersionUnavailable is set when a LIST or watch-list at the last RV
	// failed with 410 or "too large"; the next attempt then uses RV "".
	isLastSyncResourceVersionUnavailable bool

	watchErrorHandler WatchErrorHandlerWithContext

	// WatchListPageSize mirrors Reflector.WatchListPageSize: the LIST page size; 0 lets the
	// reflector choose. Set it before Run.
	WatchListPageSize int64
	// ShouldResync mirrors Reflector.ShouldResync: asked every resync period; nil means yes
	// . Set it before Run.
	ShouldResync func() bool
	// MaxInternalErrorRetryDuration mirrors Reflector.MaxInternalErrorRetryDuration: how long a
	// watch ending in 500 is re-opened at once instead of relisting; 0 never.
	MaxInternalErrorRetryDuration time.Duration
}

// NewReflector mirrors cache.NewReflector: a reflector named after the caller's file:line.
func NewReflector(lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector mirrors cache.NewNamedReflector.
func NewNamedReflector(name string, lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewReflectorWithOptions mirrors cache.NewReflectorWithOptions. The reflector puts only
// objects of expectedType's Go type into store (any type when nil). A nil lw or store is not a
// panic: ListAndWatch reports it as an error.
func NewReflectorWithOptions(lw listwatch.ListerWatcher, expectedType any, store ReflectorStore, options ReflectorOptions) *Reflector {
	c := clock.Or(options.Clock)
	minTimeout := max(defaultMinWatchTimeout, options.MinWatchTimeout)
	backoff := DefaultBackoff()
	if options.Backoff != nil {
		backoff = *options.Backoff
	}
	r := &Reflector{
		name:              options.Name,
		typeDescription:   options.TypeDescription,
		expectedType:      reflect.TypeOf(expectedType),
		expectedGVK:       expectedGVKOf(expectedType),
		store:             store,
		resyncPeriod:      options.ResyncPeriod,
		minWatchTimeout:   minTimeout,
		maxWatchTimeout:   2 * minTimeout,
		delayHandler:      backoff.DelayWithReset(c, defaultBackoffReset),
		clock:             c,
		logger:            options.Logger,
		watchErrorHandler: DefaultWatchErrorHandler,
		useWatchList:      options.UseWatchList == nil || *options.UseWatchList,
	}
	if lw != nil {
		r.listerWatcher = listwatch.ToListerWatcherWithContext(lw)
		// LW-2: a client that cannot do watch-list says so, and the reflector believes it.
		if u, ok := lw.(listwatch.WatchListSemanticsUnsupported); ok && u.IsWatchListSemanticsUnSupported() {
			r.useWatchList = false
		}
	}
	if r.name == "" {
		r.name = nameFromCallsite()
	}
	if r.typeDescription == "" {
		r.typeDescription = typeDescriptionOf(expectedType)
	}
	return r
}

// typeDescriptionOf mirrors getTypeDescriptionFromObject.
func typeDescriptionOf(expectedType any) string {
	if expectedType == nil {
		return defaultExpectedTypeName
	}
	if gvk := expectedGVKOf(expectedType); gvk != nil {
		return gvk.String()
	}
	return reflect.TypeOf(expectedType).String()
}

// expectedGVKOf mirrors getExpectedGVKFromObject: only unstructured objects need their kind
// checked, because their Go type says nothing.
func expectedGVKOf(expectedType any) *api.GroupVersionKind {
	u, ok := expectedType.(*api.Unstructured)
	if !ok || u == nil {
		return nil
	}
	gvk := u.GroupVersionKind()
	if gvk == (api.GroupVersionKind{}) {
		return nil
	}
	return &gvk
}

// nameFromCallsite mirrors naming.GetNameFromCallsite: the file:line of the first caller
// outside this package's own (non-test) files.
func nameFromCallsite() string {
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Dir(self)
	pcs := make([]uintptr, 16)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if filepath.Dir(f.File) != dir || strings.HasSuffix(f.File, "_test.go") {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return "reflector"
		}
	}
}

// Name mirrors Reflector.Name.
func (r *Reflector) Name() string { return r.name }

// TypeDescription mirrors Reflector.TypeDescription.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// SetWatchErrorHandler mirrors what sharedIndexInformer.SetWatchErrorHandler does to its
// reflector (client-go sets the unexported field directly): h replaces
// DefaultWatchErrorHandler. Call it before Run; nil is ignored.
func (r *Reflector) SetWatchErrorHandler(h WatchErrorHandler) {
	if h == nil {
		return
	}
	r.watchErrorHandler = func(_ context.Context, r *Reflector, err error) { h(r, err) }
}

// SetWatchErrorHandlerWithContext mirrors sharedIndexInformer.SetWatchErrorHandlerWithContext.
func (r *Reflector) SetWatchErrorHandlerWithContext(h WatchErrorHandlerWithContext) {
	if h != nil {
		r.watchErrorHandler = h
	}
}

// Run mirrors Reflector.Run: RunWithContext until stopCh is closed.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	r.RunWithContext(chanctx.ForChannel(stopCh))
}

// RunWithContext mirrors Reflector.RunWithContext: ListAndWatch at once, then forever:
// report an error to the watch-error handler, wait one backoff delay (even after a nil
// return), ListAndWatch again. It returns only when ctx is done, and leaves no goroutine.
func (r *Reflector) RunWithContext(ctx context.Context) {
	for {
		if err := r.ListAndWatchWithContext(ctx); err != nil {
			r.watchErrorHandler(ctx, r, err)
		}
		if ctx.Err() != nil {
			return
		}
		if !r.sleepBackoff(ctx) {
			return
		}
	}
}

// sleepBackoff waits one delay of the shared backoff; false means ctx ended first.
func (r *Reflector) sleepBackoff(ctx context.Context) bool {
	d := r.delayHandler()
	if trace.Enabled(r.logger) {
		trace.Hop(r.logger, traceComponent, "backoff", "", r.LastSyncResourceVersion(), slog.Duration("delay", d))
	}
	t := r.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return ctx.Err() == nil
	}
}

// ListAndWatch mirrors Reflector.ListAndWatch: ListAndWatchWithContext until stopCh closes.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	return r.ListAndWatchWithContext(chanctx.ForChannel(stopCh))
}

// ListAndWatchWithContext mirrors Reflector.ListAndWatchWithContext: one cycle. It syncs the
// store, by watch-list or LIST, then watches until the watch cannot simply be
// resumed. It returns an error only when it never got to watch; a nil return after
// ctx is done means "stopped".
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	if r.listerWatcher == nil {
		return errors.New("reflector: no ListerWatcher")
	}
	if r.store == nil {
		return errors.New("reflector: no store")
	}
	if r.useWatchList {
		w, err := r.watchList(ctx)
		if err == nil && w == nil {
			return nil // stopped
		}
		if err == nil {
			return r.watchWithResync(ctx, w) // the stream goes on
		}
		// fall back to LIST for this cycle only.
		r.warn(ctx, "watch-list failed, falling back to LIST", err)
	}
	if err := r.list(ctx); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return nil
	}
	return r.watchWithResync(ctx, nil)
}

// watchTimeoutSeconds mirrors the timeout draw of Reflector.watch: uniform in [min, max).
func (r *Reflector) watchTimeoutSeconds() int64 {
	lo, hi := r.minWatchTimeout.Seconds(), r.maxWatchTimeout.Seconds()
	return int64(lo + rand.Float64()*(hi-lo))
}

// LastSyncResourceVersion mirrors Reflector.LastSyncResourceVersion: the RV of the last
// LIST, watch event or watch-list bookmark. Safe for concurrent use, but not synchronised
// with the store.
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lastSyncResourceVersion
}

func (r *Reflector) setLastSyncResourceVersion(v string) {
	r.mu.Lock()
	r.lastSyncResourceVersion = v
	r.mu.Unlock()
}

// relistResourceVersion mirrors Reflector.relistResourceVersion: "" after an unusable
// RV (a consistent read), "0" before anything was seen (any state, e.g. a watch cache), else
// the last RV seen (state not older than what this reflector already knows).
//
//lab:05.1
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.isLastSyncResourceVersionUnavailable:
		return ""
	case r.lastSyncResourceVersion == "":
		return "0"
	default:
		return r.lastSyncResourceVersion
	}
}

// rewatchResourceVersion mirrors Reflector.rewatchResourceVersion: where a watch-list starts
// . Unlike a LIST it never uses "0": "" is already "the latest consistent snapshot".
func (r *Reflector) rewatchResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

func (r *Reflector) setIsLastSyncResourceVersionUnavailable(v bool) {
	r.mu.Lock()
	r.isLastSyncResourceVersionUnavailable = v
	r.mu.Unlock()
}

// warn logs a problem the reflector recovers from by itself (a skipped event, a store error,
// a watch that ended with an error); nil loggers stay silent.
func (r *Reflector) warn(ctx context.Context, msg string, err error, attrs ...slog.Attr) {
	if r.logger == nil || !r.logger.Enabled(ctx, slog.LevelWarn) {
		return
	}
	all := append([]slog.Attr{slog.String("reflector", r.name), slog.Any("err", err)}, attrs...)
	r.logger.LogAttrs(ctx, slog.LevelWarn, msg, all...)
}
