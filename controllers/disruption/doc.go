// Package disruption is the simulated cluster's disruption controller: it keeps the status of
// every PodDisruptionBudget, which the server's eviction subresource reads to decide whether
// a pod may go, as k8s.io/kubernetes pkg/controller/disruption (disruption.go) does.
//
// For each budget it counts the pods its selector matches: expectedPods (the number of pods,
// for an integer minAvailable; otherwise the sum of the scales of the pods' controllers,
// read from the Deployment, ReplicaSet or StatefulSet cache or through the scale subresource
// of any other kind), desiredHealthy (minAvailable, or expectedPods minus maxUnavailable,
// percentages rounded up), currentHealthy (ready pods that are neither deleting nor recently
// evicted) and disruptionsAllowed (currentHealthy - desiredHealthy, never below zero), with
// observedGeneration and the DisruptionAllowed condition (SufficientPods, InsufficientPods,
// or SyncFailed when the counts cannot be made). status.disruptedPods, where each eviction
// records its pod, is cleaned: a pod leaves it once it is deleting or gone, or after the
// two-minute DeletionTimeout, and the budget is checked again when the earliest entry
// expires. A pod that an eviction marked with the DisruptionTarget condition but that was not
// deleted has the condition set back to False after two minutes (stalePodDisruptionTimeout),
// on a second queue. Events: NoPods, UnmanagedPods, CalculateExpectedPodCountFailed, as
// upstream.
package disruption
