// Package nodelifecycle is the simulated cluster's node lifecycle controller with the taint
// eviction controller it started out containing. It mirrors k8s.io/kubernetes
// pkg/controller/nodelifecycle (monitorNodeHealth, tryUpdateNodeHealth, MarkPodsNotReady,
// the NoExecute and NoSchedule tainting passes) and pkg/controller/tainteviction
// (taint_eviction.go), written with this project's informers and workqueue.
//
// The contract:
//
//  1. Every 5 s (nodeMonitorPeriod) each node's health is probed: the probe time is when the
//     controller last saw its Lease's renewTime or its Ready condition's lastHeartbeatTime
//     change. A node not heard from for 50 s (node-monitor-grace-period, v1.36's default) gets
//     its Ready, MemoryPressure, DiskPressure and PIDPressure conditions set to Unknown
//     (NodeStatusUnknown, "Kubelet stopped posting node status."; NodeStatusNeverUpdated for a
//     condition never posted), and the Ready condition of each of its pods set to False
//     (MarkPodsNotReady).
//  2. Taints follow the Ready condition: Unknown gives node.kubernetes.io/unreachable, False
//     node.kubernetes.io/not-ready, each as NoExecute (with timeAdded) and NoSchedule; True
//     removes them.
//  3. A pod on a node with NoExecute taints is evicted at once when it does not tolerate one
//     of them, else when the shortest tolerationSeconds among the matching tolerations has
//     passed since the taint's timeAdded (never when every matching toleration is unbounded).
//     Eviction adds the DisruptionTarget condition (DeletionByTaintManager), writes the
//     TaintManagerEviction event and deletes the pod with its own grace period; on a node that
//     is down the pod then stays Terminating, as it does upstream.
//  4. Every write is a trace hop of component "nodelifecycle" with its cause.
package nodelifecycle
