package ch00_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/kubernetes"
)

// The Nodes example of the article "client-go学习" (section "ClientSet 方式", "使用示例"): list
// the nodes, update one node's labels with Update, then label another with a strategic merge
// patch. Nodes are cluster-scoped: no namespace in the path.

// seedNodes registers two nodes the way a kubelet would: with capacity, addresses and a
// Ready condition, most of which our typed Node does not model.
func seedNodes(srv *apiserver.Server) {
	for _, name := range []string{"node-a", "node-b"} {
		must(srv.Create(context.Background(), "nodes", "", &api.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Node",
			"metadata": map[string]any{"name": name, "labels": map[string]any{"kubernetes.io/hostname": name}},
			"spec":     map[string]any{"podCIDR": "10.244.0.0/24"},
			"status": map[string]any{
				"capacity":   map[string]any{"cpu": "4", "memory": "16Gi", "pods": "110"},
				"addresses":  []any{map[string]any{"type": "InternalIP", "address": "192.168.0.10"}},
				"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "KubeletReady"}},
				"nodeInfo":   map[string]any{"kubeletVersion": "v1.36.3", "osImage": "Debian GNU/Linux 13"},
			},
		}}))
	}
}

// Example_articleNodes lists nodes, updates a label with Update and adds one with a
// strategic merge patch, as the article's ClientSet example does.
func Example_articleNodes() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	seedNodes(srv)
	ctx := context.Background()
	cs := must(kubernetes.NewForConfig(withWire(cfg)))

	nodes := must(cs.CoreV1().Nodes().List(ctx, api.ListOptions{}))
	for _, n := range nodes.Items {
		fmt.Printf("%s ready=%s kubelet=%s\n", n.Name, n.Status.Conditions[0].Status, n.Status.NodeInfo.KubeletVersion)
	}

	n := nodes.Items[0].DeepCopy()
	n.Labels["disktype"] = "ssd"
	updated := must(cs.CoreV1().Nodes().Update(ctx, n, api.UpdateOptions{}))
	fmt.Println("updated", updated.Name, "labels", updated.Labels)

	patch := must(json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]any{"zone": "a"}}}))
	patched := must(cs.CoreV1().Nodes().Patch(ctx, "node-b", api.StrategicMergePatchType, patch, api.PatchOptions{}))
	fmt.Println("patched", patched.Name, "labels", patched.Labels)
	// Output:
	//   GET /api/v1/nodes → 200
	// node-a ready=True kubelet=v1.36.3
	// node-b ready=True kubelet=v1.36.3
	//   PUT /api/v1/nodes/node-a → 200
	// updated node-a labels map[disktype:ssd kubernetes.io/hostname:node-a]
	//   PATCH /api/v1/nodes/node-b → 200
	// patched node-b labels map[kubernetes.io/hostname:node-b zone:a]
}

// TestCh00_TypedUpdateLosesNothing: our typed Node and Pod model a handful of fields, yet a
// Get, a change to one field and an Update through the clientset leave every other field as
// it was: the typed views keep what they do not model (api/preserve.go).
func TestCh00_TypedUpdateLosesNothing(t *testing.T) {
	srv, cfg := startLab(apiserver.Options{})
	t.Cleanup(srv.Close)
	seedNodes(srv)
	ctx := context.Background()
	cs := must(kubernetes.NewForConfig(cfg))

	raw := func(path string) map[string]any {
		resp, err := http.Get(srv.URL() + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		return m
	}
	unchangedBut := func(before, after map[string]any, field ...string) {
		t.Helper()
		for _, m := range []map[string]any{before, after} {
			md := m["metadata"].(map[string]any)
			delete(md, "resourceVersion")
			delete(md, "generation")
			delete(md, "managedFields") // every write records its manager there
			cur := m
			for _, f := range field[:len(field)-1] {
				cur = cur[f].(map[string]any)
			}
			delete(cur, field[len(field)-1])
		}
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("fields lost or changed (-before +after):\n%s", diff)
		}
	}

	before := raw("/api/v1/nodes/node-a")
	n := must(cs.CoreV1().Nodes().Get(ctx, "node-a", api.GetOptions{}))
	n.Spec.Unschedulable = true
	must(cs.CoreV1().Nodes().Update(ctx, n, api.UpdateOptions{}))
	after := raw("/api/v1/nodes/node-a")
	require.Equal(t, true, after["spec"].(map[string]any)["unschedulable"])
	unchangedBut(before, after, "spec", "unschedulable")

	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"full","namespace":"demo"},"spec":{"containers":[{"name":"web","image":"nginx:1.27",
		"env":[{"name":"MODE","value":"prod"}],"ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
		"readinessProbe":{"httpGet":{"path":"/healthz","port":8080}}}],"tolerations":[{"key":"gpu","operator":"Exists"}],
		"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"disktype","operator":"In","values":["ssd"]}]}]}}}}}`
	resp, err := http.Post(srv.URL()+"/api/v1/namespaces/demo/pods", "application/json", strings.NewReader(pod))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 201, resp.StatusCode, "%s", body)

	before = raw("/api/v1/namespaces/demo/pods/full")
	p := must(cs.CoreV1().Pods("demo").Get(ctx, "full", api.GetOptions{}))
	p.Labels = map[string]string{"tier": "front"}
	must(cs.CoreV1().Pods("demo").Update(ctx, p, api.UpdateOptions{}))
	after = raw("/api/v1/namespaces/demo/pods/full")
	require.Equal(t, map[string]any{"tier": "front"}, after["metadata"].(map[string]any)["labels"])
	unchangedBut(before, after, "metadata", "labels")
}
