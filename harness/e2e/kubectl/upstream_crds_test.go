package kubectl_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/informer-lab/informer-lab/apiserver"
)

// The CRDs other projects wrote, installed as their users install them. Their files are
// read from the Go module cache (go mod download of a pinned version), never copied here.

// moduleDir downloads a pinned module with the go command and returns its directory.
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", module).Output()
	require.NoError(t, err, "go mod download %s", module)
	var info struct{ Dir, Error string }
	require.NoError(t, json.Unmarshal(out, &info))
	require.Empty(t, info.Error)
	return info.Dir
}

// TestCh13_Kubectl_SampleControllerCRDsUnedited: the sample-controller's own two CRDs
// (k8s.io/sample-controller v0.36.3 artifacts/examples), unedited, install with
// `demo serve --crd`: singular, listKind and the conversion strategy are defaulted, the CRD
// becomes Established, and its example Foo is created.
func TestCh13_Kubectl_SampleControllerCRDsUnedited(t *testing.T) {
	kubectl := kubectlPath(t)
	examples := filepath.Join(moduleDir(t, "k8s.io/sample-controller@v0.36.3"), "artifacts", "examples")
	for _, file := range []string{"crd.yaml", "crd-status-subresource.yaml"} {
		t.Run(file, func(t *testing.T) {
			dir := t.TempDir()
			d := startDemoServe(t, dir, "--seed-pods", "0", "--crd", filepath.Join(examples, file))
			assert.Contains(t, strings.Join(d.banner, "\n"), "crd        foos.samplecontroller.k8s.io")
			e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}
			e.ok("wait", "--for", "condition=established", "--timeout=10s", "crd/foos.samplecontroller.k8s.io")
			names := e.ok("get", "crd", "foos.samplecontroller.k8s.io", "-o", "jsonpath={.spec.names.singular} {.spec.names.listKind} {.spec.conversion.strategy}")
			assert.Equal(t, "foo FooList None", names)
			assert.Equal(t, "foo.samplecontroller.k8s.io/example-foo created\n", e.ok("create", "-f", filepath.Join(examples, "example-foo.yaml")))
			assert.Equal(t, "example-foo", e.ok("get", "foo", "example-foo", "-o", "jsonpath={.spec.deploymentName}"))
			d.interrupt(t)
		})
	}
}

// splitDocs writes the documents of a YAML file that keep accepts, each as a file of its own
// under dir, and returns their paths.
func splitDocs(t *testing.T, dir, file string, keep func(doc map[string]any) bool) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var out []string
	for i := 0; ; i++ {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if doc == nil || !keep(doc) {
			continue
		}
		b, err := yaml.Marshal(doc)
		require.NoError(t, err)
		p := filepath.Join(dir, filepath.Base(file)+"."+string(rune('a'+i%26))+".yaml")
		require.NoError(t, os.WriteFile(p, b, 0o600))
		out = append(out, p)
	}
	return out
}

// TestCh13_Kubectl_OperatorCRDsServerSide: every CRD of cert-manager (deploy/crds) and of
// prometheus-operator (example/prometheus-operator-crd), at the versions the conformance
// corpus pins, installs with `kubectl apply --server-side` and becomes Established, and
// prometheus-operator's example objects are created, but for the two the real server
// refuses too (a ServiceMonitor without its required selector, a PodMonitor without a
// name); so do the CRDs of Argo CD's install manifest. cert-manager's example objects are
// created too, and broken ones refused as the real server refuses them (certManagerObjects).
func TestCh13_Kubectl_OperatorCRDsServerSide(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	certManager := moduleDir(t, "github.com/cert-manager/cert-manager@v1.21.2")
	prometheus := moduleDir(t, "github.com/prometheus-operator/prometheus-operator@v0.85.0")
	argo := moduleDir(t, "github.com/argoproj/argo-cd/v3@v3.1.9")

	var crdFiles []string
	for _, pattern := range []string{filepath.Join(certManager, "deploy", "crds", "*.yaml"),
		filepath.Join(prometheus, "example", "prometheus-operator-crd", "*.yaml")} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		crdFiles = append(crdFiles, files...)
	}
	isCRD := func(doc map[string]any) bool { return doc["kind"] == "CustomResourceDefinition" }
	crdFiles = append(crdFiles, splitDocs(t, e.dir, filepath.Join(argo, "manifests", "install.yaml"), isCRD)...)
	require.Len(t, crdFiles, 6+10+3)
	for _, f := range crdFiles {
		out := e.ok("apply", "--server-side", "-f", f)
		assert.Contains(t, out, "serverside-applied", f)
	}
	established := e.ok("wait", "--for", "condition=established", "--timeout=10s", "crd", "--all")
	assert.Equal(t, len(crdFiles), strings.Count(established, "condition met"), established)

	refused := map[string]string{
		"scrapeclass-example-servicemonitor.yaml": `The ServiceMonitor "servicemonitor-example" is invalid: spec.selector: Required value`,
		"scrapeclass-example-podmonitor.yaml":     "resource name may not be empty",
		"scrapeclass-example-definition.yaml":     "resource name may not be empty",
	}
	monitoring := func(doc map[string]any) bool {
		v, _ := doc["apiVersion"].(string)
		return strings.HasPrefix(v, "monitoring.coreos.com/")
	}
	created := 0
	err := filepath.WalkDir(filepath.Join(prometheus, "example"), func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".yaml") || strings.Contains(p, "prometheus-operator-crd") {
			return err
		}
		docs := splitDocs(t, t.TempDir(), p, monitoring)
		for _, f := range docs {
			out, errOut, err := e.run("apply", "--server-side", "-n", "default", "-f", f)
			if want, ok := refused[filepath.Base(p)]; ok {
				assert.Error(t, err, p)
				assert.Contains(t, errOut, want, p)
				continue
			}
			if assert.NoError(t, err, "%s\n%s%s", p, out, errOut) {
				created++
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, created, 25, "prometheus-operator's example objects")

	certManagerObjects(t, e, certManager)
}

