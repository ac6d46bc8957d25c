package endpointslice

import (
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// plan is what one reconcile decided: the slices to create, update and delete.
type plan struct {
	create, update, delete []*endpointSlice
}

// reconcile mirrors Reconciler.reconcileByAddressType for IPv4 (the simulated cluster's pod
// IPs are IPv4): group the desired endpoints by their ports, keep each existing slice's
// endpoints that are still wanted (updated in place), fill slices that change anyway first,
// then an unchanged slice that fits the rest, then new slices; drop slices the Service does
// not own, and keep one placeholder when nothing is left. nodes looks a node up by name (nil
// when absent). The returned error names pods skipped for a missing node: the plan is still
// applied, and the Service retried.
func reconcile(svc *app.Service, pods []*api.Unstructured, existing []*endpointSlice, nodes func(string) *api.Unstructured) (plan, error) {
	var p plan
	var skipped []string
	existingByPorts := map[string][]*endpointSlice{}
	for _, s := range existing {
		if ownedBy(s, svc) {
			k := portMapKey(s.Ports)
			existingByPorts[k] = append(existingByPorts[k], s)
		} else {
			p.delete = append(p.delete, s)
		}
	}
	desired := map[string]map[string]endpoint{}
	desiredPorts := map[string][]endpointPort{}
	for _, pod := range pods {
		if !app.ShouldPodBeInEndpoints(pod, true) {
			continue
		}
		ports := endpointPorts(svc, pod)
		k := portMapKey(ports)
		if desired[k] == nil {
			desired[k] = map[string]endpoint{}
			desiredPorts[k] = ports
		}
		node := nodes(app.NodeName(pod))
		if node == nil && !svc.Spec.PublishNotReadyAddresses {
			skipped = append(skipped, pod.GetName())
			continue
		}
		ep := podToEndpoint(pod, node, svc)
		if len(ep.Addresses) > 0 {
			desired[k][endpointKey(&ep)] = ep
		}
	}
	for _, k := range sortedKeys(desired) {
		c, u, d := reconcileByPorts(svc, existingByPorts[k], desired[k], desiredPorts[k])
		p.create, p.update, p.delete = append(p.create, c...), append(p.update, u...), append(p.delete, d...)
	}
	for _, k := range sortedKeys(existingByPorts) {
		if _, ok := desired[k]; !ok {
			p.delete = append(p.delete, existingByPorts[k]...)
		}
	}
	if len(existing) == len(p.delete) && len(p.create) == 0 {
		placeholder := newEndpointSlice(svc, []endpointPort{})
		if len(p.delete) == 1 && isPlaceholderOf(p.delete[0], placeholder) {
			p.delete = nil // the placeholder is there already
		} else {
			p.create = append(p.create, placeholder)
		}
	}
	finalize(&p)
	if len(skipped) > 0 {
		return p, fmt.Errorf("skipping Pods %v for Service %s/%s: their Nodes are not found", skipped, svc.Metadata.Namespace, svc.Metadata.Name)
	}
	return p, nil
}

// isPlaceholderOf mirrors placeholderSliceCompare: an existing slice equals the placeholder
// when it has no endpoints or ports and the same labels, owners and address type.
func isPlaceholderOf(s, placeholder *endpointSlice) bool {
	return len(s.Endpoints) == 0 && len(s.Ports) == 0 && s.AddressType == placeholder.AddressType &&
		reflect.DeepEqual(s.Metadata.Labels, placeholder.Metadata.Labels) &&
		reflect.DeepEqual(s.Metadata.OwnerReferences, placeholder.Metadata.OwnerReferences)
}

// reconcileByPorts mirrors reconcileByPortMapping for one port list. Endpoints are taken in
// key order (upstream takes them in any order) so a run is reproducible.
func reconcileByPorts(svc *app.Service, existing []*endpointSlice, desired map[string]endpoint, ports []endpointPort) (create, update, del []*endpointSlice) {
	var toUpdate, unchanged []*endpointSlice
	for _, s := range existing {
		kept := make([]endpoint, 0, len(s.Endpoints))
		changed := false
		for _, e := range s.Endpoints {
			k := endpointKey(&e)
			want, ok := desired[k]
			if !ok {
				continue
			}
			if !reflect.DeepEqual(want, e) {
				changed = true
			}
			kept = append(kept, want)
			delete(desired, k)
		}
		labels, labelsChanged := sliceLabels(s.Metadata.Labels, svc)
		switch {
		case changed || len(kept) != len(s.Endpoints):
			if len(kept) == 0 {
				del = append(del, s)
				continue
			}
			n := s.deepCopy()
			n.Endpoints, n.Metadata.Labels = kept, labels
			toUpdate = append(toUpdate, n)
		case labelsChanged:
			n := s.deepCopy()
			n.Metadata.Labels = labels
			toUpdate = append(toUpdate, n)
		default:
			unchanged = append(unchanged, s)
		}
	}
	rest := sortedKeys(desired)
	take := func(s *endpointSlice) {
		for len(rest) > 0 && len(s.Endpoints) < maxEndpointsPerSlice {
			s.Endpoints = append(s.Endpoints, desired[rest[0]])
			rest = rest[1:]
		}
	}
	// the fullest of the slices written anyway are filled first
	sort.SliceStable(toUpdate, func(i, j int) bool { return len(toUpdate[i].Endpoints) > len(toUpdate[j].Endpoints) })
	for _, s := range toUpdate {
		take(s)
	}
	for len(rest) > 0 {
		var fill *endpointSlice
		if len(rest) < maxEndpointsPerSlice && len(unchanged) > 0 {
			if i := sliceToFill(unchanged, len(rest)); i >= 0 {
				fill = unchanged[i].deepCopy()
				unchanged = append(unchanged[:i], unchanged[i+1:]...)
				toUpdate = append(toUpdate, fill)
			}
		}
		if fill == nil {
			fill = newEndpointSlice(svc, ports)
			create = append(create, fill)
		}
		take(fill)
	}
	return create, toUpdate, del
}

// sliceToFill mirrors getSliceToFill: the slice that n more endpoints fill the closest to
// full, -1 when none has room.
func sliceToFill(slices []*endpointSlice, n int) int {
	best, bestDiff := -1, maxEndpointsPerSlice
	for i, s := range slices {
		diff := maxEndpointsPerSlice - (n + len(s.Endpoints))
		if diff >= 0 && diff < bestDiff {
			best, bestDiff = i, diff
			if diff == 0 {
				break
			}
		}
	}
	return best
}

// finalize mirrors Reconciler.finalize's recycling: a slice to delete is reused for a slice
// to create, as an update, so the number of writes stays small.
func finalize(p *plan) {
	var keep []*endpointSlice
	for _, d := range p.delete {
		if len(p.create) == 0 || d.AddressType != p.create[0].AddressType || !sameOwners(d, p.create[0]) {
			keep = append(keep, d)
			continue
		}
		c := p.create[0]
		p.create = p.create[1:]
		c.Metadata.Name = d.Metadata.Name
		c.Metadata.UID, c.Metadata.ResourceVersion = d.Metadata.UID, d.Metadata.ResourceVersion
		c.Metadata.CreationTimestamp, c.Metadata.Generation = d.Metadata.CreationTimestamp, d.Metadata.Generation
		p.update = append(p.update, c)
	}
	p.delete = keep
}

func sameOwners(a, b *endpointSlice) bool {
	return reflect.DeepEqual(a.Metadata.OwnerReferences, b.Metadata.OwnerReferences)
}

// setTriggerTime mirrors addTriggerTimeAnnotation: the annotation says when the earliest
// change this write publishes happened; a zero time removes it.
func setTriggerTime(s *endpointSlice, t time.Time) {
	if t.IsZero() {
		delete(s.Metadata.Annotations, app.EndpointsLastChangeTriggerTime)
		return
	}
	if s.Metadata.Annotations == nil {
		s.Metadata.Annotations = map[string]string{}
	}
	s.Metadata.Annotations[app.EndpointsLastChangeTriggerTime] = t.UTC().Format(time.RFC3339Nano)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
