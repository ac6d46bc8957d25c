package clientgo_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
	ourrest "github.com/informer-lab/informer-lab/rest"
)

// The upstream sample-controller is a tool of this module (the `tool` line of go.mod pins
// k8s.io/sample-controller), so it is built against the same client-go as these tests, and
// its artifacts are read from the module cache, unedited.

// buildSampleController builds k8s.io/sample-controller's main package into dir and returns
// the binary and the module's directory (where artifacts/examples lives).
func buildSampleController(t *testing.T, dir string) (bin, moduleDir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/sample-controller").Output()
	require.NoError(t, err, "go list -m k8s.io/sample-controller")
	moduleDir = strings.TrimSpace(string(out))
	require.NotEmpty(t, moduleDir)
	bin = filepath.Join(dir, "sample-controller")
	build, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "k8s.io/sample-controller").CombinedOutput()
	require.NoError(t, err, "go build k8s.io/sample-controller: %s", build)
	return bin, moduleDir
}

// writeKubeconfig writes a kubeconfig for an unauthenticated server at url, as a user of
// `demo serve` has one.
func writeKubeconfig(t *testing.T, dir, url string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["sim"] = &clientcmdapi.Cluster{Server: url}
	cfg.AuthInfos["sim"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["sim"] = &clientcmdapi.Context{Cluster: "sim", AuthInfo: "sim", Namespace: "default"}
	cfg.CurrentContext = "sim"
	path := filepath.Join(dir, "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*cfg, path))
	return path
}

// readYAML decodes one YAML document of the module's artifacts.
func readYAML(t *testing.T, path string) *unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal(data, &u.Object))
	return u
}

