package printers

import (
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The networking.k8s.io/v1 printers.
var (
	ingressPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Class", "string", text("The name of the IngressClass resource that should be used for additional configuration")),
			column("Hosts", "string", text("Hosts that incoming requests are matched against before the ingress rule")),
			column("Address", "string", text("Address is a list containing ingress points for the load-balancer")),
			column("Ports", "string", text("Ports of TLS configurations that open")),
			ageColumn(),
		},
		cells: ingressCells,
	}

	ingressClassPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Controller", "string", text("Controller that is responsible for handling this class")),
			column("Parameters", "string", text("A reference to a resource with additional parameters")),
			ageColumn(),
		},
		cells: ingressClassCells,
	}

	networkPolicyPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Pod-Selector", "string", doc("io.k8s.api.networking.v1.NetworkPolicySpec", "podSelector")),
			ageColumn(),
		},
		// printNetworkPolicy
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), formatLabelSelector(o.obj("spec", "podSelector")), age(o, now)}, nil
		},
	}

	// ipAddressPrinter mirrors printIPAddress, whose row has one cell more than its
	// columns: the age, which kubectl does not show.
	ipAddressPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("ParentRef", "string", doc("io.k8s.api.networking.v1.IPAddressSpec", "parentRef")),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), parentRef(o.obj("spec", "parentRef")), age(o, now)}, nil
		},
	}

	serviceCIDRPrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("CIDRs", "string", doc("io.k8s.api.networking.v1.ServiceCIDRSpec", "cidrs")),
			ageColumn(),
		},
		// printServiceCIDR
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), strings.Join(o.strings("spec", "cidrs"), ","), age(o, now)}, nil
		},
	}
)

// ingressCells mirrors printIngress with formatHosts, formatPorts and
// ingressLoadBalancerStatusStringer (wide, so the address is never cut short).
func ingressCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec := o.obj("spec")
	class := "<none>"
	if c, ok := spec.get("ingressClassName").(string); ok {
		class = c
	}
	return []any{
		o.name(), class, ingressHosts(spec.objects("rules")),
		strings.Join(loadBalancerIngress(o.obj("status")), ","), ingressPorts(spec), age(o, now),
	}, nil
}

// ingressHosts mirrors formatHosts: the rule hosts until three are found, then, if any
// rule follows, how many rules there are beyond three (upstream counts rules, not hosts);
// * when no rule names a host.
func ingressHosts(rules []object) string {
	const max = 3
	var hosts []string
	more := false
	for _, r := range rules {
		if len(hosts) == max {
			more = true
			break
		}
		if h := r.str("host"); h != "" {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) == 0 {
		return "*"
	}
	out := strings.Join(hosts, ",")
	if more {
		out += " + " + strconv.Itoa(len(rules)-max) + " more..."
	}
	return out
}

// ingressPorts mirrors formatPorts.
func ingressPorts(spec object) string {
	if len(spec.list("tls")) > 0 {
		return "80, 443"
	}
	return "80"
}

// ingressClassCells mirrors printIngressClass: the default class is marked, and the
// parameters print as Kind[.apiGroup]/name.
func ingressClassCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	name := o.name()
	if v, _ := o.annotation("ingressclass.kubernetes.io/is-default-class"); v == "true" {
		name += " (default)"
	}
	params := "<none>"
	if p := o.obj("spec", "parameters"); p != nil {
		params = p.str("kind")
		if g, ok := p.get("apiGroup").(string); ok {
			params += "." + g
		}
		params += "/" + p.str("name")
	}
	return []any{name, o.str("spec", "controller"), params, age(o, now)}, nil
}

// parentRef mirrors printIPAddress's parent: the group-resource in lower case, then the
// namespace if any, then the name; <none> without a parent.
func parentRef(ref object) string {
	if ref == nil {
		return "<none>"
	}
	gr := ref.str("resource")
	if g := ref.str("group"); g != "" {
		gr += "." + g
	}
	out := strings.ToLower(gr)
	if ns := ref.str("namespace"); ns != "" {
		out += "/" + ns
	}
	return out + "/" + ref.str("name")
}
