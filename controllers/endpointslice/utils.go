package endpointslice

import (
	"fmt"
	"maps"
	"net/netip"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The labels and names of discovery/v1 and core/v1 the controller writes; each mirrors the
// constant of that name (discovery.LabelServiceName, discovery.LabelManagedBy,
// v1.IsHeadlessService, v1.LabelTopologyZone).
const (
	LabelServiceName = "kubernetes.io/service-name"
	LabelManagedBy   = "endpointslice.kubernetes.io/managed-by"
	LabelHeadless    = "service.kubernetes.io/headless"
	LabelZone        = "topology.kubernetes.io/zone"
	// ControllerName mirrors endpointslice.ControllerName, the managed-by value.
	ControllerName = "endpointslice-controller.k8s.io"
	// maxEndpointsPerSlice mirrors the default of --max-endpoints-per-slice.
	maxEndpointsPerSlice = 100
	addressTypeIPv4      = "IPv4"
)

// endpointConditions is discovery/v1 EndpointConditions' JSON shape.
type endpointConditions struct {
	Ready       *bool `json:"ready,omitempty"`
	Serving     *bool `json:"serving,omitempty"`
	Terminating *bool `json:"terminating,omitempty"`
}

// objectReference is the part of v1.ObjectReference a targetRef carries.
type objectReference struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	UID       string `json:"uid,omitempty"`
}

// endpoint is discovery/v1 Endpoint's JSON shape (without hints).
type endpoint struct {
	Addresses  []string           `json:"addresses"`
	Conditions endpointConditions `json:"conditions"`
	Hostname   *string            `json:"hostname,omitempty"`
	TargetRef  *objectReference   `json:"targetRef,omitempty"`
	NodeName   *string            `json:"nodeName,omitempty"`
	Zone       *string            `json:"zone,omitempty"`
}

// endpointPort is discovery/v1 EndpointPort's JSON shape.
type endpointPort struct {
	Name        *string `json:"name,omitempty"`
	Protocol    *string `json:"protocol,omitempty"`
	Port        *int32  `json:"port,omitempty"`
	AppProtocol *string `json:"appProtocol,omitempty"`
}

// endpointSlice is discovery/v1 EndpointSlice's JSON shape.
type endpointSlice struct {
	APIVersion  string         `json:"apiVersion"`
	Kind        string         `json:"kind"`
	Metadata    api.ObjectMeta `json:"metadata"`
	AddressType string         `json:"addressType"`
	Endpoints   []endpoint     `json:"endpoints"`
	Ports       []endpointPort `json:"ports"`
}

func (s *endpointSlice) deepCopy() *endpointSlice {
	out := *s
	out.Metadata.Labels = maps.Clone(s.Metadata.Labels)
	out.Metadata.Annotations = maps.Clone(s.Metadata.Annotations)
	out.Endpoints = append([]endpoint(nil), s.Endpoints...)
	return &out
}

// endpointKey identifies an endpoint across syncs, as upstream's endpoint hash does: its pod
// and its addresses.
func endpointKey(e *endpoint) string {
	uid := ""
	if e.TargetRef != nil {
		uid = e.TargetRef.Namespace + "/" + e.TargetRef.Name + "/" + e.TargetRef.UID
	}
	return uid + "|" + strings.Join(e.Addresses, ",")
}

