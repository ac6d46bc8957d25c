// Package endpointslice is the simulated cluster's EndpointSlice controller: for every
// Service with a selector it keeps discovery.k8s.io/v1 EndpointSlices of the pods the
// selector matches, as k8s.io/kubernetes pkg/controller/endpointslice with the reconciler of
// k8s.io/endpointslice does.
//
// What it writes, as upstream does: slices named by generateName "<service>-", labelled
// kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by
// endpointslice-controller.k8s.io (plus the Service's own labels, and
// service.kubernetes.io/headless for a headless Service), owned by the Service (a controller
// reference, so the garbage collector removes them with it), addressType IPv4, at most 100
// endpoints each. One endpoint per pod with an IP (terminal pods and pods without an IP are
// skipped): its addresses, the conditions ready (serving and not terminating, or always with
// publishNotReadyAddresses), serving and terminating, nodeName, the node's
// topology.kubernetes.io/zone, hostname when the pod's subdomain names the Service, and a
// targetRef to the pod. Ports come from the Service's ports, a named targetPort resolved
// against the pod's container ports; pods that resolve to different ports go to different
// slices. A Service with no endpoints keeps one empty placeholder slice.
//
// A pod whose node is not in the cache is left out (and the Service retried), unless the
// Service publishes not-ready addresses. A tracker of the generations this controller wrote
// (upstream's EndpointSliceTracker) keeps it from acting on a cache that has not yet seen its
// own writes, and from resyncing on the echo of them.
package endpointslice