// certManagerClusterObjects are written for this test after cert-manager's documented
// examples (a self-signed ClusterIssuer and a CA Certificate it issues), because the module
// ships no ClusterIssuer: its only example objects are test/fixtures/cert-manager-resources.yaml.
const certManagerClusterObjects = `apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: selfsigned-cluster-issuer}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: example-ca, namespace: default}
spec:
  isCA: true
  commonName: example-ca
  secretName: example-ca
  duration: 2160h
  renewBefore: 360h
  privateKey: {algorithm: ECDSA, size: 256}
  issuerRef: {name: selfsigned-cluster-issuer, kind: ClusterIssuer, group: cert-manager.io}
`

// certManagerObjects creates cert-manager's own example objects (the Issuer and the two
// Certificates its upgrade test applies, test/fixtures/cert-manager-resources.yaml) and a
// ClusterIssuer with a Certificate it issues, with kubectl apply --server-side; it sees
// broken ones refused with the messages of a real kube-apiserver v1.36.3 that has the same
// CRDs, and a bad duration accepted as there (cert-manager's webhook checks durations, the
// CRD schema does not).
func certManagerObjects(t *testing.T, e *env, certManager string) {
	t.Helper()
	out := e.ok("apply", "--server-side", "-f", filepath.Join(certManager, "test", "fixtures", "cert-manager-resources.yaml"))
	assert.Equal(t, "issuer.cert-manager.io/selfsigned-issuer serverside-applied\n"+
		"certificate.cert-manager.io/test1 serverside-applied\n"+
		"certificate.cert-manager.io/test2 serverside-applied\n", out)
	out = e.ok("apply", "--server-side", "-f", e.file("cert-manager-cluster.yaml", certManagerClusterObjects))
	assert.Equal(t, "clusterissuer.cert-manager.io/selfsigned-cluster-issuer serverside-applied\n"+
		"certificate.cert-manager.io/example-ca serverside-applied\n", out)
	assert.Equal(t, "example-ca test1 test2", e.ok("get", "certificates", "-n", "default", "-o", "jsonpath={.items[*].metadata.name}"))
	assert.Equal(t, "selfsigned-issuer", e.ok("get", "issuers", "-n", "default", "-o", "jsonpath={.items[*].metadata.name}"))
	assert.Equal(t, "selfsigned-cluster-issuer ClusterIssuer", e.ok("get", "certificate", "example-ca", "-n", "default",
		"-o", "jsonpath={.spec.issuerRef.name} {.spec.issuerRef.kind}"))

	cases := []struct {
		name, object, wantErr, wantOut string
	}{
		{
			name: "no issuerRef",
			object: `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: no-issuer, namespace: default}
spec: {dnsNames: [example.com], secretName: no-issuer}
`,
			wantErr: `The Certificate "no-issuer" is invalid: spec.issuerRef: Required value`,
		},
		{
			name: "unsupported key algorithm",
			object: `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: bad-key, namespace: default}
spec: {dnsNames: [example.com], secretName: bad-key, privateKey: {algorithm: DSA}, issuerRef: {name: selfsigned-issuer}}
`,
			wantErr: `The Certificate "bad-key" is invalid: spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"`,
		},
		{
			name: "venafi issuer without tpp, cloud or ngts (the CRD's CEL rule)",
			object: `apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: venafi-nowhere, namespace: default}
spec: {venafi: {zone: example-zone}}
`,
			wantErr: `The Issuer "venafi-nowhere" is invalid: spec.venafi: Invalid value: exactly one of tpp, cloud, or ngts must be configured`,
		},
		{
			name: "a duration only cert-manager's webhook refuses",
			object: `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: bad-duration, namespace: default}
spec: {dnsNames: [example.com], secretName: bad-duration, duration: forever, issuerRef: {name: selfsigned-issuer}}
`,
			wantOut: "certificate.cert-manager.io/bad-duration serverside-applied\n",
		},
	}
	for i, tc := range cases {
		out, errOut, err := e.run("apply", "--server-side", "-f", e.file(fmt.Sprintf("cert-manager-case-%d.yaml", i), tc.object))
		if tc.wantErr != "" {
			assert.Error(t, err, tc.name)
			assert.Equal(t, tc.wantErr, strings.TrimSpace(errOut), tc.name)
			continue
		}
		assert.NoError(t, err, "%s\n%s", tc.name, errOut)
		assert.Equal(t, tc.wantOut, out, tc.name)
	}
}