// portMapKey mirrors NewPortMapKey: slices are grouped by their exact port list.
func portMapKey(ports []endpointPort) string {
	parts := make([]string, 0, len(ports))
	for _, p := range ports {
		parts = append(parts, fmt.Sprintf("%s/%s/%d/%s", deref(p.Name), deref(p.Protocol), deref(p.Port), deref(p.AppProtocol)))
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

func ptr[T any](v T) *T { return &v }

// podToEndpoint mirrors podToEndpoint of the reconciler's utils.go.
func podToEndpoint(pod *api.Unstructured, node *api.Unstructured, svc *app.Service) endpoint {
	serving := app.IsPodReady(pod)
	terminating := pod.GetDeletionTimestamp() != nil
	// ready stays false for a terminating pod unless the Service publishes not-ready
	// addresses, for the consumers that read only ready
	ready := svc.Spec.PublishNotReadyAddresses || (serving && !terminating)
	ep := endpoint{
		Addresses:  ipv4Addresses(pod),
		Conditions: endpointConditions{Ready: &ready, Serving: &serving, Terminating: &terminating},
		TargetRef:  &objectReference{Kind: "Pod", Namespace: pod.GetNamespace(), Name: pod.GetName(), UID: pod.GetUID()},
	}
	if n := app.NodeName(pod); n != "" {
		ep.NodeName = ptr(n)
	}
	if node != nil {
		if z := node.GetLabels()[LabelZone]; z != "" {
			ep.Zone = ptr(z)
		}
	}
	if app.ShouldSetHostname(pod, svc) {
		ep.Hostname = ptr(app.NestedString(pod.Object, "spec", "hostname"))
	}
	return ep
}

// ipv4Addresses mirrors getEndpointAddresses for IPv4: the pod's IPv4 addresses, written
// canonically.
func ipv4Addresses(pod *api.Unstructured) []string {
	out := []string{}
	for _, s := range app.PodIPs(pod) {
		ip, err := netip.ParseAddr(s)
		if err != nil {
			continue
		}
		if ip.Is4() || ip.Is4In6() {
			out = append(out, ip.Unmap().String())
		}
	}
	return out
}

// endpointPorts mirrors getEndpointPorts: one port per Service port the pod resolves; a
// headless Service may have none.
func endpointPorts(svc *app.Service, pod *api.Unstructured) []endpointPort {
	out := []endpointPort{}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		n, err := app.FindPort(pod, sp)
		if err != nil {
			continue
		}
		proto := sp.Protocol
		if proto == "" {
			proto = "TCP"
		}
		out = append(out, endpointPort{Name: ptr(sp.Name), Port: ptr(n), Protocol: ptr(proto), AppProtocol: sp.AppProtocol})
	}
	return out
}

// isReservedLabel mirrors isReservedLabelKey.
func isReservedLabel(k string) bool {
	return k == LabelServiceName || k == LabelManagedBy || k == LabelHeadless
}

// sliceLabels mirrors setEndpointSliceLabels: the Service's labels (reserved ones skipped),
// the headless label for a Service without a cluster IP, the two reserved labels; changed
// reports whether the slice's non-reserved labels differ from the Service's.
func sliceLabels(current map[string]string, svc *app.Service) (map[string]string, bool) {
	have, want := map[string]string{}, map[string]string{}
	for k, v := range current {
		if !isReservedLabel(k) {
			have[k] = v
		}
	}
	for k, v := range svc.Metadata.Labels {
		if !isReservedLabel(k) {
			want[k] = v
		}
	}
	changed := !maps.Equal(have, want)
	if svc.Spec.ClusterIP == "None" || svc.Spec.ClusterIP == "" {
		want[LabelHeadless] = ""
	}
	want[LabelServiceName] = svc.Metadata.Name
	want[LabelManagedBy] = ControllerName
	return want, changed
}

// slicePrefix mirrors getEndpointSlicePrefix: "<service>-" when that is still a valid
// generateName.
func slicePrefix(name string) string {
	if len(name)+1 > 253 {
		return name
	}
	return name + "-"
}

// newEndpointSlice mirrors newEndpointSlice: an unnamed slice owned by the Service.
func newEndpointSlice(svc *app.Service, ports []endpointPort) *endpointSlice {
	t := true
	s := &endpointSlice{
		APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice",
		Metadata: api.ObjectMeta{
			GenerateName: slicePrefix(svc.Metadata.Name),
			Namespace:    svc.Metadata.Namespace,
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc.Metadata.Name,
				UID: svc.Metadata.UID, Controller: &t, BlockOwnerDeletion: &t}},
		},
		AddressType: addressTypeIPv4,
		Ports:       ports,
		Endpoints:   []endpoint{},
	}
	s.Metadata.Labels, _ = sliceLabels(nil, svc)
	return s
}

// ownedBy mirrors ownedBy.
func ownedBy(s *endpointSlice, svc *app.Service) bool {
	for _, o := range s.Metadata.OwnerReferences {
		if o.UID == svc.Metadata.UID && o.Kind == "Service" && o.APIVersion == "v1" {
			return true
		}
	}
	return false
}
