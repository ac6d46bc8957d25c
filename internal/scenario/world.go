package scenario

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing/synctest"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// defaultTrace is what a script shows until its first trace command: the handlers' and the
// workers' lines (log lines such as warnings and panics always show).
var defaultTrace = []string{"handler", "worker"}

// world is one run of a script: the simulated apiserver, at most one informer with its
// handlers, at most one workqueue controller, and the recorder they all log to. It lives
// inside one testing/synctest bubble, so time is virtual and "settled" means every goroutine
// of the bubble is blocked.
type world struct {
	profile informer.Profile
	rec     *recorder
	log     *slog.Logger
	srv     *apiserver.Server
	show    map[string]bool // components in the trace; nil entries are hidden

	// noInitialEventsEnd makes the client's watches lose the initial-events-end bookmark.
	noInitialEventsEnd atomicBool

	inf      informer.SharedIndexInformer
	pauser   *informer.Pauser
	stopInf  func()
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

func newWorld(profile informer.Profile) *world {
	w := &world{profile: profile, rec: &recorder{}, handlers: map[string]*handler{}, copies: map[*api.Pod]*api.Pod{}}
	w.log = slog.New(w.rec)
	w.pauser = &informer.Pauser{}
	w.srv = apiserver.New(apiserver.Options{Logger: w.log})
	w.rec.take(func(string) bool { return false }, false) // the server's own start-up writes
	w.setTrace(defaultTrace)
	return w
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
		w.ctl.stop()
	}
	if w.stopInf != nil {
		w.stopInf()
	}
	w.srv.Close()
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

// --- server writes -----------------------------------------------------------------------

// podKey splits "ns/name" (or "name", in default).
func podKey(s string) (ns, name string) {
	if ns, name, ok := strings.Cut(s, "/"); ok {
		return ns, name
	}
	return "default", s
}

// write runs create, update, label and delete on pods. Options: phase=, image=, node=; any
// other key=value is a label (label k- removes one).
func (w *world) write(c command) ([]string, error) {
	if c.arg(0) != "pod" {
		return nil, fmt.Errorf("%s: only pods are supported, got %q", c.name, c.arg(0))
	}
	ns, name := podKey(c.arg(1))
	ctx := context.Background()
	if c.name == "delete" {
		_, err := w.srv.Delete(ctx, "pods", ns, name, nil)
		return errLine(err), nil
	}
	var p *api.Pod
	if c.name == "create" {
		p = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}
	} else {
		obj, err := w.srv.Get(ctx, "pods", ns, name)
		if err != nil {
			return errLine(err), nil
		}
		p = obj.(*api.Pod)
	}
	phase := ""
	for _, k := range c.keys {
		v := c.opts[k]
		switch k {
		case "phase":
			phase = v
		case "image":
			p.Spec.Containers[0].Image = v
		case "node":
			p.Spec.NodeName = v
		default:
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			p.Labels[k] = v
		}
	}
	for _, a := range c.args[2:] {
		if k, ok := strings.CutSuffix(a, "-"); ok {
			delete(p.Labels, k)
		}
	}
	var err error
	if c.name == "create" {
		p.Status.Phase = api.PodPhase(phase)
		var obj api.Object
		obj, err = w.srv.Create(ctx, "pods", ns, p)
		if err == nil && phase != "" && obj.(*api.Pod).Status.Phase != api.PodPhase(phase) {
			p = obj.(*api.Pod)
			p.Status.Phase = api.PodPhase(phase)
			_, err = w.srv.UpdateStatus(ctx, "pods", ns, p)
		}
		return errLine(err), nil
	}
	obj, err := w.srv.Update(ctx, "pods", ns, p)
	if err == nil && phase != "" {
		p = obj.(*api.Pod)
		p.Status.Phase = api.PodPhase(phase)
		_, err = w.srv.UpdateStatus(ctx, "pods", ns, p)
	}
	return errLine(err), nil
}

