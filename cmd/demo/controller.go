package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/testbed"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
	"github.com/informer-lab/informer-lab/workqueue"
)

// failAnnotation makes the scheduler's reconcile of a pod fail that many times before it
// succeeds: step 6 of the tour, retries with rate-limited backoff.
const failAnnotation = "informer-lab.dev/fail-times"

// The names of the two handlers, as their listeners show them in traces.
const (
	schedulerName = "scheduler"
	auditName     = "audit"
)

// nodes are where the toy scheduler puts pods.
var nodes = []string{"node-1", "node-2", "node-3"}

// seenMap records the last resourceVersion a handler was told about, per key. Comparing it
// with what the demo wrote tells when the pipeline has caught up.
type seenMap struct {
	mu sync.Mutex
	m  map[string]string
}

func newSeenMap() *seenMap { return &seenMap{m: map[string]string{}} }

func (s *seenMap) set(key, rv string) {
	s.mu.Lock()
	s.m[key] = rv
	s.mu.Unlock()
}

func (s *seenMap) del(key string) {
	s.mu.Lock()
	delete(s.m, key)
	s.mu.Unlock()
}

func (s *seenMap) get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key]
}

func (s *seenMap) equal(want map[string]string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Equal(s.m, want)
}

// scheduler is the tour's controller, in the shape of sample-controller: its handler only
// enqueues keys, two workers run controller.Loop and reconcile them from the lister
// (level-triggered), and each reconcile of a pending pod binds it to a node and marks it
// Running with one PATCH, whose event then comes back through the whole pipeline as an update.
type scheduler struct {
	name   string
	w      *writer
	lister store.ResourceIndexer[*api.Pod]
	ctl    *testbed.Controller
	queue  workqueue.TypedRateLimitingInterface[string]
	log    *slog.Logger
	seen   *seenMap
	// direct counts the handler's own Adds, so that the queue's add hops minus these are
	// the rate-limited requeues that have come due (see pipeline.settled).
	direct atomic.Int64
	// writes counts successful PATCHes.
	writes atomic.Int64

	mu     sync.Mutex
	failed map[string]int  // failures so far, per key, against failAnnotation
	holds  map[string]hold // reconciles to hold, per key (step 3)
}

// hold keeps a reconcile of one key busy: entered closes when a worker is inside it, and
// the worker waits until release closes.
type hold struct{ entered, release chan struct{} }

// newScheduler builds the scheduler and its controller on tb, whose informer must exist: the
// workqueue (named for traces) and the loop, which traces its retries and drops as the
// workers' hops.
func newScheduler(w *writer, tb *testbed.Testbed, log *slog.Logger) *scheduler {
	s := &scheduler{
		name:   schedulerName,
		w:      w,
		lister: tb.Pods(),
		log:    log,
		seen:   newSeenMap(),
		failed: map[string]int{},
		holds:  map[string]hold{},
	}
	s.ctl = tb.NewController(schedulerName, s.reconcileKey)
	s.ctl.Loop.OnRetry = s.traceRetry
	s.ctl.Loop.OnGiveUp = s.traceDrop
	s.queue = s.ctl.Queue
	return s
}

// OnAdd, OnUpdate and OnDelete are the controller's ResourceEventHandler: log the hop, Add
// the key. A DeletedFinalStateUnknown is keyed by DeletionHandlingMetaNamespaceKeyFunc, the
// safe unwrap every OnDelete needs.
func (s *scheduler) OnAdd(obj any, _ bool) { s.enqueue("OnAdd", obj, false) }

func (s *scheduler) OnUpdate(_, newObj any) { s.enqueue("OnUpdate", newObj, false) }

func (s *scheduler) OnDelete(obj any) { s.enqueue("OnDelete", obj, true) }

