package scenario

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/testbed"
	"github.com/informer-lab/informer-lab/processor"
)

// defaultTrace is what a script shows until its first trace command: the handlers' and the
// workers' lines (log lines such as warnings and panics always show).
var defaultTrace = []string{"handler", "worker"}

// world is one run of a script: a testbed (the simulated apiserver, at most one informer with
// its handlers, at most one workqueue controller) and the recorder they all log to. It lives
// inside one testing/synctest bubble, so time is virtual and "settled" means every goroutine
// of the bubble is blocked.
type world struct {
	profile informer.Profile
	rec     *recorder
	log     *slog.Logger
	tb      *testbed.Testbed
	srv     *apiserver.Server
	show    map[string]bool // components in the trace; nil entries are hidden

	// noInitialEventsEnd makes the client's watches lose the initial-events-end bookmark.
	noInitialEventsEnd atomicBool

	inf      informer.SharedIndexInformer
	pauser   *informer.Pauser
	handlers map[string]*handler
	order    []string // handler names in the order added

	ctl *controller

	// mutation detector: a deep copy of every pod as it entered the cache, by pointer.
	copiesMu sync.Mutex
	copies   map[*api.Pod]*api.Pod
}

type atomicBool struct {
	mu sync.Mutex
	v  bool
}

func (b *atomicBool) set(v bool) { b.mu.Lock(); b.v = v; b.mu.Unlock() }
func (b *atomicBool) get() bool  { b.mu.Lock(); defer b.mu.Unlock(); return b.v }

func newWorld(profile informer.Profile) (*world, error) {
	w := &world{profile: profile, rec: &recorder{}, handlers: map[string]*handler{}, copies: map[*api.Pod]*api.Pod{}}
	w.log = slog.New(w.rec.handler())
	w.pauser = &informer.Pauser{}
	tb, err := testbed.New(testbed.Options{Logger: w.log, WatchFilter: w.filterWatch})
	if err != nil {
		return nil, err
	}
	w.tb, w.srv = tb, tb.Server
	w.rec.take(func(string) bool { return false }, false) // the server's own start-up writes
	w.setTrace(defaultTrace)
	return w, nil
}

func (w *world) setTrace(components []string) {
	w.show = map[string]bool{}
	for _, c := range components {
		w.show[c] = true
	}
}

func (w *world) shows(component string) bool { return w.show["all"] || w.show[component] }

// close stops everything the world started and waits for it, so the bubble ends with no
// goroutine left: held handlers and workers are released first.
func (w *world) close() {
	for _, h := range w.handlers {
		h.release()
	}
	w.pauser.Resume()
	if w.ctl != nil {
		w.ctl.gate.release()
	}
	w.tb.Close()
}

// exec runs one command and returns the lines it printed itself (show, wait, errors); the
// trace lines are collected after the world settles.
func (w *world) exec(c command) ([]string, error) {
	switch c.name {
	case "profiles":
		return nil, nil // handled by the runner
	case "trace":
		w.setTrace(c.args)
		return nil, nil
	case "create", "update", "label", "delete":
		return w.write(c)
	case "burst":
		return w.burst(c)
	case "drop-next", "compact", "close-watches", "close-next-watches", "fail-next", "delay",
		"cut-next", "no-initial-events-end", "clear-faults":
		return w.fault(c)
	case "start":
		switch c.arg(0) {
		case "informer":
			return w.startInformer(c)
		case "controller":
			return w.startController(c)
		}
		return nil, fmt.Errorf("start informer or start controller, not %q", c.arg(0))
	case "add-handler":
		return w.addHandler(c)
	case "slow-handler", "release", "hold":
		return w.gate(c)
	case "pause", "resume":
		if c.name == "pause" {
			w.pauser.Pause()
		} else {
			w.pauser.Resume()
		}
		return nil, nil
	case "advance":
		d, err := time.ParseDuration(c.arg(0))
		if err != nil {
			return nil, err
		}
		time.Sleep(d) // virtual time: the bubble's clock jumps once every goroutine is blocked
		return nil, nil
	case "wait":
		return w.wait(c)
	case "show":
		return w.showState(c)
	case "check-mutations":
		return w.checkMutations(), nil
	}
	return nil, fmt.Errorf("unknown command %q", c.name)
}

// podKey splits "ns/name" (or "name", in default).
func podKey(s string) (ns, name string) {
	if ns, name, ok := strings.Cut(s, "/"); ok {
		return ns, name
	}
	return "default", s
}

func errLine(err error) []string {
	if err == nil {
		return nil
	}
	return []string{"error: " + err.Error()}
}

// filterWatch is the testbed's watch filter: while the no-initial-events-end fault is on,
// the informer's watches lose the watch-list's initial-events-end bookmark.
func (w *world) filterWatch(wi watch.Interface) watch.Interface {
	if !w.noInitialEventsEnd.get() {
		return wi
	}
	return testbed.DropInitialEventsEnd(wi)
}

