package testbed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// Options configure New. Every field may be left zero: a silent in-process server.
type Options struct {
	// Server configures the simulated apiserver. A nil Server.Logger means Logger.
	Server apiserver.Options
	// Listen, when set (e.g. "127.0.0.1:0"), serves the apiserver over HTTP on that address
	// and makes the informer list and watch through a REST client, as a real client does.
	// Empty keeps everything in process: the informer uses the server's own ListerWatcher,
	// which also runs inside a testing/synctest bubble.
	Listen string
	// UserAgent is the REST client's; empty means the client's default.
	UserAgent string
	// Namespaces are created on the server by New, before anything else is written.
	Namespaces []string
	// Logger receives the trace hops of every component the testbed builds: the server
	// (unless Server.Logger is set), the REST client, the informer and the workqueues. nil is
	// silent.
	Logger *slog.Logger
	// WatchFilter, when set, is a fault hook: every watch the informer opens is passed
	// through it, e.g. DropInitialEventsEnd. It may return the watch unchanged.
	WatchFilter func(watch.Interface) watch.Interface
}

// InformerOptions configure NewInformer: the knobs of informer.SharedIndexInformerOptions the
// harnesses turn.
type InformerOptions struct {
	// Profile picks the queue and the watch-list default.
	Profile informer.Profile
	// Resync is the informer's default resync period (0: none).
	Resync time.Duration
	// Namespace limits the informer to one namespace; empty watches every namespace.
	Namespace string
	// Indexers are the cache's indexes, e.g. the namespace index a generated informer has.
	Indexers store.Indexers
	// PanicPolicy says what a panicking handler does; the zero value re-panics.
	PanicPolicy processor.PanicPolicy
	// Pauser, when set, can hold the informer's processLoop.
	Pauser *informer.Pauser
	// Transform, when set, is the informer's transform function.
	Transform store.TransformFunc
}

// Testbed is one assembled pipeline: the simulated apiserver (in process, or also served over
// HTTP with a REST client in front), at most one shared pod informer with its handlers, and the
// workqueue controllers that run controller.Loop. It has no client-go counterpart: it is
// what a test or the demo would otherwise write out by hand.
type Testbed struct {
	// Server is the simulated apiserver; write to it and inject faults through it.
	Server *apiserver.Server
	// URL is the server's base URL when it listens, else empty.
	URL string
	// REST is the client the informer uses when the server listens, else nil.
	REST *rest.RESTClient
	// Logger is Options.Logger, handed to everything the testbed builds.
	Logger *slog.Logger

	opts      Options
	inf       informer.SharedIndexInformer
	stopInf   func()
	ctlMu     sync.Mutex
	ctls      []*Controller
	closeOnce sync.Once
}

// New starts the server (listening when Options.Listen is set), connects the REST client and
// creates Options.Namespaces. Close releases everything, also after an error of a later step.
func New(opts Options) (*Testbed, error) {
	if opts.Server.Logger == nil {
		opts.Server.Logger = opts.Logger
	}
	tb := &Testbed{Server: apiserver.New(opts.Server), Logger: opts.Logger, opts: opts}
	if opts.Listen != "" {
		url, err := tb.Server.Start(opts.Listen)
		if err != nil {
			tb.Server.Close()
			return nil, err
		}
		tb.URL = url
		rc, err := rest.RESTClientFor(&rest.Config{Host: url, Logger: opts.Logger, UserAgent: opts.UserAgent})
		if err != nil {
			tb.Server.Close()
			return nil, err
		}
		tb.REST = rc
	}
	for _, name := range opts.Namespaces {
		ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
		if _, err := tb.Server.Create(context.Background(), "namespaces", "", ns); err != nil {
			tb.Server.Close()
			return nil, fmt.Errorf("testbed: creating namespace %s: %w", name, err)
		}
	}
	return tb, nil
}

// podsGVR is the resource every testbed informer watches.
var podsGVR = api.GroupVersionResource{Version: "v1", Resource: "pods"}

