package apiserver

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// names lists the names of a collection through the Go API.
func names(t *testing.T, s *Server, resource, ns string) []string {
	t.Helper()
	l, err := s.List(context.Background(), resource, ns, api.ListOptions{})
	require.NoError(t, err)
	items, err := api.ExtractList(l)
	require.NoError(t, err)
	var out []string
	for _, it := range items {
		m, err := api.Accessor(it)
		require.NoError(t, err)
		name := m.GetName()
		if ns == "" && m.GetNamespace() != "" {
			name = m.GetNamespace() + "/" + name
		}
		out = append(out, name)
	}
	return out
}

// TestCh01_BootstrapObjects pins what a fresh kube-apiserver v1.36.3 holds right after
// start (kubectl get all,ns,endpoints,endpointslices,configmaps,leases -A against the
// reference), and that Bootstrap is off by default.
func TestCh01_BootstrapObjects(t *testing.T) {
	plain := New(Options{})
	t.Cleanup(plain.Close)
	assert.Equal(t, []string{"default", "kube-public", "kube-system"}, names(t, plain, "namespaces", ""))
	assert.Empty(t, names(t, plain, "services", ""))

	s := New(Options{Bootstrap: true})
	t.Cleanup(s.Close)
	tests := []struct {
		resource string
		want     []string
	}{
		{"namespaces", []string{"default", "kube-node-lease", "kube-public", "kube-system"}},
		{"services", []string{"default/kubernetes"}},
		{"endpoints", []string{"default/kubernetes"}},
		{"endpointslices.discovery.k8s.io", []string{"default/kubernetes"}},
		{"configmaps", []string{"kube-system/kube-apiserver-legacy-service-account-token-tracking"}},
		{"leases.coordination.k8s.io", []string{"kube-system/" + apiserverIdentity()}},
		{"pods", nil},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, names(t, s, tc.resource, ""), tc.resource)
	}

	ip := hostAddress()
	get := func(resource, ns, name string) map[string]any {
		obj, err := s.Get(context.Background(), resource, ns, name)
		require.NoError(t, err)
		data, err := jsonOfObject(obj)
		require.NoError(t, err)
		delete(data, "metadata")
		return data
	}
	svc, err := s.Get(context.Background(), "services", "default", "kubernetes")
	require.NoError(t, err)
	m, _ := api.Accessor(svc)
	assert.Equal(t, map[string]string{"component": "apiserver", "provider": "kubernetes"}, m.GetLabels())
	assert.Empty(t, cmp.Diff(jsonTree(t, `{"apiVersion":"v1","kind":"Service","spec":{"clusterIP":"10.96.0.1","clusterIPs":["10.96.0.1"],
		"internalTrafficPolicy":"Cluster","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
		"ports":[{"name":"https","port":443,"protocol":"TCP","targetPort":6443}],"sessionAffinity":"None","type":"ClusterIP"},
		"status":{"loadBalancer":{}}}`), get("services", "default", "kubernetes")))
	assert.Empty(t, cmp.Diff(jsonTree(t, `{"apiVersion":"v1","kind":"Endpoints","subsets":[{"addresses":[{"ip":"`+ip+`"}],
		"ports":[{"name":"https","port":6443,"protocol":"TCP"}]}]}`), get("endpoints", "default", "kubernetes")))
	assert.Empty(t, cmp.Diff(jsonTree(t, `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","addressType":"IPv4",
		"endpoints":[{"addresses":["`+ip+`"],"conditions":{"ready":true}}],"ports":[{"name":"https","port":6443,"protocol":"TCP"}]}`),
		get("endpointslices.discovery.k8s.io", "default", "kubernetes")))
	cm := get("configmaps", "kube-system", "kube-apiserver-legacy-service-account-token-tracking")
	assert.Regexp(t, `^\d{4}-\d\d-\d\d$`, cm["data"].(map[string]any)["since"])
}

// jsonOfObject is an object's JSON tree.
func jsonOfObject(obj api.Object) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

// TestCh01_BootstrapAdvertisesItsPort: once the server listens, the kubernetes Service
// targets its port and the endpoints and the identity lease name it, as the endpoint
// reconciler resets them.
func TestCh01_BootstrapAdvertisesItsPort(t *testing.T) {
	s, c := newServer(t, Options{Bootstrap: true})
	_, portText, err := net.SplitHostPort(s.URL()[len("http://"):])
	require.NoError(t, err)
	port, _ := strconv.Atoi(portText)
	var svc struct {
		Spec struct{ Ports []struct{ TargetPort int } }
	}
	c.get("/api/v1/namespaces/default/services/kubernetes").decode(t, &svc)
	assert.Equal(t, port, svc.Spec.Ports[0].TargetPort)
	var ep struct {
		Subsets []struct{ Ports []struct{ Port int } }
	}
	c.get("/api/v1/namespaces/default/endpoints/kubernetes").decode(t, &ep)
	assert.Equal(t, port, ep.Subsets[0].Ports[0].Port)
	var slice struct{ Ports []struct{ Port int } }
	c.get("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes").decode(t, &slice)
	assert.Equal(t, port, slice.Ports[0].Port)
	var lease struct {
		Metadata struct{ Annotations map[string]string }
	}
	r := c.get("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/" + apiserverIdentity())
	require.Equal(t, http.StatusOK, r.code)
	r.decode(t, &lease)
	assert.Equal(t, net.JoinHostPort(hostAddress(), portText), lease.Metadata.Annotations["kubernetes.io/peer-advertise-address"])
}

// TestCh01_BootstrapIdentity pins the APIServerID derivation: the reference, run on a host
// called "vm", named its identity lease apiserver-wlv32tlttr4jl3gtroqexyxapa.
func TestCh01_BootstrapIdentity(t *testing.T) {
	assert.Equal(t, "apiserver-wlv32tlttr4jl3gtroqexyxapa", apiserverIdentityOf("vm"))
	assert.NotEqual(t, apiserverIdentityOf("vm"), apiserverIdentityOf("vm2"))
}
