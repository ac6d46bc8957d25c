package kubectl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// tableRows returns kubectl's table without its header and its last (AGE) column, each row's
// cells joined by single spaces.
func tableRows(out string) []string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rows []string
	for _, l := range lines[1:] {
		f := fields(l)
		rows = append(rows, strings.Join(f[:len(f)-1], " "))
	}
	return rows
}

// TestCh01_Kubectl_CreateIngress checks `kubectl create ingress`, which posts protobuf, and
// what `kubectl get ingress` prints of the result: the columns of kube-apiserver v1.36.3's
// printer, with the values the real server prints for the same commands.
func TestCh01_Kubectl_CreateIngress(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"create", "ingress", "simple", "--rule=foo.com/bar=svc1:8080,tls=my-cert", "--class=default"},
			"ingress.networking.k8s.io/simple created\n"},
		{[]string{"create", "ingress", "catch-all", "--class=otheringress", "--rule=/path=svc:port"},
			"ingress.networking.k8s.io/catch-all created\n"},
		{[]string{"create", "ingress", "annotated", "--class=default", "--rule=foo.com/bar=svc:port", "--annotation", "ingress.annotation1=foo"},
			"ingress.networking.k8s.io/annotated created\n"},
		{[]string{"create", "ingress", "ingdefault", "--class=default", "--default-backend=defaultsvc:http", "--rule=foo.com/*=svc:8080,tls=secret1"},
			"ingress.networking.k8s.io/ingdefault created\n"},
	} {
		assert.Equal(t, tc.out, e.ok(tc.args...), strings.Join(tc.args, " "))
	}
	posts := e.rec.matching("POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses")
	require.Len(t, posts, 4)
	assert.Equal(t, "application/vnd.kubernetes.protobuf", posts[0].ContentType)
	assert.Equal(t, 201, posts[0].Code)

	out := e.ok("get", "ingress")
	assert.Equal(t, []string{"NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"}, fields(strings.Split(out, "\n")[0]))
	assert.Equal(t, []string{
		"annotated default foo.com 80",
		"catch-all otheringress * 80",
		"ingdefault default foo.com 80, 443",
		"simple default foo.com 80, 443",
	}, tableRows(out))
	assert.Equal(t, "1 Exact /bar svc1 8080 my-cert {}", e.ok("get", "ingress", "simple", "-o",
		`jsonpath={.metadata.generation} {.spec.rules[0].http.paths[0].pathType} {.spec.rules[0].http.paths[0].path} `+
			`{.spec.rules[0].http.paths[0].backend.service.name} {.spec.rules[0].http.paths[0].backend.service.port.number} `+
			`{.spec.tls[0].secretName} {.status.loadBalancer}`))
	assert.Equal(t, "defaultsvc http Prefix", e.ok("get", "ing", "ingdefault", "-o",
		`jsonpath={.spec.defaultBackend.service.name} {.spec.defaultBackend.service.port.name} {.spec.rules[0].http.paths[0].pathType}`))
	assert.Equal(t, "ingress.networking.k8s.io \"simple\" deleted\n", e.ok("delete", "ingress", "simple"))
}

// TestCh01_Kubectl_NetworkingStorageResourceKinds applies the realistic manifests of the
// networking.k8s.io, node.k8s.io, storage.k8s.io and resource.k8s.io kinds and checks what
// `kubectl get` prints for each, by short name where there is one: the rows kube-apiserver
// v1.36.3 printed for the same manifests.
func TestCh01_Kubectl_NetworkingStorageResourceKinds(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "apiserver", "testdata", "roundtrip"))
	require.NoError(t, err) // kubectl runs in the test's own directory
	for _, f := range []string{
		"networking.k8s.io_ingress", "networking.k8s.io_ingressclass", "networking.k8s.io_networkpolicy",
		"networking.k8s.io_ipaddress", "networking.k8s.io_servicecidr", "node.k8s.io_runtimeclass",
		"storage.k8s.io_csidriver", "storage.k8s.io_csinode", "storage.k8s.io_csistoragecapacity",
		"storage.k8s.io_storageclass", "storage.k8s.io_volumeattachment", "storage.k8s.io_volumeattributesclass",
		"resource.k8s.io_deviceclass", "resource.k8s.io_resourceclaim", "resource.k8s.io_resourceclaimtemplate",
		"resource.k8s.io_resourceslice",
	} {
		out := e.ok("apply", "-f", filepath.Join(dir, f+".yaml"))
		assert.True(t, strings.HasSuffix(out, " created\n"), "%s: %s", f, out)
	}
	for _, tc := range []struct {
		resource string
		row      string // without AGE
	}{
		{"ing", "shop nginx shop.example.com 80, 443"},
		{"ingressclasses", "nginx k8s.io/ingress-nginx IngressParameters.k8s.example.com/external-lb"},
		{"netpol", "api-allow-frontend app=api"},
		{"runtimeclasses", "gvisor runsc"},
		{"csidrivers", "secrets-store.csi.k8s.io false true false vault true Ephemeral"},
		{"csinodes", "worker-1 1"},
		{"sc", "fast-ssd (default) ebs.csi.aws.com Retain WaitForFirstConsumer true"},
		{"volumeattachments", "csi-5e0f1c2a9b8d7e6f ebs.csi.aws.com pvc-3f2a6b1c-0d4e-4a5b-9c8d-7e6f5a4b3c2d worker-1 false"},
		{"vac", "gold ebs.csi.aws.com"},
		{"deviceclasses", "gpu.example.com"},
		{"resourceclaims", "single-gpu pending"},
		{"resourceclaimtemplates", "two-gpus"},
		{"resourceslices", "worker-1-gpu.example.com-x7k2p worker-1 gpu.example.com worker-1"},
	} {
		assert.Contains(t, tableRows(e.ok("get", tc.resource)), tc.row, tc.resource)
	}
	// IPAddress rows carry no AGE column, and CSIStorageCapacity has the default columns.
	assert.Contains(t, e.ok("get", "ip"), "10.96.200.17   services/default/legacy-db")
	assert.Equal(t, []string{"NAME", "CREATED", "AT"}, fields(strings.Split(e.ok("get", "csistoragecapacities"), "\n")[0]))
	assert.Contains(t, tableRows(e.ok("get", "servicecidrs")), "extra-services 10.112.0.0/16")
	assert.Equal(t, "gpu.example.com worker-1", e.ok("get", "resourceslices", "--field-selector", "spec.nodeName=worker-1",
		"-o", "jsonpath={.items[0].spec.driver} {.items[0].spec.pool.name}"))
}
