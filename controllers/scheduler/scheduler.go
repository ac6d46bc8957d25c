package scheduler

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name mirrors v1.DefaultSchedulerName, spec.schedulerName of the pods it schedules.
const Name = "default-scheduler"

// podMaxInUnschedulablePodsDuration mirrors the scheduler's flush of unschedulable pods.
const podMaxInUnschedulablePodsDuration = 5 * time.Minute

// Scheduler mirrors scheduler.Scheduler with the default profile (contract 1).
type Scheduler struct {
	cc    *app.ControllerContext
	pods  informer.SharedIndexInformer
	nodes informer.SharedIndexInformer
	queue workqueue.TypedRateLimitingInterface[string]

	mu            sync.Mutex
	placed        map[string]placedPod // pod key → its node and requests: bound, or assumed
	usage         map[string]nodeUsage // node → the sum of its placed pods' requests
	unschedulable map[string]bool
	eventSeq      atomic.Int64
}

// placedPod and nodeUsage mirror the scheduler cache's pod and NodeInfo accounting.
type placedPod struct {
	node         string
	req, nonZero resources
}

type nodeUsage struct{ used, nonZero resources }

// New mirrors scheduler.New with the default profile.
func New(cc *app.ControllerContext) (app.Controller, error) {
	s := &Scheduler{cc: cc, placed: map[string]placedPod{}, usage: map[string]nodeUsage{}, unschedulable: map[string]bool{}}
	s.pods = cc.Informer(app.Pods)
	s.nodes = cc.Informer(app.Nodes)
	s.queue = cc.NewQueue("scheduler")
	if _, err := s.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc: s.podChanged,
		UpdateFunc: func(old, obj any) {
			if !s.waitingSame(old, obj) {
				s.podChanged(obj)
			}
			s.podLeft(old, obj)
		},
		DeleteFunc: func(obj any) { s.forget(obj); s.podLeft(obj, nil) },
	}); err != nil {
		return nil, err
	}
	_, err := s.nodes.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { s.retryUnschedulable() },
		UpdateFunc: func(any, any) { s.retryUnschedulable() },
	})
	return s, err
}

// Name mirrors the controller interface's Name: "scheduler".
func (s *Scheduler) Name() string { return "scheduler" }

// Run mirrors Scheduler.Run: one pod at a time, as the scheduling cycle does, until ctx
// ends.
func (s *Scheduler) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(s.queue, s.scheduleOne)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

func key(pod *api.Unstructured) string { return pod.GetNamespace() + "/" + pod.GetName() }

// responsible mirrors the scheduler's filter of its pods: unbound, ours, alive.
func responsible(pod *api.Unstructured) bool {
	sn := app.NestedString(pod.Object, "spec", "schedulerName")
	p := app.PodPhase(pod)
	return app.NodeName(pod) == "" && (sn == "" || sn == Name) && pod.GetDeletionTimestamp() == nil &&
		p != "Succeeded" && p != "Failed"
}

func (s *Scheduler) podChanged(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	k := key(pod)
	if app.NodeName(pod) != "" {
		s.mu.Lock()
		delete(s.unschedulable, k)
		p := app.PodPhase(pod)
		if p == "Succeeded" || p == "Failed" {
			s.unplaceLocked(k) // a terminated pod frees its node
		} else {
			s.placeLocked(k, placedPod{node: app.NodeName(pod), req: podRequests(pod, false), nonZero: podRequests(pod, true)})
		}
		s.mu.Unlock()
		return
	}
	if responsible(pod) {
		s.queue.Add(k)
	}
}

// placeLocked mirrors the cache's AddPod/AssumePod: the pod's requests count on its node.
func (s *Scheduler) placeLocked(k string, p placedPod) {
	s.unplaceLocked(k)
	s.placed[k] = p
	u := s.usage[p.node]
	u.used.add(p.req)
	u.nonZero.add(p.nonZero)
	s.usage[p.node] = u
}

// unplaceLocked mirrors RemovePod/ForgetPod.
func (s *Scheduler) unplaceLocked(k string) {
	p, ok := s.placed[k]
	if !ok {
		return
	}
	delete(s.placed, k)
	u := s.usage[p.node]
	u.used.sub(p.req)
	u.nonZero.sub(p.nonZero)
	s.usage[p.node] = u
}