// --- informer ----------------------------------------------------------------------------

// startInformer builds and runs the shared informer: "start informer [profile=classic|
// inorder|current] [resync=30s]". Handlers added before it join it as it starts.
func (w *world) startInformer(c command) ([]string, error) {
	if w.inf != nil {
		return nil, errors.New("the informer is already running")
	}
	p := w.profile
	if v, ok := c.opts["profile"]; ok {
		var known bool
		if p, known = informer.ParseProfile(v); !known {
			return nil, fmt.Errorf("unknown profile %q", v)
		}
	}
	var resync time.Duration
	if v, ok := c.opts["resync"]; ok {
		var err error
		if resync, err = time.ParseDuration(v); err != nil {
			return nil, err
		}
	}
	inf, err := w.tb.NewInformer(testbed.InformerOptions{
		Profile:     p,
		Resync:      resync,
		PanicPolicy: processor.SkipAndContinue,
		Pauser:      w.pauser,
		Transform:   w.remember,
	})
	if err != nil {
		return nil, err
	}
	w.inf = inf
	for _, name := range w.order {
		if err := w.handlers[name].register(); err != nil {
			return nil, err
		}
	}
	if err := w.tb.RunInformer(context.Background()); err != nil {
		return nil, err
	}
	return []string{"informer " + p.String() + " started"}, nil
}

// remember is the mutation detector's half inside the informer: a transform that keeps a
// deep copy of every pod as it enters the queue, like client-go's cacheMutationDetector.
func (w *world) remember(obj any) (any, error) {
	if p, ok := obj.(*api.Pod); ok {
		w.copiesMu.Lock()
		w.copies[p] = p.DeepCopy()
		w.copiesMu.Unlock()
	}
	return obj, nil
}

// checkMutations compares every cached pod with the copy taken when it entered the cache.
func (w *world) checkMutations() []string {
	if w.inf == nil {
		return []string{"error: no informer"}
	}
	var out []string
	for _, obj := range w.inf.GetIndexer().List() {
		p, ok := obj.(*api.Pod)
		if !ok {
			continue
		}
		w.copiesMu.Lock()
		orig := w.copies[p]
		w.copiesMu.Unlock()
		if orig == nil {
			continue
		}
		for _, d := range diffPods(orig, p) {
			out = append(out, fmt.Sprintf("MUTATED %s/%s rv=%s: %s", p.Namespace, p.Name, p.ResourceVersion, d))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		out = []string{"no cached object was mutated"}
	}
	return out
}

// wait: "wait synced [timeout=30s]" runs WaitForCacheSync with a deadline; "wait quiet"
// only settles (every command does).
func (w *world) wait(c command) ([]string, error) {
	switch c.arg(0) {
	case "quiet":
		return nil, nil
	case "synced":
	default:
		return nil, fmt.Errorf("wait synced or wait quiet")
	}
	if w.inf == nil {
		return nil, errors.New("no informer")
	}
	timeout := 30 * time.Second
	if v, ok := c.opts["timeout"]; ok {
		var err error
		if timeout, err = time.ParseDuration(v); err != nil {
			return nil, err
		}
	}
	stop := make(chan struct{})
	t := time.AfterFunc(timeout, func() { close(stop) })
	defer t.Stop()
	start := time.Now()
	synced := []informer.InformerSynced{w.inf.HasSynced}
	for _, name := range w.order {
		if h := w.handlers[name]; h.reg != nil {
			synced = append(synced, h.reg.HasSynced)
		}
	}
	if informer.WaitForCacheSync(stop, synced...) {
		return []string{fmt.Sprintf("synced after %s", time.Since(start))}, nil
	}
	return []string{fmt.Sprintf("timed out after %s: informer HasSynced=%t", time.Since(start), w.inf.HasSynced())}, nil
}

// gate is a switch a handler or a worker waits on while it is held.
type gate struct {
	mu sync.Mutex
	ch chan struct{}
}

func (g *gate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		g.ch = make(chan struct{})
	}
}

func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch != nil {
		close(g.ch)
		g.ch = nil
	}
}

// pass blocks while the gate is held.
func (g *gate) pass() {
	g.mu.Lock()
	ch := g.ch
	g.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// gate: "slow-handler h1" (or "hold h1", "hold worker") holds a handler or the workers at
// their next call; "release h1" lets them go.
func (w *world) gate(c command) ([]string, error) {
	name := c.arg(0)
	var g *gate
	if name == "worker" {
		if w.ctl == nil {
			return nil, errors.New("no controller")
		}
		g = &w.ctl.gate
	} else if h := w.handlers[name]; h != nil {
		g = &h.gate
	} else {
		return nil, fmt.Errorf("no handler %q", name)
	}
	if c.name == "release" {
		g.release()
	} else {
		g.hold()
	}
	return nil, nil
}
