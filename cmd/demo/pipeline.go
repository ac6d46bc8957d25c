package main

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/testbed"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// writer makes every write of the demo (the tour's actions, the mutator, the scheduler's
// PATCHes) and remembers the resourceVersion each left on the server, so the demo knows what
// the caches must converge to without asking the server (which would count as a request).
type writer struct {
	ns   string
	rest *rest.RESTClient
	pods *rest.ResourceClient
	srv  *apiserver.Server

	mu       sync.Mutex
	expected map[string]string // "namespace/name" → RV
	inflight int

	// gate: every pod write holds it shared; exclusive holds it alone, so that nothing
	// writes a pod while it runs (the dashboard's compaction).
	gate sync.RWMutex
}

// exclusive runs f while no pod write is in flight and none starts.
func (w *writer) exclusive(f func() error) error {
	w.gate.Lock()
	defer w.gate.Unlock()
	return f()
}

func newWriter(srv *apiserver.Server, rc *rest.RESTClient, ns string) *writer {
	return &writer{
		ns:       ns,
		rest:     rc,
		pods:     rc.Resource(api.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace(ns),
		srv:      srv,
		expected: map[string]string{},
	}
}

// do runs one write and records its outcome for key.
func (w *writer) do(key string, write func() (api.Object, error)) (api.Object, error) {
	w.mu.Lock()
	w.inflight++
	w.mu.Unlock()
	w.gate.RLock()
	obj, err := write()
	w.gate.RUnlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inflight--
	if err != nil {
		return nil, err
	}
	m, aerr := api.Accessor(obj)
	if aerr != nil {
		return nil, aerr
	}
	if m.GetDeletionTimestamp() == nil {
		// Writes to one key may finish out of order (the scheduler's PATCH can return before
		// the POST that caused it): keep the newest.
		rv := m.GetResourceVersion()
		if old, ok := w.expected[key]; !ok || rvLess(old, rv) {
			w.expected[key] = rv
		}
	} else {
		delete(w.expected, key)
	}
	return obj, nil
}

// rvLess compares two resourceVersions of the simulated server, which are decimal numbers.
// Clients must not do this with a real server's RVs; the demo knows its own server.
func rvLess(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	return errA != nil || errB != nil || x < y
}

// create POSTs a pod over HTTP.
func (w *writer) create(ctx context.Context, pod *api.Pod) (api.Object, error) {
	return w.do(w.ns+"/"+pod.Name, func() (api.Object, error) { return w.pods.Create(ctx, pod) })
}

// patch sends a merge patch over HTTP.
func (w *writer) patch(ctx context.Context, name string, data []byte) (api.Object, error) {
	return w.do(w.ns+"/"+name, func() (api.Object, error) {
		return w.pods.Patch(ctx, name, api.MergePatchType, data)
	})
}

// bind posts a Binding of the pod to node over HTTP, as a scheduler binds: an update may not
// change spec.nodeName. The answer is a Status, so the pod's new resourceVersion is read
// through the server's Go API, which is not an HTTP request the demo counts.
func (w *writer) bind(ctx context.Context, name, node string) (api.Object, error) {
	return w.do(w.ns+"/"+name, func() (api.Object, error) {
		body := fmt.Appendf(nil, `{"apiVersion":"v1","kind":"Binding","metadata":{"name":%q},"target":{"kind":"Node","name":%q}}`, name, node)
		if err := w.rest.Post().Namespace(w.ns).Resource("pods").Name(name).SubResource("binding").Body(body).Do(ctx).Error(); err != nil {
			return nil, err
		}
		return w.srv.Get(ctx, "pods", w.ns, name)
	})
}

// patchStatus sends a merge patch to the status subresource over HTTP.
func (w *writer) patchStatus(ctx context.Context, name string, data []byte) (api.Object, error) {
	return w.do(w.ns+"/"+name, func() (api.Object, error) {
		return w.rest.Patch(api.MergePatchType).Namespace(w.ns).Resource("pods").Name(name).
			SubResource("status").Body(data).Do(ctx).Get()
	})
}

// patchDirect sends a merge patch through the server's Go API: the fast path for a burst.
func (w *writer) patchDirect(ctx context.Context, name string, data []byte) (api.Object, error) {
	return w.do(w.ns+"/"+name, func() (api.Object, error) {
		return w.srv.Patch(ctx, "pods", w.ns, name, api.MergePatchType, data)
	})
}

// delete DELETEs a pod over HTTP, with gracePeriodSeconds=0: the demo's scheduler plays the
// kubelet too, and the server otherwise keeps a pod bound to a node Terminating until a
// kubelet's final delete.
func (w *writer) delete(ctx context.Context, name string) error {
	key := w.ns + "/" + name
	w.mu.Lock()
	w.inflight++
	w.mu.Unlock()
	w.gate.RLock()
	zero := int64(0)
	err := w.pods.Delete(ctx, name, &api.DeleteOptions{GracePeriodSeconds: &zero})
	w.gate.RUnlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inflight--
	if err == nil || api.IsNotFound(err) {
		delete(w.expected, key)
	}
	return err
}

// state returns what the server holds according to the writes, and whether one is in flight.
func (w *writer) state() (map[string]string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.expected), w.inflight > 0
}

