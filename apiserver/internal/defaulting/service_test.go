package defaulting

import "testing"

var serviceCases = []defaultCase{
	{
		name: "minimal ClusterIP", version: "v1", kind: "Service",
		in: `{"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`,
		want: `{"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","targetPort":80}],
			"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
			"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "named and zero target ports", version: "v1", kind: "Service",
		in: `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":443,"targetPort":0,"protocol":"UDP"},{"port":8080,"targetPort":""}]}}`,
		want: `{"spec":{"ports":[{"port":80,"targetPort":"http","protocol":"TCP"},{"port":443,"targetPort":443,"protocol":"UDP"},
			{"port":8080,"targetPort":8080,"protocol":"TCP"}],
			"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
			"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "NodePort", version: "v1", kind: "Service",
		in: `{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`,
		want: `{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080,"protocol":"TCP","targetPort":80}],
			"sessionAffinity":"None","externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster",
			"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "LoadBalancer with ingress status", version: "v1", kind: "Service",
		in: `{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local"},
			"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"},{"hostname":"lb.example.com"},{"ip":"5.6.7.8","ipMode":"Proxy"}]}}}`,
		want: `{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","sessionAffinity":"None",
			"internalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true,
			"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]},
			"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ipMode":"VIP"},{"hostname":"lb.example.com"},{"ip":"5.6.7.8","ipMode":"Proxy"}]}}}`,
	},
	{
		name: "ClusterIP with externalIPs is externally accessible", version: "v1", kind: "Service",
		in: `{"spec":{"externalIPs":["192.0.2.1"]}}`,
		want: `{"spec":{"externalIPs":["192.0.2.1"],"type":"ClusterIP","sessionAffinity":"None","externalTrafficPolicy":"Cluster",
			"internalTrafficPolicy":"Cluster","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "ClientIP affinity gets its timeout", version: "v1", kind: "Service",
		in: `{"spec":{"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{}}}}`,
		want: `{"spec":{"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":10800}},
			"type":"ClusterIP","internalTrafficPolicy":"Cluster","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "None affinity drops its config", version: "v1", kind: "Service",
		in: `{"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":5}}}}`,
		want: `{"spec":{"sessionAffinity":"None","type":"ClusterIP","internalTrafficPolicy":"Cluster",
			"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "requested clusterIP fills clusterIPs", version: "v1", kind: "Service",
		in: `{"spec":{"clusterIP":"10.96.0.10","selector":{"a":"b"}}}`,
		want: `{"spec":{"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"selector":{"a":"b"},"type":"ClusterIP",
			"sessionAffinity":"None","internalTrafficPolicy":"Cluster","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "IPv6 clusterIP gives its family", version: "v1", kind: "Service",
		in: `{"spec":{"clusterIPs":["fd00::10"],"clusterIP":"fd00::10"}}`,
		want: `{"spec":{"clusterIP":"fd00::10","clusterIPs":["fd00::10"],"type":"ClusterIP",
			"sessionAffinity":"None","internalTrafficPolicy":"Cluster","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv6"]}}`,
	},
	{
		name: "headless with selector is single stack", version: "v1", kind: "Service",
		in: `{"spec":{"clusterIP":"None","selector":{"app":"db"}}}`,
		want: `{"spec":{"clusterIP":"None","clusterIPs":["None"],"selector":{"app":"db"},"type":"ClusterIP",
			"sessionAffinity":"None","internalTrafficPolicy":"Cluster","ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}}`,
	},
	{
		name: "headless without selector asks for both families", version: "v1", kind: "Service",
		in: `{"spec":{"clusterIP":"None"}}`,
		want: `{"spec":{"clusterIP":"None","clusterIPs":["None"],"type":"ClusterIP","sessionAffinity":"None",
			"internalTrafficPolicy":"Cluster","ipFamilyPolicy":"RequireDualStack","ipFamilies":["IPv4","IPv6"]}}`,
	},
	{
		name: "ExternalName gets no IP fields", version: "v1", kind: "Service",
		in:   `{"spec":{"type":"ExternalName","externalName":"db.example.com"}}`,
		want: `{"spec":{"type":"ExternalName","externalName":"db.example.com","sessionAffinity":"None"}}`,
	},
}

// TestCh01_Defaulting_Service covers SetDefaults_Service and the IP family fields.
func TestCh01_Defaulting_Service(t *testing.T) { runCases(t, serviceCases) }
