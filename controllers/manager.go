package controllers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/rest"
)

// descriptor mirrors ControllerDescriptor of kube-controller-manager: a name, how to build
// the controller, and whether "*" turns it on.
type descriptor struct {
	name     string
	init     app.InitFunc
	disabled bool // off unless named
	workers  int  // the upstream default of its --concurrent-… flag
}

// Known mirrors KnownControllers: every controller's name, sorted.
func Known() []string {
	out := make([]string, 0, len(descriptors))
	for _, d := range descriptors {
		out = append(out, d.name)
	}
	sort.Strings(out)
	return out
}

// Options configures Start.
type Options struct {
	// Config reaches the apiserver.
	Config *rest.Config
	// Controllers selects the controllers as kube-controller-manager's --controllers does
	// (contract 1). Empty means "*".
	Controllers []string
	// Nodes is how many simulated nodes (each with its kubelet) the node controllers run.
	Nodes int
	// Logger receives every hop; nil is silent.
	Logger *slog.Logger
}

// Select resolves a --controllers list to the names it turns on, sorted (contract 1).
func Select(spec []string) ([]string, error) {
	if len(spec) == 0 {
		spec = []string{"*"}
	}
	on := map[string]bool{}
	star := false
	for _, s := range spec {
		s = strings.TrimSpace(s)
		switch {
		case s == "none" || s == "":
		case s == "*":
			star = true
		default:
			name, off := strings.CutPrefix(s, "-")
			if _, ok := byName(name); !ok {
				return nil, fmt.Errorf("unknown controller %q (known: %s)", name, strings.Join(Known(), ", "))
			}
			on[name] = !off
		}
	}
	var out []string
	for _, d := range descriptors {
		v, named := on[d.name]
		if (named && v) || (!named && star && !d.disabled) {
			out = append(out, d.name)
		}
	}
	sort.Strings(out)
	return out, nil
}

func byName(name string) (descriptor, bool) {
	i := slices.IndexFunc(descriptors, func(d descriptor) bool { return d.name == name })
	if i < 0 {
		return descriptor{}, false
	}
	return descriptors[i], true
}

// Manager is a running set of controllers.
type Manager struct {
	cc      *app.ControllerContext
	names   []string
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	stopped sync.Once
}

// Start mirrors StartControllers (contract 2). It returns once every cache has synced and
// every controller runs, or with the first error.
func Start(ctx context.Context, o Options) (*Manager, error) {
	if o.Config == nil {
		return nil, errors.New("controllers: Options.Config is required")
	}
	names, err := Select(o.Controllers)
	if err != nil {
		return nil, err
	}
	cc, err := app.NewControllerContext(o.Config, o.Logger)
	if err != nil {
		return nil, err
	}
	cc.Nodes = o.Nodes
	type running struct {
		c       app.Controller
		workers int
	}
	var cs []running
	for _, n := range names {
		d, _ := byName(n)
		c, err := d.init(cc)
		if err != nil {
			cc.ShutDownQueues()
			return nil, fmt.Errorf("controller %s: %w", n, err)
		}
		if c == nil {
			continue // an InitFunc may decline, as upstream's do when a feature is off
		}
		cs = append(cs, running{c, max(d.workers, 1)})
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Manager{cc: cc, names: names, cancel: cancel}
	cc.InformerFactory.StartWithContext(ctx)
	res := cc.InformerFactory.WaitForCacheSyncWithContext(ctx)
	for t, ok := range res.Synced {
		if !ok {
			cancel()
			cc.InformerFactory.Shutdown()
			cc.ShutDownQueues()
			return nil, fmt.Errorf("controllers: the %v informers did not sync: %v", t, res.Err)
		}
	}
	for _, r := range cs {
		m.wg.Go(func() { r.c.Run(ctx, r.workers) })
	}
	return m, nil
}

// Names returns the controllers that run, sorted.
func (m *Manager) Names() []string { return slices.Clone(m.names) }

// Context returns the shared controller context (its client, factory and queues).
func (m *Manager) Context() *app.ControllerContext { return m.cc }

// QueueDepths returns the depth of every controller's queue, by queue name.
func (m *Manager) QueueDepths() map[string]int { return m.cc.QueueDepths() }

// Stop stops every controller and the informers and waits for them (contract 3).
func (m *Manager) Stop() {
	m.stopped.Do(func() {
		m.cancel()
		m.wg.Wait()
		m.cc.InformerFactory.Shutdown()
	})
}
