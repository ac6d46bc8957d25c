package printers

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

var (
	servicePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Type", "string", doc(coreV1+"ServiceSpec", "type")),
			column("Cluster-IP", "string", doc(coreV1+"ServiceSpec", "clusterIP")),
			column("External-IP", "string", doc(coreV1+"ServiceSpec", "externalIPs")),
			column("Port(s)", "string", doc(coreV1+"ServiceSpec", "ports")),
			ageColumn(),
			wide("Selector", "string", doc(coreV1+"ServiceSpec", "selector")),
		},
		cells: serviceCells,
	}

	endpointsPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Endpoints", "string", doc(coreV1+"Endpoints", "subsets")),
			ageColumn(),
		},
		// printEndpoints
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), formatEndpoints(o.objects("subsets")), age(o, now)}, nil
		},
	}
)

// serviceCells mirrors printService. A missing type reads as ClusterIP and a missing port
// protocol as TCP, the v1 defaults; a missing clusterIPs falls back to clusterIP, as the
// service registry fills one from the other.
func serviceCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec := o.obj("spec")
	typ := spec.str("type")
	if typ == "" {
		typ = "ClusterIP"
	}
	clusterIP := spec.str("clusterIP")
	if ips := spec.strings("clusterIPs"); len(ips) > 0 {
		clusterIP = ips[0]
	}
	return []any{
		o.name(), typ, orNone(clusterIP), externalIP(typ, spec, o.obj("status")),
		orNone(servicePorts(spec.objects("ports"))), age(o, now),
		formatLabels(spec.stringMap("selector")),
	}, nil
}

// externalIP mirrors getServiceExternalIP for a wide listing, which the server always makes.
func externalIP(typ string, spec, status object) string {
	external := spec.strings("externalIPs")
	switch typ {
	case "ClusterIP", "NodePort":
		return orNone(strings.Join(external, ","))
	case "LoadBalancer":
		all := append(loadBalancerIngress(status), external...)
		if len(all) == 0 {
			return "<pending>"
		}
		return strings.Join(all, ",")
	case "ExternalName":
		return spec.str("externalName")
	}
	return "<unknown>"
}

// loadBalancerIngress mirrors loadBalancerStatusStringer: the distinct ingress IPs (or
// hostnames where an entry has no IP), sorted.
func loadBalancerIngress(status object) []string {
	var out []string
	for _, in := range status.objects("loadBalancer", "ingress") {
		switch {
		case in.str("ip") != "":
			out = append(out, in.str("ip"))
		case in.str("hostname") != "":
			out = append(out, in.str("hostname"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// servicePorts mirrors makePortString: "80/TCP", or "80:30080/TCP" with a node port.
func servicePorts(ports []object) string {
	var b strings.Builder
	for i, p := range ports {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(p.int("port"), 10))
		if np := p.int("nodePort"); np > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.FormatInt(np, 10))
		}
		proto := p.str("protocol")
		if proto == "" {
			proto = "TCP"
		}
		b.WriteByte('/')
		b.WriteString(proto)
	}
	return b.String()
}

// maxListed is how many addresses the endpoints columns spell out before "+ N more...".
const maxListed = 3

// formatEndpoints mirrors formatEndpoints: ip:port for every address and port of every
// subset (a bare ip for a subset without ports), the first three of them, then how many
// more there are.
func formatEndpoints(subsets []object) string {
	if len(subsets) == 0 {
		return "<none>"
	}
	var list []string
	count, more := 0, false
	add := func(s string) {
		if len(list) == maxListed {
			more = true
			return
		}
		list = append(list, s)
	}
	for _, ss := range subsets {
		addrs, ports := ss.objects("addresses"), ss.objects("ports")
		if len(ports) == 0 {
			count += len(addrs)
			for _, a := range addrs {
				add(a.str("ip"))
			}
			continue
		}
		for _, p := range ports {
			count += len(addrs)
			for _, a := range addrs {
				add(hostPort(a.str("ip"), p.int("port")))
			}
		}
	}
	s := strings.Join(list, ",")
	if more {
		return s + " + " + strconv.Itoa(count-maxListed) + " more..."
	}
	return s
}

// listWithMore mirrors listWithMoreString: the first three items, "+ N more..." after them,
// and "<unset>" for none.
func listWithMore(items []string) string {
	if len(items) > maxListed {
		return strings.Join(items[:maxListed], ",") + " + " + strconv.Itoa(len(items)-maxListed) + " more..."
	}
	if len(items) == 0 {
		return "<unset>"
	}
	return strings.Join(items, ",")
}
