package kubelet

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// LeaseNamespace mirrors v1.NamespaceNodeLease; the other constants mirror the node lease's timing (nodelease.NewController's defaults: duration 40 s,
// renewed every quarter of it) and nodeStatusReportFrequency.
const (
	LeaseNamespace            = "kube-node-lease"
	leaseDurationSeconds      = 40
	renewInterval             = 10 * time.Second
	nodeStatusReportFrequency = 5 * time.Minute
)

// The node annotations the simulation reads (contract 1 and 6); nothing in client-go
// mirrors them. They have the values of
// apiserver.SimulatedNodeAnnotation and apiserver.NodeFailureAnnotation, which a controller
// may not import.
const (
	SimulatedAnnotation   = "sim.informer-lab.dev/simulated"
	FailedUntilAnnotation = "sim.informer-lab.dev/failed-until"
)

// NodeName is ours: the name of the i'th simulated node (KWOK names its nodes alike).
func NodeName(i int) string { return fmt.Sprintf("sim-node-%d", i) }

// nodeIP is the InternalIP of the i'th node, as a kind node's on the docker network.
func nodeIP(i int) string { return fmt.Sprintf("172.18.0.%d", i+2) }

// podCIDR is the i'th node's pod CIDR, as the node IPAM controller gives kind's nodes.
func podCIDR(i int) string { return fmt.Sprintf("10.244.%d.0/24", i) }

// nodeObject is the Node the i'th kubelet registers (initialNode in kubelet_node_status.go).
func nodeObject(i int, now time.Time) map[string]any {
	name := NodeName(i)
	res := map[string]any{"cpu": "32", "memory": "256Gi", "pods": "110", "ephemeral-storage": "100Gi"}
	return map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{
			"name": name,
			"labels": map[string]any{
				"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
				"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
				"node-role.kubernetes.io/agent": "", "type": "sim",
			},
			"annotations": map[string]any{SimulatedAnnotation: "true", "node.alpha.kubernetes.io/ttl": "0"},
		},
		"spec":   map[string]any{"podCIDR": podCIDR(i), "podCIDRs": []any{podCIDR(i)}},
		"status": nodeStatus(i, res, now),
	}
}

