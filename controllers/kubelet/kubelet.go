package kubelet

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Kubelet mirrors the kubelet (pkg/kubelet Kubelet) for every simulated node of the
// cluster: one per node, sharing one queue of pod keys and one pod informer (contract 1).
type Kubelet struct {
	cc    *app.ControllerContext
	n     int
	names map[string]int // node name → index
	pods  informer.SharedIndexInformer
	nodes informer.SharedIndexInformer
	queue workqueue.TypedRateLimitingInterface[string]

	mu         sync.Mutex
	lastStatus map[int]time.Time
	ips        map[string]map[string]string // node → pod IP → pod key
	podIPs     map[string]string            // pod key → IP
	stale      map[string]bool              // pod key → the cache lost a write: read the server
}

// syncFrequency mirrors the kubelet's --sync-frequency: every pod is synced again this often.
const syncFrequency = time.Minute

// New mirrors the kubelet's NewMainKubelet, for cc.Nodes simulated nodes; with none it
// declines (nil, nil).
func New(cc *app.ControllerContext) (app.Controller, error) {
	if cc.Nodes <= 0 {
		return nil, nil
	}
	k := &Kubelet{cc: cc, n: cc.Nodes, names: map[string]int{}, lastStatus: map[int]time.Time{},
		ips: map[string]map[string]string{}, podIPs: map[string]string{}, stale: map[string]bool{}}
	for i := range cc.Nodes {
		k.names[NodeName(i)] = i
	}
	k.pods = cc.Informer(app.Pods)
	k.nodes = cc.Informer(app.Nodes)
	k.queue = cc.NewQueue("kubelet")
	_, err := k.pods.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    k.enqueue,
		UpdateFunc: func(_, obj any) { k.enqueue(obj) },
		DeleteFunc: k.forget,
	})
	return k, err
}

// Name mirrors the controller interface's Name: "kubelet".
func (k *Kubelet) Name() string { return "kubelet" }

// Run mirrors Kubelet.Run: it registers the nodes, starts their heartbeats and runs the pod
// workers until ctx ends.
func (k *Kubelet) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for i := range k.n {
		wg.Go(func() {
			for ctx.Err() == nil {
				err := k.register(ctx, i)
				if err == nil {
					break
				}
				trace.Hop(k.cc.Logger, "kubelet", "register-error", NodeName(i), "", slog.Any("err", err))
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
			k.heartbeat(ctx, i)
		})
	}
	for _, obj := range k.pods.GetIndexer().List() {
		if pod, ok := app.AsUnstructured(obj); ok {
			if ip := app.NestedString(pod.Object, "status", "podIP"); ip != "" {
				k.claimIP(app.NodeName(pod), ip, podKey(pod))
			}
		}
		k.enqueue(obj)
	}
	wg.Go(func() {
		t := time.NewTicker(syncFrequency)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for name := range k.names {
					k.enqueueNodePods(name)
				}
			}
		}
	})
	loop := controller.NewLoop(k.queue, k.sync)
	loop.MaxRetries = 1 << 30 // a kubelet retries for ever
	loop.Run(ctx, workers)
	wg.Wait()
}

func podKey(pod *api.Unstructured) string { return pod.GetNamespace() + "/" + pod.GetName() }

func (k *Kubelet) enqueue(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	if _, ours := k.names[app.NodeName(pod)]; ours {
		k.queue.Add(podKey(pod))
	}
}

// forget releases a deleted pod's IP.
func (k *Kubelet) forget(obj any) {
	pod, ok := app.AsUnstructured(obj)
	if !ok {
		return
	}
	k.releaseIP(podKey(pod))
}

// enqueueNodePods queues every pod of the node.
func (k *Kubelet) enqueueNodePods(node string) {
	for _, obj := range k.pods.GetIndexer().List() {
		if pod, ok := app.AsUnstructured(obj); ok && app.NodeName(pod) == node {
			k.queue.Add(podKey(pod))
		}
	}
}

