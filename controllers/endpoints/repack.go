package endpoints

import (
	"fmt"
	"sort"
	"strings"
)

// objectReference is the part of v1.ObjectReference a targetRef carries.
type objectReference struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	UID       string `json:"uid,omitempty"`
}

// endpointAddress is v1.EndpointAddress's JSON shape.
type endpointAddress struct {
	IP        string           `json:"ip"`
	Hostname  string           `json:"hostname,omitempty"`
	NodeName  *string          `json:"nodeName,omitempty"`
	TargetRef *objectReference `json:"targetRef,omitempty"`
}

// endpointPort is v1.EndpointPort's JSON shape.
type endpointPort struct {
	Name        string  `json:"name,omitempty"`
	Port        int32   `json:"port"`
	Protocol    string  `json:"protocol,omitempty"`
	AppProtocol *string `json:"appProtocol,omitempty"`
}

// endpointSubset is v1.EndpointSubset's JSON shape.
type endpointSubset struct {
	Addresses         []endpointAddress `json:"addresses,omitempty"`
	NotReadyAddresses []endpointAddress `json:"notReadyAddresses,omitempty"`
	Ports             []endpointPort    `json:"ports,omitempty"`
}

func (a *endpointAddress) key() string {
	uid := ""
	if a.TargetRef != nil {
		uid = a.TargetRef.UID
	}
	return a.IP + "/" + uid
}

func (p endpointPort) key() string {
	ap := ""
	if p.AppProtocol != nil {
		ap = *p.AppProtocol
	}
	return fmt.Sprintf("%s/%d/%s/%s", p.Name, p.Port, p.Protocol, ap)
}

// repackSubsets mirrors endpoints.RepackSubsets: every address is filed under each port it
// serves (ready wins over not ready only if it was never not ready, as upstream); ports
// with the same addresses share a subset. Addresses are sorted by IP then UID, ports and
// subsets by their content, so equal inputs give equal outputs.
func repackSubsets(subsets []endpointSubset) []endpointSubset {
	addrs := map[string]endpointAddress{}
	byPort := map[string]map[string]bool{} // port key → address key → ready
	ports := map[string]*endpointPort{}    // port key → port (nil for "no port")
	file := func(a endpointAddress, pk string, ready bool) {
		k := a.key()
		if _, ok := addrs[k]; !ok {
			addrs[k] = a
		}
		if byPort[pk] == nil {
			byPort[pk] = map[string]bool{}
		}
		if was, found := byPort[pk][k]; !found || was {
			byPort[pk][k] = ready
		}
	}
	for _, s := range subsets {
		pks := []string{""}
		if len(s.Ports) > 0 {
			pks = pks[:0]
			for _, p := range s.Ports {
				pk := p.key()
				ports[pk] = &p
				pks = append(pks, pk)
			}
		}
		for _, pk := range pks {
			for _, a := range s.Addresses {
				file(a, pk, true)
			}
			for _, a := range s.NotReadyAddresses {
				file(a, pk, false)
			}
		}
	}
	// ports with the same address set share a subset
	groups := map[string][]string{}
	for pk, set := range byPort {
		groups[setKey(set)] = append(groups[setKey(set)], pk)
	}
	out := make([]endpointSubset, 0, len(groups))
	for _, pks := range groups {
		set := byPort[pks[0]]
		var s endpointSubset
		for ak, ready := range set {
			if ready {
				s.Addresses = append(s.Addresses, addrs[ak])
			} else {
				s.NotReadyAddresses = append(s.NotReadyAddresses, addrs[ak])
			}
		}
		for _, pk := range pks {
			if p := ports[pk]; p != nil {
				s.Ports = append(s.Ports, *p)
			}
		}
		sortAddresses(s.Addresses)
		sortAddresses(s.NotReadyAddresses)
		sort.Slice(s.Ports, func(i, j int) bool { return s.Ports[i].key() < s.Ports[j].key() })
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return subsetKey(out[i]) < subsetKey(out[j]) })
	return out
}

func setKey(set map[string]bool) string {
	parts := make([]string, 0, len(set))
	for k, r := range set {
		parts = append(parts, fmt.Sprintf("%s=%v", k, r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func subsetKey(s endpointSubset) string {
	var b strings.Builder
	for _, p := range s.Ports {
		b.WriteString(p.key() + ";")
	}
	b.WriteString("|")
	for _, a := range s.Addresses {
		b.WriteString(a.key() + ";")
	}
	for _, a := range s.NotReadyAddresses {
		b.WriteString(a.key() + ";")
	}
	return b.String()
}

// sortAddresses mirrors LessEndpointAddress: by IP, then by the pod's UID.
func sortAddresses(as []endpointAddress) {
	sort.Slice(as, func(i, j int) bool { return as[i].key() < as[j].key() })
}

// maxCapacity mirrors the controller's maxCapacity: at most this many addresses are written.
const maxCapacity = 1000

// truncateSubsets mirrors truncateEndpoints: past maxCapacity, ready addresses are kept
// first; each subset keeps its share, rounded up, of what fits. It reports whether anything
// was cut.
func truncateSubsets(subsets []endpointSubset) bool {
	ready, notReady := 0, 0
	for _, s := range subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	if ready+notReady <= maxCapacity {
		return false
	}
	cutReady := ready > maxCapacity
	limit, total := maxCapacity-ready, notReady
	if cutReady {
		limit, total = maxCapacity, ready
	}
	room := limit
	for i := range subsets {
		s := &subsets[i]
		n := len(s.NotReadyAddresses)
		if cutReady {
			n = len(s.Addresses)
		}
		take := min((n*limit+total-1)/total, room)
		if cutReady {
			s.Addresses = s.Addresses[:min(take, len(s.Addresses))]
			s.NotReadyAddresses = nil
			room -= len(s.Addresses)
		} else {
			s.NotReadyAddresses = s.NotReadyAddresses[:min(take, len(s.NotReadyAddresses))]
			room -= len(s.NotReadyAddresses)
		}
	}
	return true
}