// listerWatcher is the informer's view of the server: the REST client's, built as the
// informer factory's NewRESTSource builds it, or the server's own in-process one; either with
// the watch filter in front.
func (tb *Testbed) listerWatcher(namespace string) listwatch.ListerWatcher {
	var lw listwatch.ListerWatcher
	if tb.REST != nil {
		lw = informer.NewRESTSource(tb.REST).ListWatchFor(podsGVR, namespace, nil)
	} else {
		lw = tb.Server.ListerWatcher("pods", namespace)
	}
	filter := tb.opts.WatchFilter
	if filter == nil {
		return lw
	}
	inner := listwatch.ToListerWatcherWithContext(lw)
	return &listwatch.ListWatch{
		ListWithContextFunc: inner.ListWithContext,
		WatchFuncWithContext: func(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
			opts.Watch = true // what the REST client sends; the server's Go API assumes it too
			w, err := inner.WatchWithContext(ctx, opts)
			if err != nil {
				return w, err
			}
			return filter(w), nil
		},
	}
}

// NewInformer builds the shared pod informer, which does not run until RunInformer. Add the
// handlers in between to have them join as it starts.
func (tb *Testbed) NewInformer(o InformerOptions) (informer.SharedIndexInformer, error) {
	if tb.inf != nil {
		return nil, errors.New("testbed: the informer already exists")
	}
	inf := informer.NewSharedIndexInformerWithOptions(tb.listerWatcher(o.Namespace), &api.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: o.Resync,
		Indexers:     o.Indexers,
		Profile:      o.Profile,
		PanicPolicy:  o.PanicPolicy,
		Logger:       tb.Logger,
		Pauser:       o.Pauser,
	})
	if o.Transform != nil {
		if err := inf.SetTransform(o.Transform); err != nil {
			return nil, err
		}
	}
	tb.inf = inf
	return inf, nil
}

// Informer is the informer NewInformer built, or nil.
func (tb *Testbed) Informer() informer.SharedIndexInformer { return tb.inf }

// Pods is the lister over the informer's cache, as a generated informer's Lister() is.
func (tb *Testbed) Pods() store.ResourceIndexer[*api.Pod] {
	return store.NewResourceIndexer[*api.Pod](tb.inf.GetIndexer(), podsGVR.GroupResource())
}

// AddHandler registers h on the informer under name, the name its listener has in traces,
// with its own resync period (nil: the informer's).
func (tb *Testbed) AddHandler(name string, h processor.ResourceEventHandler, resync *time.Duration) (processor.ResourceEventHandlerRegistration, error) {
	if tb.inf == nil {
		return nil, errors.New("testbed: AddHandler before NewInformer")
	}
	return tb.inf.AddEventHandlerWithOptions(h, informer.HandlerOptions{Name: name, ResyncPeriod: resync})
}

// RunInformer runs the informer in a goroutine until ctx ends or StopInformer.
func (tb *Testbed) RunInformer(ctx context.Context) error {
	if tb.inf == nil {
		return errors.New("testbed: RunInformer before NewInformer")
	}
	if tb.stopInf != nil {
		return errors.New("testbed: the informer is already running")
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tb.inf.RunWithContext(ctx)
	}()
	var once sync.Once
	tb.stopInf = func() { once.Do(func() { cancel(); <-done }) }
	return nil
}

// StopInformer stops the informer and waits until its Run has returned. It does nothing when
// the informer is not running.
func (tb *Testbed) StopInformer() {
	if tb.stopInf != nil {
		tb.stopInf()
	}
}

// Close stops, in order, every controller (its workers finish the key in hand), the informer
// and the server, and waits for them. Release anything a handler or a reconcile waits on
// first. Calling it again does nothing.
func (tb *Testbed) Close() {
	tb.closeOnce.Do(func() {
		tb.ctlMu.Lock()
		ctls := tb.ctls
		tb.ctlMu.Unlock()
		for _, c := range ctls {
			c.Stop()
		}
		tb.StopInformer()
		tb.Server.Close()
	})
}
