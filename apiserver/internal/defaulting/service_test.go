package defaulting

import "testing"

var serviceCases = []defaultCase{
	{
		name: "minimal ClusterIP", version: "v1", kind: "Service",
		in: `{"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}`,
		want: `{"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","targetPort":80}],
			"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "named and zero target ports", version: "v1", kind: "Service",
		in: `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":443,"targetPort":0,"protocol":"UDP"},{"port":8080,"targetPort":""}]}}`,
		want: `{"spec":{"ports":[{"port":80,"targetPort":"http","protocol":"TCP"},{"port":443,"targetPort":443,"protocol":"UDP"},
			{"port":8080,"targetPort":8080,"protocol":"TCP"}],
			"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "NodePort", version: "v1", kind: "Service",
		in: `{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`,
		want: `{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080,"protocol":"TCP","targetPort":80}],
			"sessionAffinity":"None","externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "LoadBalancer with ingress status", version: "v1", kind: "Service",
		in: `{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local"},
			"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"},{"hostname":"lb.example.com"},{"ip":"5.6.7.8","ipMode":"Proxy"}]}}}`,
		want: `{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","sessionAffinity":"None",
			"internalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true},
			"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ipMode":"VIP"},{"hostname":"lb.example.com"},{"ip":"5.6.7.8","ipMode":"Proxy"}]}}}`,
	},
	{
		name: "ClusterIP with externalIPs is externally accessible", version: "v1", kind: "Service",
		in: `{"spec":{"externalIPs":["192.0.2.1"]}}`,
		want: `{"spec":{"externalIPs":["192.0.2.1"],"type":"ClusterIP","sessionAffinity":"None","externalTrafficPolicy":"Cluster",
			"internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "ClientIP affinity gets its timeout", version: "v1", kind: "Service",
		in: `{"spec":{"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{}}}}`,
		want: `{"spec":{"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":10800}},
			"type":"ClusterIP","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "None affinity drops its config", version: "v1", kind: "Service",
		in:   `{"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":5}}}}`,
		want: `{"spec":{"sessionAffinity":"None","type":"ClusterIP","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "the IP fields are the REST storage's", version: "v1", kind: "Service",
		in: `{"spec":{"clusterIP":"None","selector":{"app":"db"}}}`,
		want: `{"spec":{"clusterIP":"None","selector":{"app":"db"},"type":"ClusterIP",
			"sessionAffinity":"None","internalTrafficPolicy":"Cluster"}}`,
	},
	{
		name: "ExternalName gets no IP fields", version: "v1", kind: "Service",
		in:   `{"spec":{"type":"ExternalName","externalName":"db.example.com"}}`,
		want: `{"spec":{"type":"ExternalName","externalName":"db.example.com","sessionAffinity":"None"}}`,
	},
}

// TestCh01_Defaulting_Service covers SetDefaults_Service; the IP family fields are not
// defaults (registry/core fills them).
func TestCh01_Defaulting_Service(t *testing.T) { runCases(t, serviceCases) }
