package ch10_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	ch10 "github.com/informer-lab/informer-lab/chapters/10-controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/workqueue"
)

// profiles are the informer queues the in-process tests run under: the DeltaFIFO the
// articles draw, and client-go v0.37's atomic RealFIFO with watch-list.
var profiles = []informer.Profile{informer.ProfileClassic, informer.ProfileCurrent}

// newPod is a pod in default with one container.
func newPod(name, image string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: image}}},
	}
}

// hop is one Debug line of a component, as a struct.
type hop struct {
	Component, Op, Key, RV string
	Attrs                  map[string]string
}

// hopRecorder is a slog.Handler that keeps every hop, so tests can ask what the controller
// saw without parsing text. No component uses With or WithGroup.
type hopRecorder struct {
	mu   sync.Mutex
	hops []hop
}

func (r *hopRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *hopRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *hopRecorder) WithGroup(string) slog.Handler            { return r }

func (r *hopRecorder) Handle(_ context.Context, rec slog.Record) error {
	d := trace.Decode(trace.Scope{}, rec)
	h := hop{Component: d.Component, Op: d.Op, Key: d.Key, RV: d.RV, Attrs: map[string]string{}}
	for _, a := range d.Attrs {
		h.Attrs[a.Key] = a.Value.String()
	}
	r.mu.Lock()
	r.hops = append(r.hops, h)
	r.mu.Unlock()
	return nil
}

// find returns the hops of component and op, in order.
func (r *hopRecorder) find(component, op string) []hop {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []hop
	for _, h := range r.hops {
		if h.Component == component && h.Op == op {
			out = append(out, h)
		}
	}
	return out
}

// reset forgets every hop recorded so far.
func (r *hopRecorder) reset() {
	r.mu.Lock()
	r.hops = nil
	r.mu.Unlock()
}

// syncs renders the controller's sync hops as "key@rv result images".
func (r *hopRecorder) syncs() []string {
	var out []string
	for _, h := range r.find("controller", "sync") {
		s := fmt.Sprintf("%s@%s %s", h.Key, h.RV, h.Attrs["result"])
		if img := h.Attrs["images"]; img != "" {
			s += " " + img
		}
		out = append(out, s)
	}
	return out
}

// enqueues renders the controller's enqueue hops as "Handler key@rv", with "tombstone" added
// for a DeletedFinalStateUnknown.
func (r *hopRecorder) enqueues() []string {
	var out []string
	for _, h := range r.find("controller", "enqueue") {
		s := fmt.Sprintf("%s %s@%s", h.Attrs["handler"], h.Key, h.RV)
		if h.Attrs["tombstone"] == "true" {
			s += " tombstone"
		}
		out = append(out, s)
	}
	return out
}

// stepper wraps a SyncHandler so that the test runs each sync by hand, inside a synctest
// bubble. A sync waits twice: before it reads the lister (so the test decides what has
// reached the cache by then), and after it returns (so the informer can deliver the sync's own
// write before the worker calls Done). Between the two waits the test calls synctest.Wait:
// every event in flight has then been handled. With one worker this makes the whole run
// deterministic, including how many syncs there are.
type stepper struct {
	before  chan string
	after   chan error
	proceed chan struct{}
	times   []time.Time // when each sync started (virtual time)
}

func newStepper() *stepper {
	return &stepper{before: make(chan string), after: make(chan error), proceed: make(chan struct{})}
}

func (s *stepper) wrap(sync func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) error {
		select {
		case s.before <- key:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-s.proceed:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := sync(ctx, key)
		select {
		case s.after <- err:
		case <-ctx.Done():
			return err
		}
		select {
		case <-s.proceed:
		case <-ctx.Done():
		}
		return err
	}
}

// step runs the next sync: it waits for a worker to start one (virtual time moves on while it
// waits, so rate-limited retries arrive), lets it run, lets the informer settle, and lets the
// worker finish. It returns the key and the sync's error.
func (s *stepper) step(t *testing.T) (string, error) {
	t.Helper()
	var key string
	select {
	case key = <-s.before:
	case <-time.After(time.Minute):
		t.Fatal("no sync started within a minute (virtual time)")
	}
	s.times = append(s.times, time.Now())
	s.proceed <- struct{}{}
	err := <-s.after
	synctest.Wait()
	s.proceed <- struct{}{}
	return key, err
}

// idle checks that no sync is ready once everything in flight has settled.
func (s *stepper) idle(t *testing.T) {
	t.Helper()
	synctest.Wait()
	select {
	case key := <-s.before:
		t.Fatalf("unexpected sync of %s", key)
	default:
	}
}

