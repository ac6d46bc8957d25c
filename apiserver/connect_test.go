package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// connectWorld creates what the connect subresources look at: nodes with and without an
// address, pods without a node, on a missing node, on a node without an address and on one
// with an address, pods with and without IPs, and services with and without endpoints.
func connectWorld(t *testing.T, c *client) {
	t.Helper()
	for _, step := range []struct{ method, path, body, contentType string }{
		{http.MethodPost, "/api/v1/nodes", `{"metadata":{"name":"n1"}}`, ""},
		{http.MethodPost, "/api/v1/nodes", `{"metadata":{"name":"n2"}}`, ""},
		{http.MethodPatch, "/api/v1/nodes/n2/status", `{"status":{"addresses":[{"type":"InternalIP","address":"10.255.255.1"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":10250}}}}`, "application/merge-patch+json"},
		{http.MethodPost, "/api/v1/nodes", `{"metadata":{"name":"n3"}}`, ""},
		{http.MethodPatch, "/api/v1/nodes/n3/status", `{"status":{"addresses":[{"type":"Foo","address":"1.2.3.4"}]}}`, "application/merge-patch+json"},
		{http.MethodPost, "/api/v1/nodes", `{"metadata":{"name":"n4"}}`, ""},
		{http.MethodPatch, "/api/v1/nodes/n4/status", `{"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"}]}}`, "application/merge-patch+json"},
		{http.MethodPost, podsPath, `{"metadata":{"name":"nonode"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, ""},
		{http.MethodPost, podsPath, `{"metadata":{"name":"ghostnode"},"spec":{"nodeName":"ghost","containers":[{"name":"c","image":"busybox"}]}}`, ""},
		{http.MethodPost, podsPath, `{"metadata":{"name":"noaddr"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"busybox"}]}}`, ""},
		{http.MethodPost, podsPath, `{"metadata":{"name":"addr"},"spec":{"nodeName":"n2","containers":[{"name":"c","image":"busybox"},{"name":"d","image":"busybox"}]}}`, ""},
		{http.MethodPost, podsPath, `{"metadata":{"name":"withip"},"spec":{"nodeName":"n2","containers":[{"name":"c","image":"busybox","ports":[{"containerPort":8080}]}]}}`, ""},
		{http.MethodPatch, podsPath + "/withip/status", `{"status":{"podIP":"10.244.0.5","podIPs":[{"ip":"10.244.0.5"}]}}`, "application/merge-patch+json"},
		{http.MethodPost, podsPath, `{"metadata":{"name":"loopip"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, ""},
		{http.MethodPatch, podsPath + "/loopip/status", `{"status":{"podIP":"127.0.0.1","podIPs":[{"ip":"127.0.0.1"}]}}`, "application/merge-patch+json"},
		{http.MethodPost, svcPath, `{"metadata":{"name":"s1"},"spec":{"ports":[{"port":80}],"selector":{"a":"b"}}}`, ""},
		{http.MethodPost, svcPath, `{"metadata":{"name":"noref"},"spec":{"ports":[{"name":"https","port":443}]}}`, ""},
		{http.MethodPost, epPath, `{"metadata":{"name":"noref"},"subsets":[{"addresses":[{"ip":"192.0.2.2"}],"ports":[{"name":"https","port":6443}]}]}`, ""},
		{http.MethodPost, svcPath, `{"metadata":{"name":"web"},"spec":{"ports":[{"name":"http","port":80}]}}`, ""},
		{http.MethodPost, epPath, `{"metadata":{"name":"web"},"subsets":[{"addresses":[{"ip":"10.244.0.5","targetRef":{"kind":"Pod","namespace":"default","name":"withip"}}],"ports":[{"name":"http","port":8080}]}]}`, ""},
		{http.MethodPost, svcPath, `{"metadata":{"name":"empty"},"spec":{"ports":[{"port":80}]}}`, ""},
		{http.MethodPost, epPath, `{"metadata":{"name":"empty"}}`, ""},
	} {
		var r response
		if step.contentType != "" {
			r = c.do(step.method, step.path, step.body, "Content-Type", step.contentType)
		} else {
			r = c.do(step.method, step.path, step.body)
		}
		require.Less(t, r.code, 300, "%s %s: %s", step.method, step.path, r.body)
	}
}

const (
	podsPath = "/api/v1/namespaces/default/pods"
	svcPath  = "/api/v1/namespaces/default/services"
	epPath   = "/api/v1/namespaces/default/endpoints"
)