// lockedBuffer collects the controller's klog output, which is written by the exec package's
// copying goroutine while the test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestInterop_SampleControllerReconcilesExampleFoo runs the upstream sample-controller binary
// against the simulator, as its README runs it against a cluster: its own CRD, its
// -kubeconfig flag, its example-foo. The controller creates the Deployment example-foo with
// the Foo's replicas, owned by the Foo, and follows a scale of the Foo. Its status write is
// UpdateStatus (PUT …/foos/example-foo/status), so what becomes of it depends on the CRD:
// crd-status-subresource.yaml serves the subresource and the Foo gets
// status.availableReplicas 0 (the Deployment's, which stays 0 with no deployment controller
// running); crd.yaml does not, and the PUT is 404 NotFound, as on the real server, leaving
// the Foo without status. Deleting the Foo, the cluster's garbage collector (ours) deletes
// the Deployment. SIGTERM stops the controller with exit status 0.
func TestInterop_SampleControllerReconcilesExampleFoo(t *testing.T) {
	bin, module := buildSampleController(t, t.TempDir())
	examples := filepath.Join(module, "artifacts", "examples")
	cases := []struct {
		crdFile          string
		wantStatusCode   int
		wantStatus       map[string]any
		wantStatusReason string
		wantMessage      string
	}{
		{crdFile: "crd-status-subresource.yaml", wantStatusCode: 200, wantStatus: map[string]any{"availableReplicas": int64(0)}},
		{crdFile: "crd.yaml", wantStatusCode: 404, wantStatusReason: "NotFound",
			// The real server's answer to the same PUT, checked against kube-apiserver v1.36.3.
			wantMessage: `foos.samplecontroller.k8s.io \"example-foo\" not found`},
	}
	for _, tc := range cases {
		t.Run(tc.crdFile, func(t *testing.T) {
			dir := t.TempDir()
			env := wiretest.Start(t, apiserver.Options{Bootstrap: true})
			cs := env.Clientset(t)
			dyn, err := dynamic.NewForConfig(wiretest.RESTConfig(env.URL))
			require.NoError(t, err)
			ctx := context.Background()

			crd := readYAML(t, filepath.Join(examples, tc.crdFile))
			_, err = dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{})
			require.NoError(t, err, "the CRD as the sample-controller ships it")
			waitFor(t, "the CRD to be Established", func() bool {
				got, err := dyn.Resource(crdGVR).Get(ctx, crd.GetName(), metav1.GetOptions{})
				if err != nil {
					return false
				}
				conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
				for _, c := range conds {
					if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
						return true
					}
				}
				return false
			})

			logs := &lockedBuffer{}
			cmd := exec.Command(bin, "-kubeconfig", writeKubeconfig(t, dir, env.URL))
			cmd.Stdout, cmd.Stderr = logs, logs
			require.NoError(t, cmd.Start())
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			stopped := false
			stop := func() error {
				if stopped {
					return nil
				}
				stopped = true
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					return err
				}
				select {
				case err := <-exited:
					return err
				case <-time.After(waitTimeout):
					_ = cmd.Process.Kill() // by its own PID
					<-exited
					return errors.New("sample-controller did not stop on SIGTERM")
				}
			}
			// Registered after wiretest.Start, so it runs before the server closes.
			t.Cleanup(func() {
				if err := stop(); err != nil {
					t.Errorf("stopping sample-controller: %v\n%s", err, logs.String())
				}
			})

			foos := dyn.Resource(fooGVR).Namespace("default")
			foo, err := foos.Create(ctx, readYAML(t, filepath.Join(examples, "example-foo.yaml")), metav1.CreateOptions{})
			require.NoError(t, err)

			deployments := cs.AppsV1().Deployments("default")
			waitFor(t, "the Deployment example-foo with 1 replica", func() bool {
				d, err := deployments.Get(ctx, "example-foo", metav1.GetOptions{})
				return err == nil && d.Spec.Replicas != nil && *d.Spec.Replicas == 1
			})
			d, err := deployments.Get(ctx, "example-foo", metav1.GetOptions{})
			require.NoError(t, err)
			require.Len(t, d.OwnerReferences, 1)
			owner := d.OwnerReferences[0]
			assert.Equal(t, []string{"Foo", "example-foo", string(foo.GetUID())}, []string{owner.Kind, owner.Name, string(owner.UID)})
			assert.True(t, owner.Controller != nil && *owner.Controller, "the Foo controls the Deployment")
			assert.Equal(t, map[string]string{"app": "nginx", "controller": "example-foo"}, d.Spec.Template.Labels)

			statusPath := "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/example-foo/status"
			statusWrites := func() []wiretest.Request {
				return env.Recorder.Matching(func(r wiretest.Request) bool {
					return r.Method == "PUT" && r.Path == statusPath && r.Done
				})
			}
			waitFor(t, "the controller's status write", func() bool { return len(statusWrites()) > 0 })
			first := statusWrites()[0]
			assert.Equal(t, tc.wantStatusCode, first.Status, "%s", first.Response)
			if tc.wantStatusReason != "" {
				assert.Equal(t, tc.wantStatusReason, first.StatusReason())
				assert.Contains(t, string(first.Response), `"message":"`+tc.wantMessage+`"`)
			}
			got, err := foos.Get(ctx, "example-foo", metav1.GetOptions{})
			require.NoError(t, err)
			status, _, _ := unstructured.NestedMap(got.Object, "status")
			assert.Equal(t, tc.wantStatus, status)

			_, err = foos.Patch(ctx, "example-foo", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{})
			require.NoError(t, err)
			waitFor(t, "the Deployment to follow the Foo to 3 replicas", func() bool {
				d, err := deployments.Get(ctx, "example-foo", metav1.GetOptions{})
				return err == nil && d.Spec.Replicas != nil && *d.Spec.Replicas == 3
			})

			// The cluster's garbage collector (this project's, as demo serve runs it) collects
			// the Deployment once the Foo that owns it is deleted.
			gc, err := controllers.Start(ctx, controllers.Options{Config: &ourrest.Config{Host: env.URL}, Controllers: []string{"garbagecollector"}})
			require.NoError(t, err)
			defer gc.Stop()
			require.NoError(t, foos.Delete(ctx, "example-foo", metav1.DeleteOptions{}))
			waitFor(t, "the garbage collector to delete the Foo's Deployment", func() bool {
				_, err := deployments.Get(ctx, "example-foo", metav1.GetOptions{})
				return apierrors.IsNotFound(err)
			})

			require.NoError(t, stop(), "SIGTERM ends the controller cleanly\n%s", logs.String())
			assert.Contains(t, logs.String(), "Shutting down workers")
		})
	}
}
