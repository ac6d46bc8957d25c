package printers

import "testing"

// TestCh01_Printers_Service checks printService: each service type's EXTERNAL-IP, the
// port list with node ports, and the selector.
func TestCh01_Printers_Service(t *testing.T) {
	assertColumns(t, servicePrinter,
		"Name|string|name|0", "Type|string||0", "Cluster-IP|string||0", "External-IP|string||0",
		"Port(s)|string||0", "Age|string||0", "Selector|string||1")
	runCellCases(t, servicePrinter, []cellCase{
		{
			name: "cluster IP with two ports",
			json: withMeta("web", `,"spec":{"type":"ClusterIP","clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10","fd00::10"],
				"ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080},{"name":"dns","port":53,"protocol":"UDP"}],
				"selector":{"tier":"fe","app":"web"}}`),
			want: []any{"web", "ClusterIP", "10.96.0.10", "<none>", "80/TCP,53/UDP", "5m", "app=web,tier=fe"},
		},
		{
			name: "defaults: no type, no protocol, clusterIP without clusterIPs",
			json: withMeta("plain", `,"spec":{"clusterIP":"10.96.0.11","ports":[{"port":80}]}`),
			want: []any{"plain", "ClusterIP", "10.96.0.11", "<none>", "80/TCP", "5m", "<none>"},
		},
		{
			name: "nothing allocated and no ports",
			json: withMeta("bare", `,"spec":{}`),
			want: []any{"bare", "ClusterIP", "<none>", "<none>", "<none>", "5m", "<none>"},
		},
		{
			name: "headless",
			json: withMeta("db", `,"spec":{"clusterIP":"None","clusterIPs":["None"],"ports":[{"port":5432,"protocol":"TCP"}],"selector":{"app":"db"}}`),
			want: []any{"db", "ClusterIP", "None", "<none>", "5432/TCP", "5m", "app=db"},
		},
		{
			name: "node port with external IPs",
			json: withMeta("np", `,"spec":{"type":"NodePort","clusterIPs":["10.96.0.12"],"externalIPs":["198.51.100.1","198.51.100.2"],
				"ports":[{"port":80,"nodePort":30080,"protocol":"TCP"},{"port":443,"nodePort":30443,"protocol":"TCP"}]}`),
			want: []any{"np", "NodePort", "10.96.0.12", "198.51.100.1,198.51.100.2", "80:30080/TCP,443:30443/TCP", "5m", "<none>"},
		},
		{
			name: "load balancer not yet provisioned",
			json: withMeta("lb", `,"spec":{"type":"LoadBalancer","clusterIPs":["10.96.0.13"],"ports":[{"port":443,"nodePort":31443,"protocol":"TCP"}]}`),
			want: []any{"lb", "LoadBalancer", "10.96.0.13", "<pending>", "443:31443/TCP", "5m", "<none>"},
		},
		{
			name: "load balancer ingress, sorted and deduplicated, then external IPs",
			json: withMeta("lb2", `,"spec":{"type":"LoadBalancer","clusterIPs":["10.96.0.14"],"externalIPs":["198.51.100.9"],"ports":[{"port":80,"protocol":"TCP"}]},
				"status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.7"},{"hostname":"lb.example.com"},{"ip":"203.0.113.7"},{"ip":"203.0.113.1","hostname":"ignored"}]}}`),
			want: []any{"lb2", "LoadBalancer", "10.96.0.14", "203.0.113.1,203.0.113.7,lb.example.com,198.51.100.9", "80/TCP", "5m", "<none>"},
		},
		{
			name: "external name",
			json: withMeta("ext", `,"spec":{"type":"ExternalName","externalName":"db.example.com"}`),
			want: []any{"ext", "ExternalName", "<none>", "db.example.com", "<none>", "5m", "<none>"},
		},
		{
			name: "unknown type",
			json: withMeta("odd", `,"spec":{"type":"Other"}`),
			want: []any{"odd", "Other", "<none>", "<unknown>", "<none>", "5m", "<none>"},
		},
	})
}

// TestCh01_Printers_Endpoints checks formatEndpoints: ip:port pairs of every subset, bare
// IPs for a subset without ports, at most three, then "+ N more...".
func TestCh01_Printers_Endpoints(t *testing.T) {
	assertColumns(t, endpointsPrinter, "Name|string|name|0", "Endpoints|string||0", "Age|string||0")
	runCellCases(t, endpointsPrinter, []cellCase{
		{name: "no subsets", json: withMeta("none", ""), want: []any{"none", "<none>", "5m"}},
		{
			name: "two addresses, one port",
			json: withMeta("web", `,"subsets":[{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"port":8080,"protocol":"TCP"}]}]`),
			want: []any{"web", "10.0.0.1:8080,10.0.0.2:8080", "5m"},
		},
		{
			name: "two ports times two addresses is one more than three",
			json: withMeta("web2", `,"subsets":[{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"name":"a","port":80},{"name":"b","port":443}]}]`),
			want: []any{"web2", "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...", "5m"},
		},
		{
			name: "headless subset without ports, and IPv6",
			json: withMeta("h", `,"subsets":[{"addresses":[{"ip":"10.0.0.3"}]},{"addresses":[{"ip":"fd00::1"}],"ports":[{"port":80}]}]`),
			want: []any{"h", "10.0.0.3,[fd00::1]:80", "5m"},
		},
		{
			name: "a subset with only not-ready addresses",
			json: withMeta("nr", `,"subsets":[{"notReadyAddresses":[{"ip":"10.0.0.4"}],"ports":[{"port":80}]}]`),
			want: []any{"nr", "", "5m"},
		},
	})
}