// nodeStatus is the status the kubelet posts (setNodeStatus): resources, conditions,
// addresses, the kubelet's endpoint and the node's info.
func nodeStatus(i int, res map[string]any, now time.Time) map[string]any {
	ts := stamp(now)
	c := func(t, status, reason, msg string) map[string]any {
		return map[string]any{"type": t, "status": status, "reason": reason, "message": msg,
			"lastHeartbeatTime": ts, "lastTransitionTime": ts}
	}
	return map[string]any{
		"capacity": res, "allocatable": api.DeepCopyJSONValue(res),
		"phase": nil,
		"conditions": []any{
			c("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
			c("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
			c("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
			c("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
		},
		"addresses": []any{
			map[string]any{"type": "InternalIP", "address": nodeIP(i)},
			map[string]any{"type": "Hostname", "address": NodeName(i)},
		},
		"daemonEndpoints": map[string]any{"kubeletEndpoint": map[string]any{"Port": int64(10250)}},
		"nodeInfo": map[string]any{
			"machineID": digest(NodeName(i))[:32], "systemUUID": digest("uuid/" + NodeName(i))[:32],
			"bootID": digest("boot/" + NodeName(i))[:32], "kernelVersion": "6.8.0-sim",
			"osImage": "informer-lab simulated node", "containerRuntimeVersion": "sim://1.0.0",
			"kubeletVersion": "v1.36.3", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64",
		},
	}
}

// register mirrors registerWithAPIServer: create the node, or, when it exists (a restart),
// post its status so it is Ready again. The node's labels and annotations are kept.
func (k *Kubelet) register(ctx context.Context, i int) error {
	name := NodeName(i)
	nodes := k.cc.Client.Resource(app.Nodes)
	want := nodeObject(i, time.Now())
	cur, err := nodes.Get(ctx, name, api.GetOptions{})
	if api.IsNotFound(err) {
		created, err := nodes.Create(ctx, &api.Unstructured{Object: want}, api.CreateOptions{})
		if err != nil {
			return err
		}
		trace.Hop(k.cc.Logger, "kubelet", "create", name, created.GetResourceVersion(), slog.String("cause", "node registered"))
		cur = created
	} else if err != nil {
		return err
	}
	return k.postNodeStatus(ctx, i, cur, "node registered")
}

// postNodeStatus writes the node's status as the kubelet computes it, with fresh heartbeats.
func (k *Kubelet) postNodeStatus(ctx context.Context, i int, cur *api.Unstructured, cause string) error {
	u := cur.DeepCopy()
	status := app.NestedMap(nodeObject(i, time.Now()), "status")
	u.Object["status"] = status
	out, err := k.cc.Client.Resource(app.Nodes).UpdateStatus(ctx, u, api.UpdateOptions{})
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.lastStatus[i] = time.Now()
	k.mu.Unlock()
	trace.Hop(k.cc.Logger, "kubelet", "update-status", u.GetName(), out.GetResourceVersion(), slog.String("cause", cause))
	return nil
}

// heartbeat runs one node's lease renewals and status reports until ctx ends.
func (k *Kubelet) heartbeat(ctx context.Context, i int) {
	t := time.NewTicker(renewInterval)
	defer t.Stop()
	wasDown := false
	for {
		down, _ := k.nodeDown(NodeName(i), time.Now())
		if down {
			wasDown = true
		} else {
			if err := k.renewLease(ctx, i); err != nil {
				trace.Hop(k.cc.Logger, "kubelet", "lease-error", NodeName(i), "", slog.Any("err", err))
			}
			k.maybePostStatus(ctx, i, wasDown)
			if wasDown {
				wasDown = false
				k.enqueueNodePods(NodeName(i)) // back: sync every pod again
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// maybePostStatus posts the node status when it is due: after a failure, when the node is
// not Ready in the cache, or every nodeStatusReportFrequency.
func (k *Kubelet) maybePostStatus(ctx context.Context, i int, recovered bool) {
	name := NodeName(i)
	obj, ok, _ := k.nodes.GetIndexer().GetByKey(name)
	node, _ := app.AsUnstructured(obj)
	if !ok || node == nil {
		return
	}
	k.mu.Lock()
	last := k.lastStatus[i]
	k.mu.Unlock()
	cause := ""
	switch {
	case recovered:
		cause = "node back after a failure"
	case nodeReady(node) != "True":
		cause = "node not Ready in the cache"
	case time.Since(last) >= nodeStatusReportFrequency:
		cause = "status report due"
	default:
		return
	}
	if err := k.postNodeStatus(ctx, i, node, cause); err != nil {
		trace.Hop(k.cc.Logger, "kubelet", "status-error", name, "", slog.Any("err", err))
	}
}

func nodeReady(node *api.Unstructured) string {
	for _, x := range asList(app.NestedMap(node.Object, "status")["conditions"]) {
		if c, _ := x.(map[string]any); c["type"] == "Ready" {
			s, _ := c["status"].(string)
			return s
		}
	}
	return ""
}

// renewLease mirrors the node lease controller: create the lease, owned by the node, or
// renew it.
func (k *Kubelet) renewLease(ctx context.Context, i int) error {
	name := NodeName(i)
	leases := k.cc.Client.Resource(app.Leases).Namespace(LeaseNamespace)
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00")
	cur, err := leases.Get(ctx, name, api.GetOptions{})
	if api.IsNotFound(err) {
		k.ensureLeaseNamespace(ctx)
		obj, ok, _ := k.nodes.GetIndexer().GetByKey(name)
		node, _ := app.AsUnstructured(obj)
		meta := map[string]any{"name": name, "namespace": LeaseNamespace}
		if ok && node != nil {
			meta["ownerReferences"] = []any{map[string]any{"apiVersion": "v1", "kind": "Node", "name": name, "uid": node.GetUID()}}
		}
		out, err := leases.Create(ctx, &api.Unstructured{Object: map[string]any{
			"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": meta,
			"spec": map[string]any{"holderIdentity": name, "leaseDurationSeconds": int64(leaseDurationSeconds), "renewTime": now},
		}}, api.CreateOptions{})
		if err == nil {
			trace.Hop(k.cc.Logger, "kubelet", "create", LeaseNamespace+"/"+name, out.GetResourceVersion(), slog.String("cause", "node lease created"))
		}
		return err
	}
	if err != nil {
		return err
	}
	u := cur.DeepCopy()
	spec := app.NestedMap(u.Object, "spec")
	if spec == nil {
		spec = map[string]any{}
		u.Object["spec"] = spec
	}
	spec["renewTime"] = now
	spec["holderIdentity"] = name
	spec["leaseDurationSeconds"] = int64(leaseDurationSeconds)
	out, err := leases.Update(ctx, u, api.UpdateOptions{})
	if err == nil {
		trace.Hop(k.cc.Logger, "kubelet", "renew", LeaseNamespace+"/"+name, out.GetResourceVersion(), slog.String("cause", "heartbeat"))
	}
	return err
}

// nodeDown reports whether the node-failure fault holds the node at now, and until when.
func (k *Kubelet) nodeDown(name string, now time.Time) (bool, time.Time) {
	obj, ok, _ := k.nodes.GetIndexer().GetByKey(name)
	node, _ := app.AsUnstructured(obj)
	if !ok || node == nil {
		return false, time.Time{}
	}
	v := node.GetAnnotations()[FailedUntilAnnotation]
	if v == "" {
		return false, time.Time{}
	}
	until := parseTime(v)
	return now.Before(until), until
}

// ensureLeaseNamespace creates kube-node-lease when the server has not (a Go API server
// without Options.Bootstrap); a real kube-apiserver creates it at start.
func (k *Kubelet) ensureLeaseNamespace(ctx context.Context) {
	ns := k.cc.Client.Resource(app.Namespaces)
	if _, err := ns.Get(ctx, LeaseNamespace, api.GetOptions{}); !api.IsNotFound(err) {
		return
	}
	out, err := ns.Create(ctx, &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": LeaseNamespace}}}, api.CreateOptions{})
	if err == nil {
		trace.Hop(k.cc.Logger, "kubelet", "create", LeaseNamespace, out.GetResourceVersion(), slog.String("cause", "lease namespace missing"))
	}
}