// names returns the names of the pods the demo created and has not deleted.
func (w *writer) names() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.expected))
	for k := range w.expected {
		out = append(out, k[len(w.ns)+1:])
	}
	return out
}

// newPod is a pending, unscheduled pod of the demo.
func newPod(name string, annotations map[string]string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "demo"}, Annotations: annotations},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}},
		Status:     api.PodStatus{Phase: api.PodPending},
	}
}

// pipelineConfig configures the pipeline the tour and `demo run` drive.
type pipelineConfig struct {
	profile     informer.Profile
	resync      time.Duration // the informer's default; audit inherits it, scheduler opts out
	workers     int
	namespace   string
	watchBuffer int            // the server's per-watcher buffer (0: default)
	extra       []slog.Handler // more handlers for the trace, e.g. the dashboard's Hub
	sinks       []sink         // more hop sinks, e.g. the journey printer
}

// pipeline is the whole demo in one process, assembled by internal/testbed: the simulated
// apiserver served on loopback HTTP, a REST client, a shared pod informer with two handlers
// (scheduler and audit), the scheduler's workqueue and workers. Every component logs into
// one tap.
type pipeline struct {
	cfg    pipelineConfig
	tb     *testbed.Testbed
	srv    *apiserver.Server
	url    string
	count  *counters
	logger *slog.Logger
	w      *writer

	inf       informer.SharedIndexInformer
	sched     *scheduler
	audit     *audit
	regSched  *processor.ProcessorListener
	regAudit  *processor.ProcessorListener
	closeOnce sync.Once
}

// newPipeline starts the server on a loopback port and prepares the client side; start runs
// the informer. Seed objects in between to have them in the initial list.
func newPipeline(cfg pipelineConfig) (*pipeline, error) {
	if cfg.workers <= 0 {
		cfg.workers = 2
	}
	if cfg.namespace == "" {
		cfg.namespace = "demo"
	}
	count := newCounters()
	h := newTap(append([]sink{count}, cfg.sinks...)...)
	if len(cfg.extra) > 0 {
		h = append(fanout{h}, cfg.extra...)
	}
	logger := slog.New(h)
	tb, err := testbed.New(testbed.Options{
		Server:     apiserver.Options{WatchBufferSize: cfg.watchBuffer},
		Listen:     "127.0.0.1:0",
		UserAgent:  "informer-lab-demo",
		Namespaces: []string{cfg.namespace},
		Logger:     logger,
	})
	if err != nil {
		return nil, err
	}
	return &pipeline{cfg: cfg, tb: tb, srv: tb.Server, url: tb.URL, count: count, logger: logger,
		w: newWriter(tb.Server, tb.REST, cfg.namespace)}, nil
}

// start builds the informer, as a generated informer is built (one namespace, a namespace
// index), registers both handlers, starts everything and waits for the caches and both
// handlers to sync.
func (p *pipeline) start(ctx context.Context) error {
	inf, err := p.tb.NewInformer(testbed.InformerOptions{Profile: p.cfg.profile, Resync: p.cfg.resync,
		Namespace: p.cfg.namespace, Indexers: store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc}})
	if err != nil {
		return err
	}
	p.inf = inf
	p.sched = newScheduler(p.w, p.tb, p.logger)
	p.audit = newAudit(p.logger)
	noResync := time.Duration(0)
	reg, err := p.tb.AddHandler(p.sched.name, p.sched, &noResync)
	if err != nil {
		return err
	}
	p.regSched = reg.(*processor.ProcessorListener)
	if reg, err = p.tb.AddHandler(p.audit.name, p.audit, nil); err != nil {
		return err
	}
	p.regAudit = reg.(*processor.ProcessorListener)
	if err := p.tb.RunInformer(ctx); err != nil {
		return err
	}
	if !informer.WaitFor(ctx, "pods", p.inf.HasSyncedChecker(), p.regSched.HasSyncedChecker(), p.regAudit.HasSyncedChecker()) {
		return fmt.Errorf("the informer did not sync: %w", context.Cause(ctx))
	}
	p.sched.ctl.Start(ctx, p.cfg.workers)
	return nil
}