func (s *scheduler) enqueue(op string, obj any, deleted bool) {
	key, rv, tomb := store.KeyAndResourceVersion(obj)
	if key == "" {
		return
	}
	trace.Hop(s.log, "handler", op, key, rv, slog.String(trace.KeyListener, s.name),
		slog.Bool("tombstone", tomb), slog.String("note", "enqueue the key"))
	s.direct.Add(1)
	s.queue.Add(key)
	if deleted {
		s.seen.del(key)
	} else {
		s.seen.set(key, rv)
	}
}

// holdNext makes the next reconcile of key wait until the returned release is called; the
// returned channel closes once a worker is inside that reconcile.
func (s *scheduler) holdNext(key string) (entered <-chan struct{}, release func()) {
	h := hold{entered: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.holds[key] = h
	s.mu.Unlock()
	var once sync.Once
	return h.entered, func() { once.Do(func() { close(h.release) }) }
}

// reconcileKey is the loop's Reconcile. The testbed numbers the workers; a reconcile cut
// short because the pipeline is shutting down is not retried.
func (s *scheduler) reconcileKey(ctx context.Context, key string) error {
	err := s.reconcile(ctx, testbed.Worker(ctx), key)
	if err != nil && ctx.Err() != nil {
		return nil // shutting down: no retry
	}
	return err
}

// traceRetry is the loop's OnRetry: the worker's hop before the queue's requeue.
func (s *scheduler) traceRetry(ctx context.Context, key string, requeues int, _ error) {
	trace.Hop(s.log, "worker", "retry", key, "", slog.String("note", fmt.Sprintf("worker %d: retry later", testbed.Worker(ctx))),
		slog.Int("requeues", requeues))
}

// traceDrop is the loop's OnGiveUp: the worker's hop before the queue forgets the key.
func (s *scheduler) traceDrop(_ context.Context, key string, err error) {
	trace.Hop(s.log, "worker", "drop", key, "", slog.String("note", fmt.Sprintf("giving up after %d retries", s.ctl.Loop.MaxRetries)),
		slog.String("err", err.Error()))
}

// reconcile reads the pod from the lister, never from the event, so it always acts on the
// newest state the cache holds.
func (s *scheduler) reconcile(ctx context.Context, worker int, key string) error {
	ns, name, err := store.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // a key we cannot parse will never parse: drop it
	}
	who := fmt.Sprintf("worker %d: ", worker)
	pod, err := s.lister.ByNamespace(ns).Get(name)
	if api.IsNotFound(err) {
		trace.Hop(s.log, "worker", "reconcile", key, "", slog.String("note", who+"not in the cache: deleted, nothing to do"))
		return nil
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	h, held := s.holds[key]
	delete(s.holds, key)
	s.mu.Unlock()
	if held {
		trace.Hop(s.log, "worker", "hold", key, pod.ResourceVersion, slog.String("note", who+"a slow reconcile: busy with this key for a while"))
		close(h.entered)
		select {
		case <-h.release:
		case <-ctx.Done():
			return ctx.Err()
		}
		// Level-triggered: read the cache again; events that came meanwhile are in it.
		if pod, err = s.lister.ByNamespace(ns).Get(name); err != nil {
			return nil
		}
	}
	if pod.Spec.NodeName != "" && pod.Status.Phase == api.PodRunning {
		trace.Hop(s.log, "worker", "reconcile", key, pod.ResourceVersion,
			slog.String("note", who+"on "+pod.Spec.NodeName+", Running: nothing to do"))
		return nil
	}
	if pod.Spec.NodeName != "" {
		// The kubelet's part: the pod is bound, so report it running, through the status
		// subresource (the main resource ignores status).
		trace.Hop(s.log, "worker", "reconcile", key, pod.ResourceVersion,
			slog.String("note", who+"on "+pod.Spec.NodeName+", not running → PATCH status.phase=Running"))
		return s.write(s.w.patchStatus(ctx, name, []byte(`{"status":{"phase":"Running"}}`)))
	}
	if n, _ := strconv.Atoi(pod.Annotations[failAnnotation]); n > 0 {
		s.mu.Lock()
		done := s.failed[key]
		if done < n {
			s.failed[key] = done + 1
		}
		s.mu.Unlock()
		if done < n {
			err := fmt.Errorf("no node has room (simulated failure %d of %d)", done+1, n)
			trace.Hop(s.log, "worker", "reconcile", key, pod.ResourceVersion, slog.String("note", who+"Pending, no node"), slog.String("err", err.Error()))
			return err
		}
	}
	node := pickNode(key)
	trace.Hop(s.log, "worker", "reconcile", key, pod.ResourceVersion,
		slog.String("note", who+"Pending, no node → bind: POST pods/binding to "+node))
	return s.write(s.w.bind(ctx, name, node))
}

// write counts a successful write and passes its error on.
func (s *scheduler) write(_ api.Object, err error) error {
	if err == nil {
		s.writes.Add(1)
	}
	return err
}

// pickNode spreads pods over the nodes by a hash of the key, so the choice is repeatable.
func pickNode(key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return nodes[h.Sum32()%uint32(len(nodes))]
}

// audit is the second handler: it only logs what it is told. It can be stuck (a gate, the
// tour's step 4) or slow (a delay per call, `demo run` and the dashboard), to show that one
// slow handler never holds up the informer or the other handler.
type audit struct {
	name string
	log  *slog.Logger
	seen *seenMap

	gate  atomic.Pointer[chan struct{}] // non-nil: every call waits until it is closed
	delay atomic.Int64                  // nanoseconds each call takes

	mu         sync.Mutex
	lastRV     map[string]uint64
	outOfOrder int
	calls      int
}

func newAudit(log *slog.Logger) *audit {
	return &audit{name: auditName, log: log, seen: newSeenMap(), lastRV: map[string]uint64{}}
}

func (a *audit) OnAdd(obj any, _ bool) { a.handle("OnAdd", obj, false, false) }

func (a *audit) OnUpdate(oldObj, newObj any) {
	_, oldRV, _ := store.KeyAndResourceVersion(oldObj)
	_, newRV, _ := store.KeyAndResourceVersion(newObj)
	a.handle("OnUpdate", newObj, false, oldRV == newRV)
}

func (a *audit) OnDelete(obj any) { a.handle("OnDelete", obj, true, false) }

func (a *audit) handle(op string, obj any, deleted, resync bool) {
	key, rv, tomb := store.KeyAndResourceVersion(obj)
	note := "logged"
	if resync {
		note = "logged a resync (same resourceVersion)"
	}
	g := a.gate.Load()
	if g != nil {
		note += ", then stuck (a slow disk, say)"
	}
	trace.Hop(a.log, "handler", op, key, rv, slog.String(trace.KeyListener, a.name),
		slog.Bool("tombstone", tomb), slog.Bool("resync", resync), slog.String("note", note))
	if g != nil {
		<-*g
	}
	if d := a.delay.Load(); d > 0 {
		time.Sleep(time.Duration(d)) // a slow handler, on purpose
	}
	a.mu.Lock()
	a.calls++
	if n, err := strconv.ParseUint(rv, 10, 64); err == nil && !deleted {
		if n < a.lastRV[key] {
			a.outOfOrder++
		}
		a.lastRV[key] = n
	}
	if deleted {
		delete(a.lastRV, key)
	}
	a.mu.Unlock()
	if deleted {
		a.seen.del(key)
	} else {
		a.seen.set(key, rv)
	}
}

// stick makes every later call wait; the returned function releases them all.
func (a *audit) stick() (release func()) {
	g := make(chan struct{})
	a.gate.Store(&g)
	var once sync.Once
	return func() {
		once.Do(func() {
			a.gate.Store(nil)
			close(g)
		})
	}
}

// stats returns how many calls returned and how many updates arrived out of RV order.
func (a *audit) stats() (calls, outOfOrder int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls, a.outOfOrder
}