// burst makes n label updates of one pod, settling after each write, so that no watcher's
// buffer overflows and the workers see every update in turn: "burst 1500 pod default/a".
func (w *world) burst(c command) ([]string, error) {
	n, err := strconv.Atoi(c.arg(0))
	if err != nil || c.arg(1) != "pod" {
		return nil, fmt.Errorf("usage: burst N pod ns/name")
	}
	ns, name := podKey(c.arg(2))
	ctx := context.Background()
	for i := range n {
		obj, err := w.srv.Get(ctx, "pods", ns, name)
		if err != nil {
			return errLine(err), nil
		}
		p := obj.(*api.Pod)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels["burst"] = strconv.Itoa(i + 1)
		if _, err := w.srv.Update(ctx, "pods", ns, p); err != nil {
			return errLine(err), nil
		}
		synctest.Wait()
	}
	return []string{fmt.Sprintf("%d updates of %s/%s, last rv=%d", n, ns, name, w.srv.ResourceVersion())}, nil
}

func errLine(err error) []string {
	if err == nil {
		return nil
	}
	return []string{"error: " + err.Error()}
}

// --- faults ------------------------------------------------------------------------------

func (w *world) fault(c command) ([]string, error) {
	switch c.name {
	case "drop-next":
		n, err := strconv.Atoi(c.arg(0))
		if err != nil {
			return nil, fmt.Errorf("drop-next N [key=ns/name] [type=ADDED|MODIFIED|DELETED]")
		}
		w.srv.DropNextEvents(apiserver.DropRule{Count: n, Key: c.opts["key"], Type: watch.EventType(c.opts["type"])})
	case "compact":
		w.srv.CompactAll()
	case "close-watches":
		w.srv.CloseAllWatches()
	case "close-next-watches":
		n, err := strconv.Atoi(c.arg(0))
		if err != nil {
			return nil, err
		}
		w.srv.CloseNextWatches(n)
	case "fail-next":
		code, err := strconv.Atoi(c.arg(1))
		if err != nil {
			return nil, fmt.Errorf("fail-next VERB CODE [count=N] [as-event]")
		}
		count := 1
		if v, ok := c.opts["count"]; ok {
			if count, err = strconv.Atoi(v); err != nil {
				return nil, err
			}
		}
		w.srv.FailNext(apiserver.FailRule{Verb: c.arg(0), Resource: "pods", Count: count, Code: code,
			AsWatchEvent: c.arg(2) == "as-event"})
	case "delay":
		d, err := time.ParseDuration(c.arg(0))
		if err != nil {
			return nil, err
		}
		w.srv.DelayEvents(d)
	case "cut-next":
		w.srv.CutNextEvent(0)
	case "no-initial-events-end":
		w.noInitialEventsEnd.set(true)
	case "clear-faults":
		w.srv.ClearFaults()
		w.noInitialEventsEnd.set(false)
	}
	return nil, nil
}

// listerWatcher is the informer's view of the server: the in-process ListerWatcher of pods
// in every namespace, marking watches watch=true as the REST client does, and dropping the
// initial-events-end bookmark while that fault is on (a server that accepts watch-list but
// never ends the initial list).
func (w *world) listerWatcher() *listwatch.ListWatch {
	lw := w.srv.ListerWatcher("pods", "")
	return &listwatch.ListWatch{
		ListWithContextFunc: lw.ListWithContext,
		WatchFuncWithContext: func(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			wi, err := lw.WatchWithContext(ctx, opts)
			if err != nil || !w.noInitialEventsEnd.get() {
				return wi, err
			}
			return newBookmarkEater(wi), nil
		},
	}
}

// bookmarkEater forwards a watch's events but swallows the initial-events-end bookmark.
type bookmarkEater struct {
	in   watch.Interface
	out  chan watch.Event
	stop chan struct{}
	once sync.Once
}

func newBookmarkEater(in watch.Interface) *bookmarkEater {
	b := &bookmarkEater{in: in, out: make(chan watch.Event), stop: make(chan struct{})}
	go b.run()
	return b
}