// close releases what a handler or a worker may wait on, then stops everything the testbed
// started, in order, and waits for every goroutine.
func (p *pipeline) close() {
	p.closeOnce.Do(func() {
		if p.audit != nil {
			p.audit.gate.Store(nil)
			p.audit.delay.Store(0)
		}
		if p.sched != nil {
			p.sched.mu.Lock()
			clear(p.sched.holds) // a worker inside a held reconcile leaves when its context ends
			p.sched.mu.Unlock()
		}
		p.tb.Close()
	})
}

// settled reports whether the pipeline has caught up with every write: both handlers have
// been told the RV the server holds for every pod, nothing is queued, processing or waiting
// for a rate-limited retry, and no write happened while we looked.
func (p *pipeline) settled() bool {
	rv := p.srv.ResourceVersion()
	want, busy := p.w.state()
	if busy || !p.sched.seen.equal(want) || !p.audit.seen.equal(want) {
		return false
	}
	if p.sched.queue.Len() != 0 || p.processing() != 0 || p.retriesWaiting() != 0 {
		return false
	}
	_, busy = p.w.state()
	return !busy && p.srv.ResourceVersion() == rv
}

// processing is how many keys workers hold: gets minus dones, from the trace.
func (p *pipeline) processing() int {
	c := p.count
	return int(c.get("workqueue/get") - (c.get("workqueue/done") - c.get("workqueue/done/unknown")))
}

// retriesWaiting is how many AddRateLimited calls have not come due yet: requeues minus the
// adds that did not come from the handler.
func (p *pipeline) retriesWaiting() int {
	return int(p.count.get("workqueue/requeue") - (p.count.get("workqueue/add") - p.sched.direct.Load()))
}

// settle waits, by polling, until settled or the timeout.
func (p *pipeline) settle(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for !p.settled() {
		if time.Now().After(deadline) {
			want, _ := p.w.state()
			return fmt.Errorf("the pipeline did not settle within %v (server %d pods; queue %d, processing %d, retries waiting %d)",
				timeout, len(want), p.sched.queue.Len(), p.processing(), p.retriesWaiting())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond): // polling interval of a bounded wait
		}
	}
	return nil
}

// requests sums the server's request counts by verb, for pods and across resources.
func (p *pipeline) requests() map[string]int {
	out := map[string]int{}
	for k, n := range p.srv.RequestCounts() {
		out[k.Verb] += n
	}
	return out
}

// stats is what the dashboard shows; every number is read without an API request.
func (p *pipeline) stats() dashboard.Stats {
	c := p.count.snapshot()
	req := p.srv.RequestCounts()
	var lists, watches int64
	for k, n := range req {
		switch k.Verb {
		case "list":
			lists += int64(n)
		case "watch":
			watches += int64(n)
		}
	}
	st := dashboard.Stats{
		ServerRV:       strconv.FormatUint(p.srv.ResourceVersion(), 10),
		ServerObjects:  int(c["apiserver/pods"]),
		QueueLen:       int(max(c["fifo/queued"], 0)),
		WorkqueueDepth: p.sched.queue.Len(),
		Processing:     max(p.processing(), 0),
		Retries:        c["worker/retry"],
		Reconciles:     c["worker/reconcile"],
		Relists:        max(c["reflector/replace"]-1, 0),
		Lists:          lists,
		Watches:        watches,
		Events:         c["reflector/event"],
		Tombstones:     c["handler/"+p.sched.name+"/tombstone"],
	}
	if p.inf != nil {
		st.IndexerSize = len(p.inf.GetIndexer().ListKeys())
	}
	for _, l := range []*processor.ProcessorListener{p.regSched, p.regAudit} {
		if l != nil {
			st.Listeners = append(st.Listeners, dashboard.ListenerStats{Name: l.Name(), Pending: l.Pending(), Capacity: l.PendingCap()})
		}
	}
	return st
}

// cachedPod reads one pod from the informer's cache.
func (p *pipeline) cachedPod(name string) (*api.Pod, bool) {
	obj, ok, err := p.inf.GetIndexer().GetByKey(p.cfg.namespace + "/" + name)
	if err != nil || !ok {
		return nil, false
	}
	pod, ok := obj.(*api.Pod)
	return pod, ok
}