// podLeft retries the unschedulable pods when a bound pod frees its node: deleted, being
// deleted or terminated (AssignedPodDelete and the terminal update of the queueing hints).
func (s *Scheduler) podLeft(old, cur any) {
	o, ok := app.AsUnstructured(old)
	if !ok || app.NodeName(o) == "" {
		return
	}
	if c, ok := app.AsUnstructured(cur); ok && app.IsPodActive(c) == app.IsPodActive(o) {
		return
	}
	s.retryUnschedulable()
}

// waitingSame reports an update of an unschedulable pod that changed neither its spec nor
// its labels (its own PodScheduled condition, say): it stays where it waits, as the
// scheduling queue's isPodUpdated check keeps it.
func (s *Scheduler) waitingSame(old, cur any) bool {
	o, ok1 := app.AsUnstructured(old)
	c, ok2 := app.AsUnstructured(cur)
	if !ok1 || !ok2 {
		return false
	}
	s.mu.Lock()
	waiting := s.unschedulable[key(c)]
	s.mu.Unlock()
	return waiting && reflect.DeepEqual(o.Object["spec"], c.Object["spec"]) &&
		reflect.DeepEqual(o.GetLabels(), c.GetLabels()) && c.GetDeletionTimestamp() == nil
}

// forget drops what the scheduler keeps about a deleted pod.
func (s *Scheduler) forget(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	s.mu.Lock()
	s.unplaceLocked(key(pod))
	delete(s.unschedulable, key(pod))
	s.mu.Unlock()
}

func (s *Scheduler) retryUnschedulable() {
	s.mu.Lock()
	keys := make([]string, 0, len(s.unschedulable))
	for k := range s.unschedulable {
		keys = append(keys, k)
	}
	s.mu.Unlock()
	for _, k := range keys {
		s.queue.Add(k)
	}
}

// scheduleOne mirrors schedulingCycle and bindingCycle for one pod.
func (s *Scheduler) scheduleOne(ctx context.Context, k string) error {
	obj, ok, err := s.pods.GetIndexer().GetByKey(k)
	if err != nil || !ok {
		s.mu.Lock()
		delete(s.unschedulable, k)
		s.mu.Unlock()
		return err
	}
	pod, _ := app.AsUnstructured(obj)
	s.mu.Lock()
	_, bound := s.placed[k]
	s.mu.Unlock()
	if !responsible(pod) || bound {
		return nil
	}
	trace.Hop(s.cc.Logger, "scheduler", "sync", k, pod.GetResourceVersion())
	var nodes []*api.Unstructured
	for _, o := range s.nodes.GetIndexer().List() {
		if n, ok := app.AsUnstructured(o); ok {
			nodes = append(nodes, n)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].GetName() < nodes[j].GetName() })
	s.mu.Lock()
	usage := maps.Clone(s.usage)
	s.mu.Unlock()
	req, reqNZ := podRequests(pod, false), podRequests(pod, true)
	best, bestScore := "", int64(-1)
	reasons := map[string][]string{}
	for _, n := range nodes {
		if r := filter(pod, n, usage[n.GetName()].used); len(r) > 0 {
			reasons[n.GetName()] = r
			continue
		}
		// Upstream picks at random among the best scores; fewer pods, then the name, spread
		// the same way but reproducibly.
		sc := score(reqNZ, allocatable(n), usage[n.GetName()].nonZero)
		if sc > bestScore || (sc == bestScore && usage[n.GetName()].used.pods < usage[best].used.pods) {
			best, bestScore = n.GetName(), sc
		}
	}
	if best == "" {
		return s.recordFailure(ctx, pod, fitError(len(nodes), reasons))
	}
	s.mu.Lock()
	s.placeLocked(k, placedPod{node: best, req: req, nonZero: reqNZ}) // AssumePod
	delete(s.unschedulable, k)
	s.mu.Unlock()
	if err := s.bind(ctx, pod, best); err != nil {
		s.mu.Lock()
		s.unplaceLocked(k) // ForgetPod: the binding failed
		s.mu.Unlock()
		if api.IsNotFound(err) || api.IsConflict(err) {
			return nil // gone or changed: its next event decides
		}
		return err
	}
	return nil
}

