package controllers_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/inproc"
	"github.com/informer-lab/informer-lab/rest"
)

// readyPods counts the pods of namespace that are Running and Ready on a node.
func readyPods(t testing.TB, c *cluster.Cluster, ns string) int {
	n := 0
	for _, p := range c.List(t, app.Pods, ns) {
		if app.PodPhase(&p) == "Running" && app.IsPodReady(&p) && app.NodeName(&p) != "" {
			n++
		}
	}
	return n
}

// readyNodes counts the nodes whose Ready condition is True. The simulated kubelets register
// their nodes after the manager starts, as real ones do: a test that needs the scheduler to
// see every node waits for them first, as a workshop runs kubectl get nodes first.
func readyNodes(t testing.TB, c *cluster.Cluster) int {
	n := 0
	for _, node := range c.List(t, app.Nodes, "") {
		if app.PodConditionStatus(&node, "Ready") == "True" {
			n++
		}
	}
	return n
}

// TestCh14_Cluster_CreateDeploymentRunsPods is the workshop's first minute with every default
// controller and 3 nodes: once the 3 nodes are Ready, a Deployment of 3 gives 3 Running,
// Ready pods spread over the simulated nodes within 2 s of virtual time, and the Deployment
// reports them available. (Created before the kubelets registered, the pods would all go to
// the nodes registered by then, as on a real cluster.)
func TestCh14_Cluster_CreateDeploymentRunsPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"*"}, Nodes: 3})
		c.Eventually(t, 10*time.Second, func() bool { return readyNodes(t, c) == 3 })
		start := time.Now()
		c.Create(t, app.Deployments, "default", cluster.Deployment("web", 3))
		c.Eventually(t, 10*time.Second, func() bool { return readyPods(t, c, "default") == 3 })
		require.LessOrEqual(t, time.Since(start), 2*time.Second, "virtual time to 3 ready pods")
		nodes := map[string]bool{}
		for _, p := range c.List(t, app.Pods, "default") {
			nodes[app.NodeName(&p)] = true
		}
		require.Len(t, nodes, 3, "least-allocated scoring spreads the pods")
		c.Eventually(t, 10*time.Second, func() bool {
			d := c.Get(t, app.Deployments, "default", "web")
			n, _ := app.NestedInt64(d.Object, "status", "availableReplicas")
			return n == 3
		})
	})
}

// TestCh14_Cluster_Select is the --controllers syntax of kube-controller-manager.
func TestCh14_Cluster_Select(t *testing.T) {
	all, err := controllers.Select([]string{"*"})
	require.NoError(t, err)
	require.Contains(t, all, "deployment")
	require.Contains(t, all, "kubelet")
	none, err := controllers.Select([]string{"none"})
	require.NoError(t, err)
	require.Empty(t, none)
	some, err := controllers.Select([]string{"*", "-deployment"})
	require.NoError(t, err)
	require.NotContains(t, some, "deployment")
	require.Contains(t, some, "replicaset")
	one, err := controllers.Select([]string{"replicaset"})
	require.NoError(t, err)
	require.Equal(t, []string{"replicaset"}, one)
	_, err = controllers.Select([]string{"nope"})
	require.ErrorContains(t, err, `unknown controller "nope"`)
	require.Subset(t, controllers.Known(), all)
}

// TestCh14_Cluster_DeleteDeploymentCollectsEverything: kubectl delete deployment web (a
// background delete) leaves no ReplicaSet and no pod once the garbage collector and the
// kubelets are done, and a namespace's deletion finishes through the namespace controller.
func TestCh14_Cluster_DeleteDeploymentCollectsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"*"}, Nodes: 3})
		c.Create(t, app.Namespaces, "", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}})
		c.Create(t, app.Deployments, "shop", cluster.Deployment("web", 3))
		c.Eventually(t, 10*time.Second, func() bool { return readyPods(t, c, "shop") == 3 })
		require.NoError(t, c.Client.Resource(app.Deployments).Namespace("shop").Delete(t.Context(), "web", api.DeleteOptions{}))
		c.Eventually(t, 60*time.Second, func() bool {
			return len(c.List(t, app.ReplicaSets, "shop")) == 0 && len(c.List(t, app.Pods, "shop")) == 0
		})
		c.Create(t, app.Deployments, "shop", cluster.Deployment("api", 2))
		c.Eventually(t, 10*time.Second, func() bool { return readyPods(t, c, "shop") == 2 })
		require.NoError(t, c.Client.Resource(app.Namespaces).Delete(t.Context(), "shop", api.DeleteOptions{}))
		c.Eventually(t, 120*time.Second, func() bool { return c.Get(t, app.Namespaces, "", "shop") == nil })
	})
}

// TestCh14_Cluster_JobCompletesAndCronJobFires: with the kubelets running a Job's pods (they
// exit 0 after 2 s unless an annotation says otherwise), a Job of 3 completions runs to
// Complete, and a CronJob of "*/1 * * * *" creates a Job every minute of virtual time.
func TestCh14_Cluster_JobCompletesAndCronJobFires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"*"}, Nodes: 2})
		podSpec := map[string]any{"restartPolicy": "Never",
			"containers": []any{map[string]any{"name": "pi", "image": "perl"}}}
		c.Create(t, app.Jobs, "default", map[string]any{"apiVersion": "batch/v1", "kind": "Job",
			"metadata": map[string]any{"name": "pi"},
			"spec":     map[string]any{"completions": int64(3), "parallelism": int64(2), "template": map[string]any{"spec": podSpec}}})
		complete := func(name string) bool {
			j := c.Get(t, app.Jobs, "default", name)
			if j == nil {
				return false
			}
			conds, _ := app.Nested(j.Object, "status", "conditions")
			list, _ := conds.([]any)
			for _, x := range list {
				m, _ := x.(map[string]any)
				if m["type"] == "Complete" && m["status"] == "True" {
					return true
				}
			}
			return false
		}
		c.Eventually(t, 60*time.Second, func() bool { return complete("pi") })
		n, _ := app.NestedInt64(c.Get(t, app.Jobs, "default", "pi").Object, "status", "succeeded")
		require.Equal(t, int64(3), n)

		c.Create(t, app.CronJobs, "default", map[string]any{"apiVersion": "batch/v1", "kind": "CronJob",
			"metadata": map[string]any{"name": "tick"},
			"spec": map[string]any{"schedule": "*/1 * * * *", "jobTemplate": map[string]any{
				"spec": map[string]any{"template": map[string]any{"spec": podSpec}}}}})
		c.Eventually(t, 3*time.Minute, func() bool {
			fired := 0
			for _, j := range c.List(t, app.Jobs, "default") {
				if ref := app.GetControllerOf(&j); ref != nil && ref.Kind == "CronJob" && complete(j.GetName()) {
					fired++
				}
			}
			return fired >= 2
		})
	})
}

// TestCh14_Cluster_StartGivesUpCleanly: a start whose context ends before the informers sync
// (an interrupt during start-up) returns an error and leaves no goroutine behind: the queues
// the controllers built are shut down although no controller ran. synctest fails the test
// if a goroutine of the bubble is left blocked.
func TestCh14_Cluster_StartGivesUpCleanly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiserver.New(apiserver.Options{})
		defer srv.Close()
		cfg := &rest.Config{Host: "http://inproc.local", Transport: inproc.Transport(srv.Handler())}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m, err := controllers.Start(ctx, controllers.Options{Config: cfg, Controllers: []string{"*"}, Nodes: 3})
		require.Error(t, err)
		require.Nil(t, m)
	})
}
