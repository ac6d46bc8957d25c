// Package kubelet simulates one kubelet per node of the simulated cluster, as KWOK does: no
// container runs, but every node and every pod goes through the states and writes a real
// kubelet makes, through the API only. It mirrors, reduced to those writes,
// k8s.io/kubernetes pkg/kubelet: the node's registration (kubelet_node_status.go), its
// heartbeats as Leases in kube-node-lease (nodelease), and the pod status the pod workers
// and the status manager post (kubelet_pods.go generateAPIPodStatus, status/status_manager.go).
//
// The contract:
//
//  1. Nodes. With ControllerContext.Nodes = N, nodes sim-node-0 … sim-node-(N-1) are
//     registered (or re-registered) when the controller runs: capacity and allocatable cpu 32,
//     memory 256Gi, pods 110 (KWOK's default node), labels kubernetes.io/hostname,
//     kubernetes.io/os=linux, kubernetes.io/arch=amd64 and node-role.kubernetes.io/agent, the
//     annotation sim.informer-lab.dev/simulated=true (the server then serves pods/log from the
//     pod's status), spec.podCIDR 10.244.<i>.0/24, addresses InternalIP 172.18.0.<i+2> and
//     Hostname, the Ready condition (KubeletReady) and the three pressure conditions. With
//     N = 0 New declines (returns nil) and the manager runs no kubelet.
//  2. Heartbeats. Each node renews its Lease kube-node-lease/<node> (leaseDurationSeconds 40,
//     owned by the Node) every 10 s, upstream's renew interval of a quarter of the duration,
//     and posts its node status again whenever its Ready condition is not True (after the node
//     lifecycle controller marked it Unknown) or every 5 minutes (nodeStatusReportFrequency).
//  3. Pods. A pod bound to one of its nodes (spec.nodeName) moves Pending → Running (startTime,
//     hostIP(s), podIP(s) from the node's pod CIDR, PodReadyToStartContainers and Initialized
//     True, containers running and started, not yet ready) → Ready (containers ready,
//     ContainersReady and Ready True) once each container's readinessProbe.initialDelaySeconds
//     has passed (at once without a probe). Init containers complete at once.
//  4. Annotations of a pod set what its containers do (every container alike):
//     sim.informer-lab.dev/run-seconds: a container exits that many seconds after it started
//     (absent: it runs until the pod is deleted); sim.informer-lab.dev/exit-code: its exit code
//     (default 0; reason Completed for 0, Error otherwise); sim.informer-lab.dev/stop-seconds:
//     how long it takes to stop after a delete (default 1 s, exit 0; beyond the grace period it
//     is killed with 137). After an exit, restartPolicy Always (or OnFailure with a non-zero code)
//     restarts the container after upstream's back-off (10 s doubling to 5 min, state waiting
//     CrashLoopBackOff meanwhile; restartCount counts the restarts); otherwise the pod ends
//     Succeeded (every exit 0) or Failed, with terminated states.
//  5. Graceful deletion as on a real node. A pod with a deletionTimestamp keeps running until
//     its containers stop (stop-seconds, or the deletionTimestamp the server set to the delete
//     plus the grace period); the kubelet then posts the terminated states and the terminal
//     phase, and deletes the pod with gracePeriodSeconds 0 and the pod's UID as precondition.
//     Informers see MODIFIED (deletionTimestamp), MODIFIED (terminated), then DELETED.
//  6. Node failure. While the node carries the annotation sim.informer-lab.dev/failed-until
//     (set by the server's node-failure fault) with a time in the future, its kubelet is down:
//     no lease renewal, no node status, no pod status, no final delete. When the time passes it
//     posts its node status, and syncs every pod of the node again.
//  7. Every write is a trace hop of component "kubelet" with its cause.
package kubelet