// bind mirrors DefaultBinder.Bind and the Scheduled event of the binding cycle.
func (s *Scheduler) bind(ctx context.Context, pod *api.Unstructured, node string) error {
	b := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Binding",
		"metadata": map[string]any{"name": pod.GetName(), "namespace": pod.GetNamespace(), "uid": pod.GetUID()},
		"target":   map[string]any{"apiVersion": "v1", "kind": "Node", "name": node},
	}}
	if _, err := s.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).Create(ctx, b, api.CreateOptions{}, "binding"); err != nil {
		return err
	}
	trace.Hop(s.cc.Logger, "scheduler", "bind", key(pod), pod.GetResourceVersion(), slog.String("node", node),
		slog.String("cause", "node fits, least allocated"))
	s.event(ctx, pod, "Normal", "Scheduled", "Binding", fmt.Sprintf("Successfully assigned %s to %s", key(pod), node))
	return nil
}

// fitError mirrors FitError.Error with the default preemption's PostFilter message:
// preemption cannot help a node that failed for anything but resources, and there are no
// lower-priority victims to evict for one that failed for resources.
func fitError(numNodes int, reasons map[string][]string) string {
	if numNodes == 0 {
		return "no nodes available to schedule pods"
	}
	hist, pre := map[string]int{}, map[string]int{}
	for _, rs := range reasons {
		resourcesOnly := true
		for _, r := range rs {
			hist[r]++
			if r != reasonCPU && r != reasonMemory && r != reasonPods {
				resourcesOnly = false
			}
		}
		if resourcesOnly {
			pre["No preemption victims found for incoming pod"]++
		} else {
			pre["Preemption is not helpful for scheduling"]++
		}
	}
	return fmt.Sprintf("0/%d nodes are available: %s. preemption: 0/%d nodes are available: %s.",
		numNodes, histogram(hist), numNodes, histogram(pre))
}

func histogram(h map[string]int) string {
	var out []string
	for r, n := range h {
		out = append(out, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// recordFailure mirrors handleSchedulingFailure: the FailedScheduling event and the
// PodScheduled=False condition; the pod waits for a cluster change (contract 5).
func (s *Scheduler) recordFailure(ctx context.Context, pod *api.Unstructured, msg string) error {
	k := key(pod)
	s.mu.Lock()
	s.unschedulable[k] = true
	s.mu.Unlock()
	s.queue.AddAfter(k, podMaxInUnschedulablePodsDuration)
	s.event(ctx, pod, "Warning", "FailedScheduling", "Scheduling", msg)
	for _, x := range list(app.NestedMap(pod.Object, "status")["conditions"]) {
		c, _ := x.(map[string]any)
		if c["type"] == "PodScheduled" && c["status"] == "False" && c["reason"] == "Unschedulable" && c["message"] == msg {
			return nil // already said
		}
	}
	patch, _ := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{map[string]any{
		"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": msg,
		"lastProbeTime": nil, "lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
	}}}})
	out, err := s.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).Patch(ctx, pod.GetName(),
		api.StrategicMergePatchType, patch, api.PatchOptions{}, "status")
	if err != nil {
		if api.IsNotFound(err) {
			return nil
		}
		return err
	}
	trace.Hop(s.cc.Logger, "scheduler", "update-status", k, out.GetResourceVersion(),
		slog.String("cause", "no node fits"), slog.String("message", msg))
	return nil
}

// event writes an events.k8s.io/v1 Event as the scheduler's event recorder does.
func (s *Scheduler) event(ctx context.Context, pod *api.Unstructured, typ, reason, action, note string) {
	now := time.Now().UTC()
	// upstream names an event "<object>.<hex nanoseconds>"; a sequence keeps two events of
	// one virtual instant apart
	id := now.UnixNano() + s.eventSeq.Add(1)
	ev := &api.Unstructured{Object: map[string]any{
		"apiVersion": "events.k8s.io/v1", "kind": "Event",
		"metadata":            map[string]any{"name": pod.GetName() + "." + strconv.FormatInt(id, 16), "namespace": pod.GetNamespace()},
		"eventTime":           now.Format("2006-01-02T15:04:05.000000Z07:00"),
		"reportingController": Name,
		"reportingInstance":   Name + "-sim",
		"action":              action,
		"reason":              reason,
		"type":                typ,
		"note":                note,
		"regarding": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": pod.GetName(),
			"namespace": pod.GetNamespace(), "uid": pod.GetUID(), "resourceVersion": pod.GetResourceVersion()},
	}}
	_, err := s.cc.Client.Resource(app.Events).Namespace(pod.GetNamespace()).Create(ctx, ev, api.CreateOptions{})
	trace.Hop(s.cc.Logger, "scheduler", "event", key(pod), pod.GetResourceVersion(), slog.String("reason", reason), slog.Any("err", err))
}
