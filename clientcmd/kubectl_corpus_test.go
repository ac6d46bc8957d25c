package clientcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// corpusFiles are the kubeconfigs of testdata/corpus: every YAML construct the reader takes
// and the shapes kind, minikube, kubeadm, k3s and the EKS, GKE and AKS plugins write.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 25, "the corpus is the proof: keep it broad")
	return files
}

// kubectlView is what kubectl makes of a kubeconfig file: `kubectl config view --raw -o
// json`, decoded into the same wire type.
func kubectlView(t *testing.T, kubectl, path string) *api.Config {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectl, "config", "view", "--raw", "-o", "json", "--kubeconfig", path)
	// Only the file named counts: no $KUBECONFIG, no ~/.kube/config.
	cmd.Env = append(os.Environ(), "KUBECONFIG=", "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "kubectl config view %s: %s", path, stderr.String())
	var cfg api.Config
	require.NoError(t, json.Unmarshal(out, &cfg), "%s", out)
	return &cfg
}

// asKubectlShowsIt brings what Load returns into the form kubectl prints: kubectl fills in
// kind and apiVersion, sorts every list by name (it keeps them in maps), and defaults a
// v1beta1 plugin's interactiveMode to IfAvailable, which the client here treats as "" anyway.
func asKubectlShowsIt(cfg *api.Config) *api.Config {
	out := *cfg
	out.Kind, out.APIVersion = "Config", "v1"
	out.AuthInfos = append([]api.NamedAuthInfo(nil), cfg.AuthInfos...)
	for i := range out.AuthInfos {
		if e := out.AuthInfos[i].AuthInfo.Exec; e != nil && e.InteractiveMode == "" && strings.HasSuffix(e.APIVersion, "/v1beta1") {
			e = e.DeepCopy()
			e.InteractiveMode = api.IfAvailableExecInteractiveMode
			out.AuthInfos[i].AuthInfo.Exec = e
		}
	}
	return &out
}

// kubeconfigDiff compares two kubeconfigs field by field: lists by name in any order, nil and
// empty alike, extensions as the JSON values they hold.
func kubeconfigDiff(want, got *api.Config) string {
	return cmp.Diff(want, got,
		cmpopts.EquateEmpty(),
		cmpopts.SortSlices(func(a, b api.NamedCluster) bool { return a.Name < b.Name }),
		cmpopts.SortSlices(func(a, b api.NamedContext) bool { return a.Name < b.Name }),
		cmpopts.SortSlices(func(a, b api.NamedAuthInfo) bool { return a.Name < b.Name }),
		cmp.Transformer("extension", func(e api.NamedExtension) map[string]any {
			var v any
			if err := json.Unmarshal(e.Extension, &v); err != nil {
				v = string(e.Extension)
			}
			return map[string]any{"name": e.Name, "extension": v}
		}),
	)
}

// TestCh02_KubeconfigCorpusMatchesKubectl is the differential proof of the YAML reader: for
// every file of the corpus, Load gives, field by field, what kubectl itself reads from it;
// and what Write makes of that reads back the same in kubectl and in Load.
func TestCh02_KubeconfigCorpusMatchesKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH: the differential test of the kubeconfig reader compares Load with `kubectl config view`, and needs it")
	}
	for _, path := range corpusFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			got, err := Load(data)
			require.NoError(t, err)
			want := kubectlView(t, kubectl, path)
			if diff := kubeconfigDiff(want, asKubectlShowsIt(got)); diff != "" {
				t.Fatalf("Load and kubectl disagree on %s (-kubectl +Load):\n%s", path, diff)
			}

			written, err := Write(got)
			require.NoError(t, err)
			rewritten := filepath.Join(t.TempDir(), "config")
			require.NoError(t, os.WriteFile(rewritten, written, 0o600))
			if diff := kubeconfigDiff(want, kubectlView(t, kubectl, rewritten)); diff != "" {
				t.Errorf("kubectl reads Write's output differently (-original +written):\n%s\n%s", diff, written)
			}
			again, err := Load(written)
			require.NoError(t, err)
			if diff := kubeconfigDiff(asKubectlShowsIt(got), asKubectlShowsIt(again)); diff != "" {
				t.Errorf("Load reads Write's output differently (-original +written):\n%s\n%s", diff, written)
			}
		})
	}
}
