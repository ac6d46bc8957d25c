package endpoints_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
)

func subsetsJSON(t *testing.T, c *cluster.Cluster, ns, name string) string {
	t.Helper()
	ep := c.Get(t, app.Endpoints, ns, name)
	if ep == nil {
		return "<none>"
	}
	subsets := ep.Object["subsets"]
	// keep what the test pins down: IPs, readiness and ports
	var out []string
	list, _ := subsets.([]any)
	for _, s := range list {
		m := s.(map[string]any)
		line := ""
		for _, k := range []string{"addresses", "notReadyAddresses"} {
			as, _ := m[k].([]any)
			for _, a := range as {
				line += k[:1] + ":" + a.(map[string]any)["ip"].(string) + " "
			}
		}
		b, _ := json.Marshal(m["ports"])
		out = append(out, line+string(b))
	}
	return fmt.Sprint(out)
}

// TestCh14_Endpoints_Subsets: the Endpoints of a Service lists ready pods under addresses
// and the others under notReadyAddresses, with the named port resolved, its labels and
// annotations; it follows the pods and goes with its Service.
func TestCh14_Endpoints_Subsets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}})
		c.Create(t, app.Services, "default", webService("web", nil))
		for i, ip := range []string{"10.0.0.2", "10.0.0.1", "10.0.0.3", ""} {
			name := fmt.Sprintf("web-%d", i)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			setPodStatus(t, c, "default", name, ip, i != 2)
		}
		want := `[a:10.0.0.1 a:10.0.0.2 n:10.0.0.3 [{"name":"http","port":8080,"protocol":"TCP"}]]`
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == want })
		ep := c.Get(t, app.Endpoints, "default", "web")
		require.Equal(t, map[string]string{"tier": "front", "endpoints.kubernetes.io/managed-by": "endpoint-controller"}, ep.GetLabels())
		require.NotEmpty(t, ep.GetAnnotations()["endpoints.kubernetes.io/last-change-trigger-time"])
		addr := ep.Object["subsets"].([]any)[0].(map[string]any)["addresses"].([]any)[0].(map[string]any)
		require.Equal(t, "n1", addr["nodeName"])
		require.Equal(t, "web-1", addr["targetRef"].(map[string]any)["name"])

		setPodStatus(t, c, "default", "web-2", "10.0.0.3", true)
		want = `[a:10.0.0.1 a:10.0.0.2 a:10.0.0.3 [{"name":"http","port":8080,"protocol":"TCP"}]]`
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == want })

		// deleted by hand, it comes back; deleted with its Service, it goes
		ctx := context.Background()
		require.NoError(t, c.Client.Resource(app.Endpoints).Namespace("default").Delete(ctx, "web", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == want })
		require.NoError(t, c.Client.Resource(app.Services).Namespace("default").Delete(ctx, "web", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return c.Get(t, app.Endpoints, "default", "web") == nil })
	})
}

// TestCh14_Endpoints_PublishNotReadyAndHeadless: publishNotReadyAddresses lists every pod as
// ready; a headless Service is labelled so.
func TestCh14_Endpoints_PublishNotReadyAndHeadless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}})
		c.Create(t, app.Services, "default", webService("db", map[string]any{"publishNotReadyAddresses": true, "clusterIP": "None"}))
		createPod(t, c, "default", "db-0", "n1", map[string]any{"app": "db"})
		setPodStatus(t, c, "default", "db-0", "10.0.0.7", false)
		want := `[a:10.0.0.7 [{"name":"http","port":8080,"protocol":"TCP"}]]`
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "db") == want })
		require.Contains(t, c.Get(t, app.Endpoints, "default", "db").GetLabels(), "service.kubernetes.io/headless")
	})
}

