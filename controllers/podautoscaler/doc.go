// Package podautoscaler is the simulated cluster's HorizontalPodAutoscaler controller, as
// k8s.io/kubernetes pkg/controller/podautoscaler (horizontal.go, replica_calculator.go) is:
// every 15 s (--horizontal-pod-autoscaler-sync-period) it reads each HPA's target through
// the scale subresource (Deployments, ReplicaSets, StatefulSets, anything with one), the
// usage of the target's pods, and writes the new scale and the HPA's status. autoscaling/v1
// HPAs are the same objects, read at v2.
//
// The algorithm is upstream's: desired = ceil(current × usage / target), unchanged while the
// ratio is within the 0.1 tolerance; pods not ready (for cpu) or without metrics are counted
// conservatively (missing pods as 100 % of their request when scaling down, 0 when scaling
// up; unready pods as 0 when scaling up); minReplicas and maxReplicas clamp the result; with
// no spec.behavior the downscale is stabilised over 300 s (the highest recommendation of
// the window wins) and a scale-up is limited to max(2 × current, 4); with spec.behavior, its
// stabilisation windows and policies (the server defaults scale-up to 100 % or 4 pods per
// 15 s, whichever is more) apply. The status carries currentReplicas, desiredReplicas,
// currentMetrics, lastScaleTime and the conditions AbleToScale, ScalingActive and
// ScalingLimited with upstream's reasons; a rescale is the event SuccessfulRescale, "New
// size: 4; reason: cpu resource utilization (percentage of request) above target".
//
// Metrics: nothing in the simulated cluster uses CPU, and no metrics-server runs. The usage is
// simulated: the server's fault API sets it (the set-metric action of /debug/faults, per pod
// or for every pod of a namespace, as a utilization percent or a quantity) and serves it at
// GET /debug/metrics, which this controller reads through the REST client's AbsPath in place
// of metrics.k8s.io (PodMetrics) and custom.metrics.k8s.io. A reading in percent is turned
// into usage with the pod's requests. Metric types supported: Resource (Utilization and
// AverageValue) and Pods (AverageValue); Object, External and ContainerResource metrics make
// ScalingActive False, as a missing metrics API does upstream.
package podautoscaler
