package endpoints

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func addr(ip, uid string) endpointAddress {
	return endpointAddress{IP: ip, TargetRef: &objectReference{Kind: "Pod", UID: uid}}
}

// TestCh14_Endpoints_RepackSubsets: addresses that serve the same ports share a subset; an
// address not ready on one port is not ready there only.
func TestCh14_Endpoints_RepackSubsets(t *testing.T) {
	http := endpointPort{Name: "http", Port: 80, Protocol: "TCP"}
	metrics := endpointPort{Name: "metrics", Port: 9090, Protocol: "TCP"}
	tests := []struct {
		name string
		in   []endpointSubset
		want []endpointSubset
	}{
		{"empty", nil, []endpointSubset{}},
		{"one port, merged and sorted",
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.2", "b")}, Ports: []endpointPort{http}},
				{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{http}},
				{NotReadyAddresses: []endpointAddress{addr("10.0.0.3", "c")}, Ports: []endpointPort{http}}},
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a"), addr("10.0.0.2", "b")},
				NotReadyAddresses: []endpointAddress{addr("10.0.0.3", "c")}, Ports: []endpointPort{http}}}},
		{"two ports, same addresses: one subset",
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{metrics}},
				{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{http}}},
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{http, metrics}}}},
		{"a pod without the named port splits the subsets",
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{http}},
				{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{metrics}},
				{Addresses: []endpointAddress{addr("10.0.0.2", "b")}, Ports: []endpointPort{http}}},
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a"), addr("10.0.0.2", "b")}, Ports: []endpointPort{http}},
				{Addresses: []endpointAddress{addr("10.0.0.1", "a")}, Ports: []endpointPort{metrics}}}},
		{"headless without ports",
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a")}}},
			[]endpointSubset{{Addresses: []endpointAddress{addr("10.0.0.1", "a")}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, repackSubsets(tc.in)); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestCh14_Endpoints_Truncate: past 1000 addresses, ready ones are kept first and every
// subset keeps its share.
func TestCh14_Endpoints_Truncate(t *testing.T) {
	mk := func(ready, notReady int) endpointSubset {
		var s endpointSubset
		for range ready {
			s.Addresses = append(s.Addresses, addr("10.0.0.1", ""))
		}
		for range notReady {
			s.NotReadyAddresses = append(s.NotReadyAddresses, addr("10.0.0.2", ""))
		}
		return s
	}
	count := func(ss []endpointSubset) (r, n int) {
		for _, s := range ss {
			r += len(s.Addresses)
			n += len(s.NotReadyAddresses)
		}
		return
	}
	tests := []struct {
		name                string
		in                  []endpointSubset
		cut                 bool
		wantReady, wantNots int
	}{
		{"under capacity", []endpointSubset{mk(600, 400)}, false, 600, 400},
		{"not ready cut first", []endpointSubset{mk(600, 300), mk(0, 300)}, true, 600, 400},
		{"ready over capacity", []endpointSubset{mk(700, 10), mk(700, 0)}, true, 1000, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := truncateSubsets(tc.in); got != tc.cut {
				t.Fatalf("cut = %v", got)
			}
			r, n := count(tc.in)
			if r != tc.wantReady || n != tc.wantNots {
				t.Fatalf("ready %d not ready %d, want %d %d", r, n, tc.wantReady, tc.wantNots)
			}
		})
	}
}
