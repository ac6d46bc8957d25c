package clientgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// TestMain fails the package if any goroutine outlives the tests: informers, watches, the
// simulator and the HTTP servers must all have stopped.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitTimeout bounds every wait in these tests; a healthy run needs a fraction of it.
const waitTimeout = 15 * time.Second

// waitFor polls cond until it holds, failing the test after waitTimeout.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, waitTimeout, true,
		func(context.Context) (bool, error) { return cond(), nil })
	require.NoError(t, err, "waiting for %s", what)
}

// startFactory starts the factory's informers and stops them (waiting for their goroutines)
// when the test ends, before the server closes.
func startFactory(t testing.TB, f informers.SharedInformerFactory) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	t.Cleanup(func() {
		cancel()
		f.Shutdown()
	})
}

// waitSynced waits for inf.HasSynced, bounded by waitTimeout.
func waitSynced(t testing.TB, inf cache.SharedIndexInformer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	require.True(t, cache.WaitForCacheSync(ctx.Done(), inf.HasSynced), "informer did not sync")
}

// newPod is a pod of our wire types, for seeding the simulator in process.
func newPod(ns, name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}},
	}
}

// seedPods creates n pods pod-00000 … in ns, in process (no HTTP request is recorded).
func seedPods(tb testing.TB, srv *apiserver.Server, ns string, n int) {
	tb.Helper()
	for i := range n {
		if _, err := srv.Create(context.Background(), "pods", ns, newPod(ns, fmt.Sprintf("pod-%05d", i), map[string]string{"app": "seed"})); err != nil {
			tb.Fatalf("seed pod %d: %v", i, err)
		}
	}
}

// serverPods returns key → resourceVersion of every pod the simulator holds.
func serverPods(t testing.TB, srv *apiserver.Server) map[string]string {
	t.Helper()
	obj, err := srv.List(context.Background(), "pods", "", api.ListOptions{})
	require.NoError(t, err)
	list, ok := obj.(*api.PodList)
	require.True(t, ok, "pods list is %T", obj)
	out := make(map[string]string, len(list.Items))
	for _, p := range list.Items {
		out[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return out
}

// cachedRVs returns key → resourceVersion of every object in a client-go store.
func cachedRVs(s cache.Store) map[string]string {
	out := map[string]string{}
	for _, obj := range s.List() {
		key, err := cache.MetaNamespaceKeyFunc(obj)
		if err != nil {
			continue
		}
		out[key] = resourceVersionOf(obj)
	}
	return out
}

func resourceVersionOf(obj any) string {
	if m, ok := obj.(interface{ GetResourceVersion() string }); ok {
		return m.GetResourceVersion()
	}
	return ""
}

// listMeta reads metadata.resourceVersion and metadata.continue of a recorded list answer.
func listMeta(t *testing.T, body []byte) (rv, continueToken string) {
	t.Helper()
	var l struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
			Continue        string `json:"continue"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(body, &l), "list answer: %.200s", body)
	return l.Metadata.ResourceVersion, l.Metadata.Continue
}
