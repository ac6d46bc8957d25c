package authz

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_RequestAttributes checks point 1 against RequestInfoFactory's cases: verbs from
// the method and the path, namespaces, subresources, lists and watches, names pinned by a
// field selector, and non-resource paths.
func TestCh01_RequestAttributes(t *testing.T) {
	tests := []struct {
		method, url string
		want        Attributes
	}{
		{"GET", "/api/v1/namespaces/default/pods", Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods"}},
		{"GET", "/api/v1/namespaces/default/pods?watch=true", Attributes{Verb: "watch", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods"}},
		{"GET", "/api/v1/namespaces/default/pods?watch=false", Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods"}},
		{"GET", "/api/v1/watch/namespaces/default/pods/a", Attributes{Verb: "watch", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods", Name: "a"}},
		{"GET", "/api/v1/namespaces/default/pods/a/log", Attributes{Verb: "get", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods", Name: "a", Subresource: "log"}},
		{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb", Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Name: "web"}},
		{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Da%2Fb", Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "pods"}},
		{"POST", "/apis/apps/v1/namespaces/ns/deployments", Attributes{Verb: "create", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Namespace: "ns", Resource: "deployments"}},
		{"PUT", "/apis/apps/v1/namespaces/ns/deployments/d/scale", Attributes{Verb: "update", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Namespace: "ns", Resource: "deployments", Name: "d", Subresource: "scale"}},
		{"PATCH", "/api/v1/nodes/n1/status", Attributes{Verb: "patch", ResourceRequest: true, APIVersion: "v1", Resource: "nodes", Name: "n1", Subresource: "status"}},
		{"DELETE", "/api/v1/namespaces/ns/configmaps", Attributes{Verb: "deletecollection", ResourceRequest: true, APIVersion: "v1", Namespace: "ns", Resource: "configmaps"}},
		{"DELETE", "/api/v1/namespaces/ns/configmaps/c", Attributes{Verb: "delete", ResourceRequest: true, APIVersion: "v1", Namespace: "ns", Resource: "configmaps", Name: "c"}},
		{"GET", "/api/v1/namespaces", Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "namespaces"}},
		{"GET", "/api/v1/namespaces/ns", Attributes{Verb: "get", ResourceRequest: true, APIVersion: "v1", Namespace: "ns", Resource: "namespaces", Name: "ns"}},
		{"PUT", "/api/v1/namespaces/ns/finalize", Attributes{Verb: "update", ResourceRequest: true, APIVersion: "v1", Namespace: "ns", Resource: "namespaces", Name: "ns", Subresource: "finalize"}},
		{"GET", "/api/v1/proxy/namespaces/ns/pods/a/x", Attributes{Verb: "proxy", ResourceRequest: true, APIVersion: "v1", Namespace: "ns", Resource: "pods", Name: "a"}},
		{"GET", "/apis/apps/v1", Attributes{Verb: "get", Path: "/apis/apps/v1"}},
		{"GET", "/api", Attributes{Verb: "get", Path: "/api"}},
		{"GET", "/healthz", Attributes{Verb: "get", Path: "/healthz"}},
		{"POST", "/version", Attributes{Verb: "post", Path: "/version"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.url, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.url, http.NoBody)
			got := RequestAttributes(r, nil)
			if !tt.want.ResourceRequest || tt.want.Path == "" {
				tt.want.Path = r.URL.Path
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