// harness is the simulated apiserver, a shared informer factory and the controller with one
// worker.
type harness struct {
	srv   *apiserver.Server
	ctrl  *ch10.Controller
	queue workqueue.TypedRateLimitingInterface[string]
	rec   *hopRecorder
	steps *stepper

	errMu    sync.Mutex
	reported []error // what the controller gave up on (its ErrorHandler)
}

func (h *harness) reportError(err error) {
	h.errMu.Lock()
	h.reported = append(h.reported, err)
	h.errMu.Unlock()
}

func (h *harness) errors() []error {
	h.errMu.Lock()
	defer h.errMu.Unlock()
	return append([]error(nil), h.reported...)
}

// inProcessSource is the factory's source for an in-process server: every informer lists and
// watches through the Go API, no socket, so it runs inside a synctest bubble.
func inProcessSource(srv *apiserver.Server) informer.ListWatchSource {
	return informer.ListWatchSourceFunc(func(gvr api.GroupVersionResource, namespace string, _ func(*api.ListOptions)) listwatch.ListerWatcher {
		return srv.ListerWatcher(gvr.Resource, namespace)
	})
}

// inProcessPods is the controller's PodClient for an in-process server.
func inProcessPods(srv *apiserver.Server) ch10.PodClient {
	return ch10.PodClientFunc(func(ctx context.Context, pod *api.Pod) (*api.Pod, error) {
		obj, err := srv.UpdateStatus(ctx, "pods", pod.Namespace, pod)
		if err != nil {
			return nil, err
		}
		return obj.(*api.Pod), nil
	})
}

// startInProcess must run inside a synctest bubble. It starts the server, the factory and the
// controller (its syncs driven by h.steps), and returns once the cache has synced and the
// worker waits for keys. Cleanup stops everything and checks that Run returned nil.
func startInProcess(t *testing.T, profile informer.Profile) *harness {
	t.Helper()
	h := &harness{srv: apiserver.New(apiserver.Options{}), rec: &hopRecorder{}, steps: newStepper()}
	logger := slog.New(h.rec)
	h.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "pods", Logger: logger})
	factory := informer.NewSharedInformerFactoryWithOptions(inProcessSource(h.srv), 0, informer.WithProfile(profile), informer.WithLogger(logger))
	pods := factory.Core().V1().Pods()
	ctrl, err := ch10.NewController(inProcessPods(h.srv), pods, ch10.Options{Queue: h.queue, Logger: logger, ErrorHandler: h.reportError})
	require.NoError(t, err)
	ctrl.SyncHandler = h.steps.wrap(ctrl.SyncHandler)
	h.ctrl = ctrl

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	runErr := make(chan error, 1)
	go func() { runErr <- ctrl.Run(ctx, 1) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-runErr)
		factory.Shutdown()
		h.srv.Close()
	})
	require.True(t, informer.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced))
	synctest.Wait() // the controller's own WaitForCacheSync has returned and its worker waits
	return h
}

// getPod reads a pod from the server.
func (h *harness) getPod(t *testing.T, name string) *api.Pod {
	t.Helper()
	obj, err := h.srv.Get(context.Background(), "pods", "default", name)
	require.NoError(t, err)
	return obj.(*api.Pod)
}

// create stores a pod and returns its resourceVersion.
func (h *harness) create(t *testing.T, name, image string) string {
	t.Helper()
	obj, err := h.srv.Create(context.Background(), "pods", "default", newPod(name, image))
	require.NoError(t, err)
	return obj.(*api.Pod).ResourceVersion
}

// setImage updates the pod's image and returns the new resourceVersion.
func (h *harness) setImage(t *testing.T, name, image string) string {
	t.Helper()
	p := h.getPod(t, name)
	p.Spec.Containers[0].Image = image
	obj, err := h.srv.Update(context.Background(), "pods", "default", p)
	require.NoError(t, err)
	return obj.(*api.Pod).ResourceVersion
}

// readyMessage is the message of the pod's Ready condition on the server ("" if none).
func (h *harness) readyMessage(t *testing.T, name string) string {
	t.Helper()
	for _, c := range h.getPod(t, name).Status.Conditions {
		if c.Type == api.PodReady {
			return c.Message
		}
	}
	return ""
}

// rvAfter returns rv+n as a string: the server's one global counter makes RVs predictable.
func rvAfter(t *testing.T, rv string, n int) string {
	t.Helper()
	var v int
	_, err := fmt.Sscan(rv, &v)
	require.NoError(t, err)
	return fmt.Sprint(v + n)
}

// joinLines formats a list for a t.Log table.
func joinLines(lines []string) string { return "\n  " + strings.Join(lines, "\n  ") }
