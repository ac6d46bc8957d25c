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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Class", "string", "The IngressClass the ingress asks for, or <none>."),
			column("Hosts", "string", "The hosts the ingress's rules match, or * for any."),
			column("Address", "string", "The addresses the load balancer in front of the ingress has."),
			column("Ports", "string", "The ports the ingress opens: 80, and 443 with TLS."),
			ageColumn(),
		},
		cells: ingressCells,
	}

	ingressClassPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Controller", "string", "The controller that implements ingresses of this class."),
			column("Parameters", "string", "The resource holding the controller's parameters for this class, as Kind.group/name."),
			ageColumn(),
		},
		cells: ingressClassCells,
	}

	networkPolicyPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Pod-Selector", "string", "The label query over the pods the policy applies to."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("ParentRef", "string", "The object the address is allocated to, as resource[.group]/[namespace/]name."),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{o.name(), parentRef(o.obj("spec", "parentRef")), age(o, now)}, nil
		},
	}

	serviceCIDRPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("CIDRs", "string", "The ranges the cluster IPs of services are taken from."),
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