func (b *bookmarkEater) run() {
	defer close(b.out)
	defer b.in.Stop()
	for {
		select {
		case <-b.stop:
			return
		case ev, ok := <-b.in.ResultChan():
			if !ok {
				return
			}
			if ev.Type == watch.Bookmark {
				if m, err := api.Accessor(ev.Object); err == nil && m.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
					continue
				}
			}
			select {
			case b.out <- ev:
			case <-b.stop:
				return
			}
		}
	}
}

// Stop ends the forwarding and the server's watch.
func (b *bookmarkEater) Stop() { b.once.Do(func() { close(b.stop) }) }

// ResultChan is the filtered event channel.
func (b *bookmarkEater) ResultChan() <-chan watch.Event { return b.out }

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
	w.inf = informer.NewSharedIndexInformerWithOptions(w.listerWatcher(), &api.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: resync,
		Profile:      p,
		PanicPolicy:  processor.SkipAndContinue,
		Logger:       w.log,
		Pauser:       w.pauser,
	})
	if err := w.inf.SetTransform(w.remember); err != nil {
		return nil, err
	}
	for _, name := range w.order {
		if err := w.handlers[name].register(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.inf.RunWithContext(ctx) }()
	var once sync.Once
	w.stopInf = func() { once.Do(func() { cancel(); <-done }) }
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

// --- waits and inspection ----------------------------------------------------------------

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

func (w *world) showState(c command) ([]string, error) {
	switch c.arg(0) {
	case "cache":
		if w.inf == nil {
			return nil, errors.New("no informer")
		}
		var out []string
		for _, obj := range w.inf.GetIndexer().List() {
			out = append(out, describe(obj))
		}
		sort.Strings(out)
		if len(out) == 0 {
			out = []string{"(empty)"}
		}
		return out, nil
	case "server":
		obj, err := w.srv.List(context.Background(), "pods", "", api.ListOptions{})
		if err != nil {
			return errLine(err), nil
		}
		var out []string
		for i := range obj.(*api.PodList).Items {
			out = append(out, describe(&obj.(*api.PodList).Items[i]))
		}
		if len(out) == 0 {
			out = []string{"(empty)"}
		}
		return out, nil
	case "requests":
		var out []string
		for k, n := range w.srv.RequestCounts() {
			if k.Resource == "pods" && (k.Verb == "list" || k.Verb == "watch") {
				out = append(out, fmt.Sprintf("%s pods: %d", k.Verb, n))
			}
		}
		sort.Strings(out)
		if len(out) == 0 {
			out = []string{"no list or watch requests"}
		}
		return out, nil
	case "handlers":
		var out []string
		for _, name := range w.order {
			out = append(out, w.handlers[name].stats())
		}
		return out, nil
	case "queue":
		if w.ctl == nil {
			return nil, errors.New("no controller")
		}
		return []string{w.ctl.state()}, nil
	}
	return nil, fmt.Errorf("show cache|server|requests|handlers|queue")
}

// describe is "ns/name@rv" plus the phase when set, or DFSU(…) for a tombstone.
func describe(obj any) string {
	switch o := obj.(type) {
	case store.DeletedFinalStateUnknown:
		return "DFSU(" + describe(o.Obj) + ")"
	case *api.Pod:
		return o.Namespace + "/" + o.Name + state(o)
	}
	return fmt.Sprintf("%T", obj)
}

// state is "@rv" plus the phase and the node when set.
func state(obj any) string {
	p, ok := obj.(*api.Pod)
	if !ok {
		return fmt.Sprintf("(%T)", obj)
	}
	s := "@" + p.ResourceVersion
	if p.Status.Phase != "" {
		s += " " + string(p.Status.Phase)
	}
	if p.Spec.NodeName != "" {
		s += " node=" + p.Spec.NodeName
	}
	return s
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

// --- workqueue controller ----------------------------------------------------------------

// controller is the sample-controller pattern in miniature: a handler enqueues keys in a
// typed rate-limiting workqueue, workers reconcile each key from the lister.
type controller struct {
	w     *world
	q     workqueue.TypedRateLimitingInterface[string]
	gate  gate
	fails map[string]int // key → failures still to inject
	wg    sync.WaitGroup

	mu         sync.Mutex
	processing map[string]bool // keys a worker holds between Get and Done
	max        int
}

// startController: "start controller [workers=1] [fail=ns/name:N …] [max-retries=5]".
func (w *world) startController(c command) ([]string, error) {
	if w.ctl != nil {
		return nil, errors.New("the controller is already running")
	}
	workers := 1
	if v, ok := c.opts["workers"]; ok {
		var err error
		if workers, err = strconv.Atoi(v); err != nil {
			return nil, err
		}
	}
	ctl := &controller{w: w, fails: map[string]int{}, max: 5, processing: map[string]bool{},
		q: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "pods", Logger: w.log})}
	if v, ok := c.opts["max-retries"]; ok {
		var err error
		if ctl.max, err = strconv.Atoi(v); err != nil {
			return nil, err
		}
	}
	if v, ok := c.opts["fail"]; ok {
		for _, f := range strings.Split(v, ",") {
			key, n, _ := strings.Cut(f, ":")
			times, err := strconv.Atoi(n)
			if err != nil {
				return nil, fmt.Errorf("fail=ns/name:N")
			}
			ctl.fails[key] = times
		}
	}
	w.ctl = ctl
	h := &handler{w: w, name: "ctl", kind: "enqueue"}
	w.handlers["ctl"] = h
	w.order = append(w.order, "ctl")
	if w.inf != nil {
		if err := h.register(); err != nil {
			return nil, err
		}
	}
	for range workers {
		ctl.wg.Add(1)
		go ctl.worker()
	}
	return []string{fmt.Sprintf("controller started with %d worker(s)", workers)}, nil
}

