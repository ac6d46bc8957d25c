package app

import (
	"fmt"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
)

// EndpointsLastChangeTriggerTime mirrors v1.EndpointsLastChangeTriggerTime, the annotation
// both endpoints controllers write.
const EndpointsLastChangeTriggerTime = "endpoints.kubernetes.io/last-change-trigger-time"

// PodIPs mirrors reading pod.Status.PodIPs: status.podIPs (or status.podIP when the list is
// empty).
func PodIPs(pod *api.Unstructured) []string {
	var out []string
	list, _ := Nested(pod.Object, "status", "podIPs")
	items, _ := list.([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			if ip, _ := m["ip"].(string); ip != "" {
				out = append(out, ip)
			}
		}
	}
	if len(out) == 0 {
		if ip := NestedString(pod.Object, "status", "podIP"); ip != "" {
			out = []string{ip}
		}
	}
	return out
}

// ShouldPodBeInEndpoints mirrors endpointsliceutil.ShouldPodBeInEndpoints: a terminal pod
// (Succeeded, Failed) or one without an IP is never an endpoint; a terminating one only when
// includeTerminating is set.
func ShouldPodBeInEndpoints(pod *api.Unstructured, includeTerminating bool) bool {
	if p := PodPhase(pod); p == "Succeeded" || p == "Failed" {
		return false
	}
	if len(PodIPs(pod)) == 0 {
		return false
	}
	return includeTerminating || pod.GetDeletionTimestamp() == nil
}

// ServicePort mirrors v1.ServicePort (its JSON shape).
type ServicePort struct {
	Name        string      `json:"name,omitempty"`
	Protocol    string      `json:"protocol,omitempty"`
	AppProtocol *string     `json:"appProtocol,omitempty"`
	Port        int32       `json:"port"`
	TargetPort  IntOrString `json:"targetPort,omitempty"`
}

// ServiceSpec mirrors v1.ServiceSpec, reduced to what the endpoints controllers read.
type ServiceSpec struct {
	Type                     string            `json:"type,omitempty"`
	Selector                 map[string]string `json:"selector,omitempty"`
	Ports                    []ServicePort     `json:"ports,omitempty"`
	ClusterIP                string            `json:"clusterIP,omitempty"`
	PublishNotReadyAddresses bool              `json:"publishNotReadyAddresses,omitempty"`
}

// Service mirrors v1.Service, reduced to what the endpoints controllers read.
type Service struct {
	Metadata api.ObjectMeta `json:"metadata"`
	Spec     ServiceSpec    `json:"spec"`
}

// FindPort mirrors endpointsliceutil.FindPort (podutil.FindPort): a number targetPort is the
// port; a name is looked up among the ports of the pod's containers, then of its sidecars
// (init containers that restart Always), with the Service port's protocol.
func FindPort(pod *api.Unstructured, sp *ServicePort) (int32, error) {
	if !sp.TargetPort.IsString {
		return sp.TargetPort.IntVal, nil
	}
	proto := sp.Protocol
	if proto == "" {
		proto = "TCP"
	}
	spec := NestedMap(pod.Object, "spec")
	for _, list := range []string{"containers", "initContainers"} {
		cs, _ := spec[list].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if list == "initContainers" && cm["restartPolicy"] != "Always" {
				continue
			}
			ports, _ := cm["ports"].([]any)
			for _, p := range ports {
				pm, _ := p.(map[string]any)
				pp, _ := pm["protocol"].(string)
				if pp == "" {
					pp = "TCP"
				}
				if pm["name"] == sp.TargetPort.StrVal && pp == proto {
					n, _ := api.AsInt64(pm["containerPort"])
					return int32(n), nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no suitable port for manifest: %s", pod.GetUID())
}

// ShouldSetHostname mirrors endpointsliceutil.ShouldSetHostname: the pod's hostname is
// published when its subdomain names the Service.
func ShouldSetHostname(pod *api.Unstructured, svc *Service) bool {
	return NestedString(pod.Object, "spec", "hostname") != "" &&
		NestedString(pod.Object, "spec", "subdomain") == svc.Metadata.Name && pod.GetNamespace() == svc.Metadata.Namespace
}

// ServiceSelector mirrors labels.Set(service.Spec.Selector).AsSelectorPreValidated.
func ServiceSelector(svc *Service) labels.Selector {
	return labels.SelectorFromSet(labels.Set(svc.Spec.Selector))
}

// ServiceSelectorOf reads a cached Service's spec.selector without converting the object (a
// pod event asks it of every Service of the namespace); ok is false for a Service without a
// selector, which the endpoints controllers leave alone.
func ServiceSelectorOf(svc *api.Unstructured) (labels.Selector, bool) {
	m, ok := NestedMap(svc.Object, "spec", "selector"), false
	if m != nil {
		ok = true
	}
	if !ok {
		return nil, false
	}
	set := labels.Set{}
	for k, v := range m {
		if s, isString := v.(string); isString {
			set[k] = s
		}
	}
	return labels.SelectorFromSet(set), true
}

// podReadyTransition returns the lastTransitionTime of the pod's Ready condition, zero when
// it has none.
func podReadyTransition(pod *api.Unstructured) time.Time {
	list, _ := Nested(pod.Object, "status", "conditions")
	items, _ := list.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["type"] != "Ready" {
			continue
		}
		s, _ := m["lastTransitionTime"].(string)
		t, _ := time.Parse(time.RFC3339, s)
		return t
	}
	return time.Time{}
}

// TriggerTimeTracker mirrors endpointsliceutil.TriggerTimeTracker: per Service, the trigger
// times (Ready transitions, the Service's creation) seen at its last sync, so a sync can say
// when the earliest change it publishes happened.
type TriggerTimeTracker struct {
	mu     sync.Mutex
	states map[string]triggerState
}

type triggerState struct {
	pods    map[string]time.Time
	service time.Time
}

// NewTriggerTimeTracker mirrors endpointsliceutil.NewTriggerTimeTracker.
func NewTriggerTimeTracker() *TriggerTimeTracker {
	return &TriggerTimeTracker{states: map[string]triggerState{}}
}

// ComputeEndpointLastChangeTriggerTime mirrors the tracker's method of that name: the
// earliest trigger time newer than what the last sync of the Service saw, the Service's
// creation on its first sync, zero when nothing changed.
func (t *TriggerTimeTracker) ComputeEndpointLastChangeTriggerTime(key string, svc *Service, pods []*api.Unstructured) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, known := t.states[key]
	var earliest time.Time
	note := func(tt time.Time) {
		if earliest.IsZero() || tt.Before(earliest) {
			earliest = tt
		}
	}
	next := triggerState{pods: map[string]time.Time{}, service: svc.Metadata.CreationTimestamp.Time}
	for _, p := range pods {
		if tt := podReadyTransition(p); !tt.IsZero() {
			next.pods[p.GetName()] = tt
			if tt.After(old.pods[p.GetName()]) {
				note(tt)
			}
		}
	}
	if next.service.After(old.service) {
		note(next.service)
	}
	t.states[key] = next
	if !known {
		return svc.Metadata.CreationTimestamp.Time
	}
	return earliest
}

// DeleteService mirrors TriggerTimeTracker.DeleteService: forget a Service.
func (t *TriggerTimeTracker) DeleteService(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.states, key)
}