// TestCh01_ConnectSubresources pins the connect subresources against kube-apiserver
// v1.36.3's answers in a cluster without kubelets (asked of the reference where it can
// answer: everything up to the connection it would make; the refused connection is what
// a node whose kubelet port is closed answers).
func TestCh01_ConnectSubresources(t *testing.T) {
	_, c := newServer(t, Options{})
	connectWorld(t, c)
	const upgrade = "upgrade"
	tests := []struct {
		method, path string
		header       string // "upgrade": Connection: Upgrade
		code         int
		reason       string
		msg          string
	}{
		// pods/log
		{"GET", podsPath + "/nonode/log", "", 204, "", ""},
		{"GET", podsPath + "/nonode/log?previous=true", "", 204, "", ""},
		{"GET", podsPath + "/ghostnode/log", "", 404, "NotFound", `pods "ghost" not found`},
		{"GET", podsPath + "/noaddr/log", "", 500, "", "no preferred addresses found; known addresses: []"},
		{"GET", podsPath + "/addr/log", "", 400, "BadRequest", "a container name must be specified for pod addr, choose one of: [c d]"},
		{"GET", podsPath + "/addr/log?container=c&follow=true&tailLines=5", "", 500, "",
			`Get "https://10.255.255.1:10250/containerLogs/default/addr/c?follow=true&tailLines=5": dial tcp 10.255.255.1:10250: connect: connection refused`},
		{"GET", podsPath + "/nope/log", "", 404, "NotFound", `pods "nope" not found`},
		{"GET", podsPath + "/nonode/log?container=zz", "", 400, "BadRequest", "container zz is not valid for pod nonode"},
		{"GET", podsPath + "/nonode/log?tailLines=abc", "", 400, "BadRequest", `strconv.ParseInt: parsing "abc": invalid syntax`},
		{"GET", podsPath + "/nonode/log?tailLines=-1", "", 422, "Invalid", `PodLogOptions "nonode" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0`},
		{"GET", podsPath + "/nonode/log?sinceSeconds=0", "", 422, "Invalid", `PodLogOptions "nonode" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0`},
		{"GET", podsPath + "/nonode/log?follow=1&limitBytes=0", "", 422, "Invalid", `PodLogOptions "nonode" is invalid: limitBytes: Invalid value: 0: must be greater than 0`},
		{"GET", podsPath + "/nonode/log?stream=Stdout", "", 422, "Invalid", `PodLogOptions "nonode" is invalid: stream: Forbidden: may not be specified`},
		{"GET", podsPath + "/nonode/log?sinceSeconds=1&sinceTime=2026-01-01T00:00:00Z", "", 422, "Invalid",
			"PodLogOptions \"nonode\" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified"},
		// pods/exec, attach, portforward
		{"POST", podsPath + "/nonode/exec?command=ls&stdout=1", "", 400, "BadRequest", "pod nonode does not have a host assigned"},
		{"GET", podsPath + "/nonode/exec?command=ls&stdout=1", "", 400, "BadRequest", "pod nonode does not have a host assigned"},
		{"POST", podsPath + "/nonode/exec?command=ls&stdout=1&container=zz", "", 400, "BadRequest", "container zz is not valid for pod nonode"},
		{"POST", podsPath + "/nonode/attach?stdout=1", "", 400, "BadRequest", "pod nonode does not have a host assigned"},
		{"POST", podsPath + "/nonode/attach?stdin=1&container=zz", "", 400, "BadRequest", "container zz is not valid for pod nonode"},
		{"POST", podsPath + "/nonode/portforward?ports=80", "", 400, "BadRequest", "pod nonode does not have a host assigned"},
		{"POST", podsPath + "/nonode/portforward?ports=abc", "", 400, "BadRequest", `cannot convert to []int32: strconv.ParseUint: parsing "abc": invalid syntax`},
		{"POST", podsPath + "/ghostnode/exec?command=ls&stdout=1", "", 404, "NotFound", `pods "ghost" not found`},
		{"POST", podsPath + "/ghostnode/portforward?ports=80", "", 404, "NotFound", `pods "ghost" not found`},
		{"POST", podsPath + "/noaddr/attach?stdout=1", "", 500, "", "no preferred addresses found; known addresses: []"},
		{"POST", podsPath + "/addr/exec?command=ls&stdout=1", "", 400, "BadRequest", "a container name must be specified for pod addr, choose one of: [c d]"},
		{"POST", podsPath + "/addr/exec?command=ls&stdout=1&container=c", "", 400, "BadRequest", "Upgrade request required"},
		{"POST", podsPath + "/addr/portforward?ports=80", "", 400, "BadRequest", "Upgrade request required"},
		{"POST", podsPath + "/addr/exec?command=ls&stdout=1&container=c", upgrade, 500, "", "error dialing backend: dial tcp 10.255.255.1:10250: connect: connection refused"},
		{"POST", podsPath + "/nope/exec?command=ls&stdout=1", "", 404, "NotFound", `pods "nope" not found`},
		{"PUT", podsPath + "/nonode/exec", "", 405, "MethodNotAllowed", "the server does not allow this method on the requested resource"},
		// pods/proxy
		{"GET", podsPath + "/nonode/proxy", "", 400, "BadRequest", "address not allowed"},
		{"GET", podsPath + "/nonode/proxy/foo/bar", "", 400, "BadRequest", "address not allowed"},
		{"GET", podsPath + "/loopip/proxy/", "", 400, "BadRequest", "address not allowed"},
		{"GET", podsPath + "/a:b:c:d/proxy/", "", 400, "BadRequest", `invalid pod request "a:b:c:d"`},
		{"GET", podsPath + "/nope/proxy", "", 404, "NotFound", `pods "nope" not found`},
		{"GET", podsPath + "/withip/proxy/healthz", "", 503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.244.0.5:8080: connect: connection refused"},
		{"DELETE", podsPath + "/withip:9090/proxy/x", "", 503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.244.0.5:9090: connect: connection refused"},
		// nodes/proxy
		{"GET", "/api/v1/nodes/n1/proxy/healthz", "", 500, "", "no preferred addresses found; known addresses: []"},
		{"GET", "/api/v1/nodes/n3/proxy/healthz", "", 500, "", "no preferred addresses found; known addresses: [{Foo 1.2.3.4}]"},
		{"GET", "/api/v1/nodes/n4/proxy/healthz", "", 400, "BadRequest", "address not allowed"},
		{"GET", "/api/v1/nodes/ghost/proxy/healthz", "", 404, "NotFound", `nodes "ghost" not found`},
		{"GET", "/api/v1/nodes/a:b:c:d/proxy/x", "", 400, "BadRequest", `invalid node request "a:b:c:d"`},
		{"GET", "/api/v1/nodes/n2/proxy/healthz", "", 503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.255.255.1:10250: connect: connection refused"},
		{"GET", "/api/v1/nodes/n2:1234/proxy/x", "", 503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.255.255.1:1234: connect: connection refused"},
		// services/proxy
		{"GET", svcPath + "/s1/proxy/", "", 404, "NotFound", `services "s1" not found`},
		{"GET", svcPath + "/s1:80/proxy/x", "", 404, "NotFound", `services "s1" not found`},
		{"GET", svcPath + "/s1:81/proxy/x", "", 503, "ServiceUnavailable", `no service port 81 found for service "s1"`},
		{"GET", svcPath + "/nope/proxy/", "", 404, "NotFound", `services "nope" not found`},
		{"GET", svcPath + "/nope:80/proxy/", "", 404, "NotFound", `services "nope" not found`},
		{"GET", svcPath + "/noref/proxy/", "", 503, "ServiceUnavailable", `no endpoints available for service "noref"`},
		{"GET", svcPath + "/https:noref:443/proxy/", "", 503, "ServiceUnavailable", `no endpoints available for service "https:noref:443"`},
		{"GET", svcPath + "/empty/proxy/", "", 503, "ServiceUnavailable", `no endpoints available for service "empty"`},
		{"GET", svcPath + "/a:b:c:d/proxy/", "", 400, "BadRequest", `invalid service request "a:b:c:d"`},
		{"GET", svcPath + "/web:http/proxy/", "", 503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.244.0.5:8080: connect: connection refused"},
		{"POST", svcPath + "/web:80/proxy/", upgrade, 500, "", "error dialing backend: dial tcp 10.244.0.5:8080: connect: connection refused"},
	}
	for _, tc := range tests {
		var headers []string
		if tc.header == upgrade {
			headers = []string{"Connection", "Upgrade", "Upgrade", "SPDY/3.1"}
		}
		r := c.do(tc.method, tc.path, nil, headers...)
		require.Equal(t, tc.code, r.code, "%s %s: %s", tc.method, tc.path, r.body)
		if tc.code == http.StatusNoContent {
			assert.Empty(t, r.body, tc.path)
			continue
		}
		st := r.status(t)
		assert.Equal(t, tc.reason, string(st.Reason), "%s %s", tc.method, tc.path)
		assert.Equal(t, tc.msg, st.Message, "%s %s", tc.method, tc.path)
	}
}