func (c *controller) setProcessing(key string, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if on {
		c.processing[key] = true
	} else {
		delete(c.processing, key)
	}
}

// state is "len=N processing=[…]": the queue's length and the keys workers hold.
func (c *controller) state() string {
	c.mu.Lock()
	keys := make([]string, 0, len(c.processing))
	for k := range c.processing {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	sort.Strings(keys)
	return fmt.Sprintf("workqueue len=%d processing=%v", c.q.Len(), keys)
}

func (c *controller) stop() {
	c.q.ShutDown()
	c.wg.Wait()
}

// worker mirrors the processNextWorkItem loop of client-go's workqueue example.
func (c *controller) worker() {
	defer c.wg.Done()
	for {
		key, shutdown := c.q.Get()
		if shutdown {
			return
		}
		c.setProcessing(key, true)
		c.gate.pass()
		c.sync(key)
		c.setProcessing(key, false)
		c.q.Done(key)
	}
}

// sync reads the key from the lister (level-triggered: whatever the cache holds now), then
// fails as often as the script asked, retrying with AddRateLimited until max-retries.
func (c *controller) sync(key string) {
	rec := c.w.rec
	obj, exists, err := c.w.inf.GetIndexer().GetByKey(key)
	switch {
	case err != nil:
		rec.line("worker", "", "worker sync "+key+" error: "+err.Error())
	case !exists:
		rec.line("worker", "", "worker sync "+key+" gone from the cache")
	default:
		rec.line("worker", "", "worker sync "+describe(obj))
	}
	if c.fails[key] > 0 {
		c.fails[key]--
		if n := c.q.NumRequeues(key); n < c.max {
			rec.line("worker", "", fmt.Sprintf("worker error %s: injected failure, AddRateLimited (requeues=%d)", key, n+1))
			c.q.AddRateLimited(key)
			return
		}
		rec.line("worker", "", fmt.Sprintf("worker drop %s after %d retries: Forget", key, c.max))
	}
	c.q.Forget(key)
}
