// Package endpoints is the simulated cluster's Endpoints controller: for every Service with a
// selector it keeps the legacy core/v1 Endpoints object of the same name, as
// k8s.io/kubernetes pkg/controller/endpoint (endpoints_controller.go) does.
//
// Each pod with an IP the selector matches is an address (IP, nodeName, targetRef, hostname
// when its subdomain names the Service), under addresses when it is ready or the Service
// publishes not-ready addresses, under notReadyAddresses otherwise; a terminating pod is
// left out unless the Service publishes not-ready addresses. Addresses are repacked into
// subsets by the ports they share (RepackSubsets), a named targetPort resolved per pod. The
// object carries the Service's labels, service.kubernetes.io/headless for a headless
// Service, endpoints.kubernetes.io/managed-by endpoint-controller, the
// endpoints.kubernetes.io/last-change-trigger-time annotation and, past 1000 addresses,
// endpoints.kubernetes.io/over-capacity: truncated with the addresses cut to 1000. It is
// deleted with its Service, and written only when it changes.
package endpoints
