package printers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCh01_Printers_Ingress checks printIngress: the class or <none>, the hosts (three, then
// how many rules are left), the sorted load-balancer addresses, and 443 with TLS.
func TestCh01_Printers_Ingress(t *testing.T) {
	assertColumns(t, ingressPrinter,
		"Name|string|name|0", "Class|string||0", "Hosts|string||0", "Address|string||0", "Ports|string||0", "Age|string||0")
	runCellCases(t, ingressPrinter, []cellCase{
		{
			name: "tls and a class",
			json: withMeta("shop", `,"spec":{"ingressClassName":"nginx","tls":[{"hosts":["shop.example.com"]}],
				"rules":[{"host":"shop.example.com"}]},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.9"},{"hostname":"lb.example.com"},{"ip":"192.0.2.1"}]}}`),
			want: []any{"shop", "nginx", "shop.example.com", "192.0.2.1,192.0.2.9,lb.example.com", "80, 443", "5m"},
		},
		{
			name: "default backend only",
			json: withMeta("all", `,"spec":{"defaultBackend":{"service":{"name":"x","port":{"number":80}}}},"status":{"loadBalancer":{}}`),
			want: []any{"all", "<none>", "*", "", "80", "5m"},
		},
		{
			name: "a rule without host does not count as one",
			json: withMeta("gap", `,"spec":{"rules":[{"host":"a"},{},{"host":"b"},{"host":"c"}]}`),
			want: []any{"gap", "<none>", "a,b,c", "", "80", "5m"},
		},
		{
			name: "more rules than three hosts",
			json: withMeta("many", `,"spec":{"ingressClassName":"","rules":[{"host":"a"},{"host":"b"},{},{"host":"c"},{"host":"d"},{}]}`),
			want: []any{"many", "", "a,b,c + 3 more...", "", "80", "5m"},
		},
	})
}

// TestCh01_Printers_IngressClass checks printIngressClass: the default class is marked and
// the parameters print as Kind[.group]/name.
func TestCh01_Printers_IngressClass(t *testing.T) {
	assertColumns(t, ingressClassPrinter, "Name|string|name|0", "Controller|string||0", "Parameters|string||0", "Age|string||0")
	runCellCases(t, ingressClassPrinter, []cellCase{
		{
			name: "default with grouped parameters",
			json: `{"metadata":{"name":"nginx","creationTimestamp":"` + created + `","annotations":{"ingressclass.kubernetes.io/is-default-class":"true"}},
				"spec":{"controller":"k8s.io/ingress-nginx","parameters":{"apiGroup":"k8s.example.com","kind":"IngressParameters","name":"external-lb"}}}`,
			want: []any{"nginx (default)", "k8s.io/ingress-nginx", "IngressParameters.k8s.example.com/external-lb", "5m"},
		},
		{
			name: "core parameters",
			json: withMeta("c", `,"spec":{"controller":"x","parameters":{"kind":"ConfigMap","name":"cfg","scope":"Namespace","namespace":"ns"}}`),
			want: []any{"c", "x", "ConfigMap/cfg", "5m"},
		},
		{name: "no parameters", json: withMeta("n", `,"spec":{"controller":"x"}`), want: []any{"n", "x", "<none>", "5m"}},
	})
}

// TestCh01_Printers_NetworkPolicy checks printNetworkPolicy: the pod selector, <none> when
// it selects every pod.
func TestCh01_Printers_NetworkPolicy(t *testing.T) {
	assertColumns(t, networkPolicyPrinter, "Name|string|name|0", "Pod-Selector|string||0", "Age|string||0")
	runCellCases(t, networkPolicyPrinter, []cellCase{
		{name: "labels", json: withMeta("api", `,"spec":{"podSelector":{"matchLabels":{"app":"api"}}}`), want: []any{"api", "app=api", "5m"}},
		{name: "every pod", json: withMeta("deny", `,"spec":{"podSelector":{}}`), want: []any{"deny", "<none>", "5m"}},
	})
}

// TestCh01_Printers_IPAddress checks printIPAddress, whose rows carry the age after the two
// columns, and its parent as resource[.group]/[namespace/]name.
func TestCh01_Printers_IPAddress(t *testing.T) {
	assertColumns(t, ipAddressPrinter, "Name|string|name|0", "ParentRef|string||0")
	for _, tc := range []struct {
		name, json string
		want       []any
	}{
		{"service", withMeta("10.96.0.1", `,"spec":{"parentRef":{"resource":"services","namespace":"default","name":"kubernetes"}}`),
			[]any{"10.96.0.1", "services/default/kubernetes", "5m"}},
		{"grouped, cluster-scoped", withMeta("10.0.0.7", `,"spec":{"parentRef":{"group":"Gateway.Networking.K8s.io","resource":"Gateways","name":"gw"}}`),
			[]any{"10.0.0.7", "gateways.gateway.networking.k8s.io/gw", "5m"}},
		{"no parent", withMeta("fd00::1", `,"spec":{}`), []any{"fd00::1", "<none>", "5m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cells, conds := ipAddressPrinter.cells(mustTree(t, tc.json), testNow)
			if diff := cmp.Diff(tc.want, cells); diff != "" {
				t.Errorf("cells (-want +got):\n%s", diff)
			}
			if conds != nil {
				t.Errorf("conditions %v, want none", conds)
			}
		})
	}
}

// TestCh01_Printers_ServiceCIDR checks printServiceCIDR: the ranges, comma-separated.
func TestCh01_Printers_ServiceCIDR(t *testing.T) {
	assertColumns(t, serviceCIDRPrinter, "Name|string|name|0", "CIDRs|string||0", "Age|string||0")
	runCellCases(t, serviceCIDRPrinter, []cellCase{
		{name: "dual stack", json: withMeta("kubernetes", `,"spec":{"cidrs":["10.96.0.0/12","fd00:10:96::/112"]}`),
			want: []any{"kubernetes", "10.96.0.0/12,fd00:10:96::/112", "5m"}},
	})
}

// TestCh01_Printers_RuntimeClass checks printRuntimeClass.
func TestCh01_Printers_RuntimeClass(t *testing.T) {
	assertColumns(t, runtimeClassPrinter, "Name|string|name|0", "Handler|string||0", "Age|string||0")
	runCellCases(t, runtimeClassPrinter, []cellCase{
		{name: "gvisor", json: withMeta("gvisor", `,"handler":"runsc"`), want: []any{"gvisor", "runsc", "5m"}},
	})
}
