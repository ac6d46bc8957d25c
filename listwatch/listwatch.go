package listwatch

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// Lister mirrors cache.Lister: one LIST request. The result is a list object (an
// api.ListObject such as *api.PodList) whose ListMeta carries resourceVersion and continue.
type Lister interface {
	List(opts api.ListOptions) (api.Object, error)
}

// ListerWithContext mirrors cache.ListerWithContext (client-go v0.33+).
type ListerWithContext interface {
	ListWithContext(ctx context.Context, opts api.ListOptions) (api.Object, error)
}

// Watcher mirrors cache.Watcher: one WATCH request, returning the open stream.
type Watcher interface {
	Watch(opts api.ListOptions) (watch.Interface, error)
}

// WatcherWithContext mirrors cache.WatcherWithContext (client-go v0.33+).
type WatcherWithContext interface {
	WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
}

// ListerWatcher mirrors cache.ListerWatcher: what a Reflector lists and watches through.
type ListerWatcher interface {
	Lister
	Watcher
}

// ListerWatcherWithContext mirrors cache.ListerWatcherWithContext; the Reflector calls this
// form, and ToListerWatcherWithContext adapts the older one.
type ListerWatcherWithContext interface {
	ListerWithContext
	WatcherWithContext
}

// WatchListSemanticsUnsupported mirrors the optional method client-go's reflector looks for
// on a ListerWatcher (LW-2): when it reports true, the reflector never asks for watch-list.
type WatchListSemanticsUnsupported interface {
	IsWatchListSemanticsUnSupported() bool
}

// ListFunc mirrors cache.ListFunc.
type ListFunc func(opts api.ListOptions) (api.Object, error)

// ListWithContextFunc mirrors cache.ListWithContextFunc.
type ListWithContextFunc func(ctx context.Context, opts api.ListOptions) (api.Object, error)

// WatchFunc mirrors cache.WatchFunc.
type WatchFunc func(opts api.ListOptions) (watch.Interface, error)

// WatchFuncWithContext mirrors cache.WatchFuncWithContext.
type WatchFuncWithContext func(ctx context.Context, opts api.ListOptions) (watch.Interface, error)

// ListWatch mirrors cache.ListWatch: a ListerWatcher made of functions. When both forms of a
// function are set, the WithContext one wins (LW-1).
type ListWatch struct {
	ListFunc             ListFunc
	WatchFunc            WatchFunc
	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext
	// DisableChunking mirrors ListWatch.DisableChunking, which client-go v0.37 declares and
	// reads nowhere: its reflector pages a LIST whatever the field says, and so does ours.
	DisableChunking bool
}

// List mirrors ListWatch.List.
func (lw *ListWatch) List(opts api.ListOptions) (api.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// ListWithContext mirrors ListWatch.ListWithContext (LW-1).
func (lw *ListWatch) ListWithContext(ctx context.Context, opts api.ListOptions) (api.Object, error) {
	if lw.ListWithContextFunc != nil {
		return lw.ListWithContextFunc(ctx, opts)
	}
	return lw.ListFunc(opts)
}

// Watch mirrors ListWatch.Watch.
func (lw *ListWatch) Watch(opts api.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// WatchWithContext mirrors ListWatch.WatchWithContext (LW-1).
func (lw *ListWatch) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	if lw.WatchFuncWithContext != nil {
		return lw.WatchFuncWithContext(ctx, opts)
	}
	return lw.WatchFunc(opts)
}

// ToListerWatcherWithContext mirrors cache.ToListerWatcherWithContext: it returns lw itself
// when it already has the context form, else an adapter that drops the context.
func ToListerWatcherWithContext(lw ListerWatcher) ListerWatcherWithContext {
	if lwc, ok := lw.(ListerWatcherWithContext); ok {
		return lwc
	}
	return contextAdapter{lw}
}

// contextAdapter gives a context-free ListerWatcher the context form. The wrapped value stays
// reachable so the reflector can still find WatchListSemanticsUnsupported on it.
type contextAdapter struct{ ListerWatcher }

func (a contextAdapter) ListWithContext(_ context.Context, opts api.ListOptions) (api.Object, error) {
	return a.List(opts)
}

func (a contextAdapter) WatchWithContext(_ context.Context, opts api.ListOptions) (watch.Interface, error) {
	return a.Watch(opts)
}

// IsWatchListSemanticsUnSupported forwards LW-2 to the wrapped value.
func (a contextAdapter) IsWatchListSemanticsUnSupported() bool {
	u, ok := a.ListerWatcher.(WatchListSemanticsUnsupported)
	return ok && u.IsWatchListSemanticsUnSupported()
}
