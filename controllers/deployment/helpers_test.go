package deployment_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/deployment"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

// deployObject is the Deployment `kubectl create deployment name --image=image
// --replicas=n` sends.
func deployObject(name, image string, n int64) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"app": name}},
		"spec": map[string]any{
			"replicas": n,
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": image}}},
			},
		},
	}
}

func getDeploy(t testing.TB, c *cluster.Cluster, name string) *api.Unstructured {
	t.Helper()
	return c.Get(t, app.Deployments, "default", name)
}

func statusOf(t testing.TB, u *api.Unstructured) deployment.Status {
	t.Helper()
	s, err := app.FromUnstructured[deployment.Status](&api.Unstructured{Object: app.NestedMap(u.Object, "status")})
	require.NoError(t, err)
	return *s
}

func condition(st deployment.Status, typ string) deployment.Condition {
	for _, c := range st.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return deployment.Condition{}
}

// replicaSets lists the ReplicaSets of default, oldest revision first.
func replicaSets(t testing.TB, c *cluster.Cluster) []api.Unstructured {
	t.Helper()
	rss := c.List(t, app.ReplicaSets, "default")
	sort.Slice(rss, func(i, j int) bool {
		ri, _ := deployment.Revision(&rss[i])
		rj, _ := deployment.Revision(&rss[j])
		return ri < rj
	})
	return rss
}

// sizes renders every ReplicaSet's spec.replicas, by revision: "r1=3 r2=1".
func sizes(t testing.TB, c *cluster.Cluster) string {
	t.Helper()
	var parts []string
	for _, rs := range replicaSets(t, c) {
		n, _ := app.NestedInt64(rs.Object, "spec", "replicas")
		parts = append(parts, fmt.Sprintf("r%s=%d", rs.GetAnnotations()[deployment.RevisionAnnotation], n))
	}
	return strings.Join(parts, " ")
}

// activePods lists the pods of default that are not being deleted.
func activePods(t testing.TB, c *cluster.Cluster) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, p := range c.List(t, app.Pods, "default") {
		if p.GetDeletionTimestamp() == nil {
			out = append(out, p)
		}
	}
	return out
}

// makeReady plays the kubelet: Running and Ready now.
func makeReady(t testing.TB, c *cluster.Cluster, pod *api.Unstructured) {
	t.Helper()
	p := pod.DeepCopy()
	p.Object["status"] = map[string]any{
		"phase": "Running",
		"conditions": []any{map[string]any{"type": "Ready", "status": "True",
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
	}
	_, err := c.Client.Resource(app.Pods).Namespace(p.GetNamespace()).UpdateStatus(context.Background(), p, api.UpdateOptions{})
	if api.IsConflict(err) || api.IsNotFound(err) {
		return
	}
	require.NoError(t, err)
}

// readyAll makes every pod of default ready, as a kubelet would once they run.
func readyAll(t testing.TB, c *cluster.Cluster) {
	t.Helper()
	for _, p := range activePods(t, c) {
		if !app.IsPodReady(&p) {
			makeReady(t, c, &p)
		}
	}
}

// update applies f to the Deployment and writes it.
func update(t testing.TB, c *cluster.Cluster, name string, f func(u *api.Unstructured)) {
	t.Helper()
	for {
		u := getDeploy(t, c, name)
		f(u)
		_, err := c.Client.Resource(app.Deployments).Namespace("default").Update(context.Background(), u, api.UpdateOptions{})
		if api.IsConflict(err) {
			continue
		}
		require.NoError(t, err)
		return
	}
}

func setImage(image string) func(u *api.Unstructured) {
	return func(u *api.Unstructured) {
		cs := app.NestedMap(u.Object, "spec", "template", "spec")["containers"].([]any)
		cs[0].(map[string]any)["image"] = image
	}
}

func setReplicas(n int64) func(u *api.Unstructured) {
	return func(u *api.Unstructured) { app.NestedMap(u.Object, "spec")["replicas"] = n }
}

// rolledOut is what kubectl rollout status waits for.
func rolledOut(t testing.TB, c *cluster.Cluster, name string) bool {
	u := getDeploy(t, c, name)
	st := statusOf(t, u)
	want, _ := app.NestedInt64(u.Object, "spec", "replicas")
	return st.ObservedGeneration >= u.GetGeneration() && int64(st.UpdatedReplicas) == want &&
		st.Replicas == st.UpdatedReplicas && st.AvailableReplicas == st.UpdatedReplicas
}
