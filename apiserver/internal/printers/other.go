package printers

import (
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of the kinds in the smaller groups: coordination.k8s.io and
// discovery.k8s.io. (events.k8s.io shares the core Event's, in events.go.)
var (
	leasePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Holder", "string", doc("io.k8s.api.coordination.v1.LeaseSpec", "holderIdentity")),
			ageColumn(),
		},
		// printLease
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("spec", "holderIdentity"), age(o, now)}, nil
		},
	}

	endpointSlicePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("AddressType", "string", doc("io.k8s.api.discovery.v1.EndpointSlice", "addressType")),
			column("Ports", "string", doc("io.k8s.api.discovery.v1.EndpointSlice", "ports")),
			column("Endpoints", "string", doc("io.k8s.api.discovery.v1.EndpointSlice", "endpoints")),
			ageColumn(),
		},
		cells: endpointSliceCells,
	}

	runtimeClassPrinter = &Printer{
		specs: []col{
			nameColumn(),
			// Upstream reads ObjectMeta's doc of a "handler" member it does not have: "".
			column("Handler", "string", text("")),
			ageColumn(),
		},
		// printRuntimeClass
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), o.str("handler"), age(o, now)}, nil
		},
	}
)

// endpointSliceCells mirrors printEndpointSlice with formatDiscoveryPorts and
// formatDiscoveryEndpoints: a port prints as its number, else its name, else "*".
func endpointSliceCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	var ports, addrs []string
	for _, p := range o.objects("ports") {
		s := "*"
		if n, ok := p.integer("port"); ok {
			s = strconv.FormatInt(n, 10)
		} else if p.has("name") {
			s = p.str("name")
		}
		ports = append(ports, s)
	}
	for _, e := range o.objects("endpoints") {
		addrs = append(addrs, e.strings("addresses")...)
	}
	return []any{o.name(), o.str("addressType"), listWithMore(ports), listWithMore(addrs), age(o, now)}, nil
}
