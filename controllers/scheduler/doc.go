// Package scheduler is the simulated cluster's kube-scheduler, reduced to the default
// profile's filters and one score, written with this project's informers and workqueue. It
// mirrors k8s.io/kubernetes pkg/scheduler: schedule_one.go (one pod at a time: filter,
// score, bind through pods/binding, or record the FitError), and the plugins NodeUnschedulable,
// TaintToleration, NodeAffinity and NodeResourcesFit (framework/plugins/...).
//
// The contract:
//
//  1. It schedules every pod without spec.nodeName whose spec.schedulerName is
//     default-scheduler (or empty), not being deleted and not terminated.
//  2. Filters, in the default profile's order, the first failing one naming the node's
//     reason: NodeUnschedulable ("node(s) were unschedulable", unless the pod tolerates
//     node.kubernetes.io/unschedulable:NoSchedule), TaintToleration (every NoSchedule and
//     NoExecute taint tolerated, else "node(s) had untolerated taint(s)"), NodeAffinity
//     (nodeSelector and the required nodeSelectorTerms with matchExpressions In, NotIn,
//     Exists, DoesNotExist, Gt, Lt and matchFields metadata.name, else "node(s) didn't match
//     Pod's node affinity/selector") and NodeResourcesFit (the pod's requests, the larger of
//     its containers' sum and its largest init container, plus overhead, against allocatable
//     minus the requests of the pods on the node: "Insufficient cpu", "Insufficient memory",
//     "Too many pods").
//  3. Score: NodeResourcesFit's LeastAllocated over cpu and memory, counting a container
//     without requests as 100m and 200Mi as upstream's non-zero requests do. Upstream picks
//     at random among the best; here the node with fewer pods wins a tie, then the name that
//     sorts first, which spreads alike but reproducibly.
//  4. A fit is bound with a Binding (the server sets spec.nodeName and PodScheduled True);
//     the scheduler then writes a Scheduled event ("Successfully assigned ns/pod to node").
//     A pod bound but not yet seen bound in the cache is assumed on its node, so the next
//     pods count its requests.
//  5. No fit: the PodScheduled condition False, reason Unschedulable, with upstream's
//     FitError message ("0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match
//     Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption
//     victims found for incoming pod, 2 Preemption is not helpful for scheduling."), and a
//     FailedScheduling event. Such a pod waits until a node is added or changes, or a pod
//     leaves a node, and at most 5 minutes (podMaxInUnschedulablePodsDuration).
//  6. Events are events.k8s.io/v1 as the real scheduler's recorder writes them:
//     reportingController default-scheduler, action Scheduling or Binding.
//  7. Every write is a trace hop of component "scheduler" with its cause.
package scheduler