// sync mirrors the pod worker's SyncPod and the status manager's write for one pod.
func (k *Kubelet) sync(ctx context.Context, key string) error {
	obj, ok, err := k.pods.GetIndexer().GetByKey(key)
	if err != nil || !ok {
		k.releaseIP(key)
		return err
	}
	cached, _ := app.AsUnstructured(obj)
	k.mu.Lock()
	stale := k.stale[key]
	k.mu.Unlock()
	if stale {
		// The last write conflicted: the cache missed a change. Read the server, as the
		// status manager does before each write.
		fresh, err := k.cc.Client.Resource(app.Pods).Namespace(cached.GetNamespace()).Get(ctx, cached.GetName(), api.GetOptions{})
		if api.IsNotFound(err) {
			k.releaseIP(key)
			return nil
		}
		if err != nil {
			return err
		}
		cached = fresh
	}
	node := app.NodeName(cached)
	i, ours := k.names[node]
	if !ours {
		return nil
	}
	now := time.Now()
	if down, until := k.nodeDown(node, now); down {
		k.queue.AddAfter(key, until.Sub(now))
		return nil
	}
	trace.Hop(k.cc.Logger, "kubelet", "sync", key, cached.GetResourceVersion(), slog.String("node", node))
	pod := cached.DeepCopy()
	ip := ""
	if app.NestedString(pod.Object, "status", "podIP") == "" && pod.GetDeletionTimestamp() == nil {
		if ip, err = k.allocateIP(node, i, key); err != nil {
			return err
		}
	}
	act, wait, cause := computePodStatus(pod, podEnv{node: node, hostIP: nodeIP(i), podIP: ip, now: now})
	switch act {
	case actStatus:
		out, err := k.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).UpdateStatus(ctx, pod, api.UpdateOptions{})
		k.mu.Lock()
		k.stale[key] = api.IsConflict(err)
		if err == nil {
			delete(k.stale, key)
		}
		k.mu.Unlock()
		if err != nil {
			return err
		}
		trace.Hop(k.cc.Logger, "kubelet", "update-status", key, out.GetResourceVersion(),
			slog.String("cause", cause), slog.String("phase", app.PodPhase(out)), slog.Bool("ready", app.IsPodReady(out)))
	case actDelete:
		zero := int64(0)
		uid := pod.GetUID()
		err := k.cc.Client.Resource(app.Pods).Namespace(pod.GetNamespace()).Delete(ctx, pod.GetName(),
			api.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &api.Preconditions{UID: &uid}})
		if err != nil && !api.IsNotFound(err) && !api.IsConflict(err) {
			return err
		}
		trace.Hop(k.cc.Logger, "kubelet", "delete", key, pod.GetResourceVersion(), slog.String("cause", cause))
		k.releaseIP(key)
		return nil
	}
	if wait > 0 {
		k.queue.AddAfter(key, wait)
	}
	return nil
}

// allocateIP gives a pod the lowest free address of its node's /24 (.1 is the gateway).
func (k *Kubelet) allocateIP(node string, i int, key string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if ip, ok := k.podIPs[key]; ok {
		return ip, nil
	}
	used := k.ips[node]
	if used == nil {
		used = map[string]string{}
		k.ips[node] = used
	}
	prefix := strings.TrimSuffix(podCIDR(i), "0/24")
	for h := 2; h < 255; h++ {
		ip := fmt.Sprintf("%s%d", prefix, h)
		if _, taken := used[ip]; !taken {
			used[ip] = key
			k.podIPs[key] = ip
			return ip, nil
		}
	}
	return "", fmt.Errorf("node %s: no free pod IP in %s", node, podCIDR(i))
}

func (k *Kubelet) claimIP(node, ip, key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ips[node] == nil {
		k.ips[node] = map[string]string{}
	}
	k.ips[node][ip] = key
	k.podIPs[key] = ip
}

func (k *Kubelet) releaseIP(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.stale, key)
	ip, ok := k.podIPs[key]
	if !ok {
		return
	}
	delete(k.podIPs, key)
	for _, used := range k.ips {
		if used[ip] == key {
			delete(used, ip)
		}
	}
}