// TestCh14_Endpoints_OverCapacity: past 1000 addresses the Endpoints is cut to 1000 and
// annotated; back under, the annotation goes.
func TestCh14_Endpoints_OverCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}})
		// the pods first: until the Service exists their events cost nothing
		bulkReadyPods(t, c, "big", "big", 1005, func(i int) string { return fmt.Sprintf("10.2.%d.%d", i/250, i%250+1) })
		c.Create(t, app.Services, "default", webService("big", nil))
		count := func() int {
			ep := c.Get(t, app.Endpoints, "default", "big")
			if ep == nil {
				return 0
			}
			n := 0
			for _, s := range ep.Object["subsets"].([]any) {
				as, _ := s.(map[string]any)["addresses"].([]any)
				n += len(as)
			}
			return n
		}
		c.Eventually(t, 60*time.Second, func() bool {
			return count() == 1000 && c.Get(t, app.Endpoints, "default", "big").GetAnnotations()["endpoints.kubernetes.io/over-capacity"] == "truncated"
		})
		for i := range 10 {
			require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), fmt.Sprintf("big-%04d", i), api.DeleteOptions{GracePeriodSeconds: new(int64)}))
		}
		c.Eventually(t, 60*time.Second, func() bool {
			_, has := c.Get(t, app.Endpoints, "default", "big").GetAnnotations()["endpoints.kubernetes.io/over-capacity"]
			return count() == 995 && !has
		})
	})
}

// TestCh14_Endpoints_Chaos: dropped events, closed watches, a compaction and a restart of
// the controllers converge to the same Endpoints.
func TestCh14_Endpoints_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}})
		c.Create(t, app.Services, "default", webService("web", nil))
		for i := range 6 {
			switch i {
			case 2:
				c.Server.DropNextEvents(apiserver.DropRule{Count: 3})
			case 3:
				c.Server.CloseAllWatches()
				c.Server.CompactAll()
			case 4:
				c.Manager.Stop()
				m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"endpoints"}})
				require.NoError(t, err)
				t.Cleanup(m.Stop)
			}
			name := fmt.Sprintf("web-%d", i)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			setPodStatus(t, c, "default", name, fmt.Sprintf("10.0.0.%d", i+1), i%2 == 0)
		}
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		want := `[a:10.0.0.1 a:10.0.0.3 a:10.0.0.5 n:10.0.0.2 n:10.0.0.4 n:10.0.0.6 [{"name":"http","port":8080,"protocol":"TCP"}]]`
		c.Eventually(t, 60*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == want })
	})
}

// TestCh14_Endpoints_SkippedServicesAndTerminatingPods: Services without a selector or of
// type ExternalName get no Endpoints from the controller; a terminating pod leaves the
// Endpoints at once.
func TestCh14_Endpoints_SkippedServicesAndTerminatingPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}})
		noSel := webService("manual", nil)
		delete(noSel["spec"].(map[string]any), "selector")
		c.Create(t, app.Services, "default", noSel)
		c.Create(t, app.Services, "default", map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "ext"},
			"spec": map[string]any{"type": "ExternalName", "externalName": "example.com", "selector": map[string]any{"app": "web"}}})
		c.Create(t, app.Services, "default", webService("web", nil))
		c.Create(t, app.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "web-0", "labels": map[string]any{"app": "web"}, "finalizers": []any{"example.com/hold"}},
			// Bound, as every pod with an IP is: the controller writes the pod's nodeName into
			// its address, and the server refuses an empty one (validateEndpointAddress).
			"spec": map[string]any{"nodeName": "n1", "containers": []any{map[string]any{"name": "c", "image": "nginx",
				"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080)}}}}}})
		setPodStatus(t, c, "default", "web-0", "10.0.0.1", true)
		want := `[a:10.0.0.1 [{"name":"http","port":8080,"protocol":"TCP"}]]`
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == want })
		require.Nil(t, c.Get(t, app.Endpoints, "default", "manual"))
		require.Nil(t, c.Get(t, app.Endpoints, "default", "ext"))
		ctx := context.Background()
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(ctx, "web-0", api.DeleteOptions{}))
		c.Eventually(t, 10*time.Second, func() bool { return subsetsJSON(t, c, "default", "web") == "[]" })
		_, err := c.Client.Resource(app.Pods).Namespace("default").Patch(ctx, "web-0", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
	})
}
