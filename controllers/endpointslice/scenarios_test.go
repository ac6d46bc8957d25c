package endpointslice_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestCh14_EndpointSlice_MaxEndpointsPerSlice: 230 ready pods make three slices of at most
// 100 endpoints; scaled down to 30, the emptied slices go.
func TestCh14_EndpointSlice_MaxEndpointsPerSlice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}})
		createNode(t, c, "n1", "")
		// the pods first: until the Service exists their events cost nothing
		bulkReadyPods(t, c, "big", "big", 230, func(i int) string { return fmt.Sprintf("10.1.%d.%d", i/200, i%200+1) })
		c.Create(t, app.Services, "default", webService("big", nil))
		sizes := func() []int {
			var out []int
			for _, s := range slicesOf(t, c, "default", "big") {
				eps, _ := s.Object["endpoints"].([]any)
				out = append(out, len(eps))
			}
			return out
		}
		total := func() int {
			n := 0
			for _, x := range sizes() {
				require.LessOrEqual(t, x, 100)
				n += x
			}
			return n
		}
		c.Eventually(t, 30*time.Second, func() bool { return total() == 230 && len(sizes()) == 3 }, "sizes %v", sizes)
		for i := 30; i < 230; i++ {
			require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), fmt.Sprintf("big-%04d", i), zeroGrace()))
		}
		c.Eventually(t, 30*time.Second, func() bool { return total() == 30 })
		require.Less(t, len(sizes()), 3)
	})
}

// TestCh14_EndpointSlice_PublishNotReadyAndPlaceholder: a Service that publishes not-ready
// addresses marks every endpoint ready, even with its node missing; a Service without
// endpoints keeps one empty placeholder slice; a Service without a selector gets none.
func TestCh14_EndpointSlice_PublishNotReadyAndPlaceholder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}})
		c.Create(t, app.Services, "default", webService("db", map[string]any{"publishNotReadyAddresses": true, "clusterIP": "None"}))
		createPod(t, c, "default", "db-0", "gone", map[string]any{"app": "db"})
		setPodStatus(t, c, "default", "db-0", "10.0.0.7", false)
		c.Eventually(t, 10*time.Second, func() bool {
			return fmt.Sprint(endpointsOf(t, c, "default", "db")) == "map[10.0.0.7:true/false/false]"
		})
		require.Contains(t, slicesOf(t, c, "default", "db")[0].GetLabels(), "service.kubernetes.io/headless")

		c.Create(t, app.Services, "default", webService("empty", nil))
		noSel := webService("manual", nil)
		delete(noSel["spec"].(map[string]any), "selector")
		c.Create(t, app.Services, "default", noSel)
		c.Eventually(t, 10*time.Second, func() bool { return len(slicesOf(t, c, "default", "empty")) == 1 })
		ph := slicesOf(t, c, "default", "empty")[0]
		require.Empty(t, ph.Object["endpoints"])
		require.Empty(t, ph.Object["ports"])
		c.Settle()
		require.Empty(t, slicesOf(t, c, "default", "manual"))
	})
}

func zeroGrace() api.DeleteOptions { return api.DeleteOptions{GracePeriodSeconds: new(int64)} }

// normalize replaces the server's random name suffixes, so a trace reads the same every run.
var generated = regexp.MustCompile(`\b(web-)[a-z0-9]{5}\b`)

// TestCh14_EndpointSlice_GoldenTrace: the controller's hops for a fixed scenario, one step at
// a time: a Service, its placeholder, two pods becoming ready, one deleted.
func TestCh14_EndpointSlice_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}, Logger: trace.NewPlainLogger(&buf)})
		createNode(t, c, "n1", "zone-a")
		c.Settle()
		c.Create(t, app.Services, "default", webService("web", nil))
		c.Settle()
		for i := range 2 {
			name := fmt.Sprintf("web-%d", i)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			c.Settle()
			setPodStatus(t, c, "default", name, fmt.Sprintf("10.0.0.%d", i+1), true)
			c.Settle()
		}
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(context.Background(), "web-0", zeroGrace()))
		c.Settle()
		checkGolden(t, "testdata/endpointslice.golden", hops(buf.String(), "component=endpointslice-controller"))
	})
}

// hops keeps the writes of one component, without the message: how often a Service is
// synced depends on how the queue happened to merge its keys, what it writes does not.
func hops(log, component string) string {
	var b strings.Builder
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, component+" ") || strings.Contains(l, " op=sync ") {
			continue
		}
		if i := strings.Index(l, "component="); i >= 0 {
			l = l[i:]
		}
		b.WriteString(generated.ReplaceAllString(l, "${1}xxxxx") + "\n")
	}
	return b.String()
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to write it")
	require.Equal(t, string(want), got)
}

// TestCh14_EndpointSlice_Chaos: dropped events, closed watches, a compaction (410 on the
// next watch) and a restart of the controllers half-way converge to the same slices.
func TestCh14_EndpointSlice_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpointslice"}})
		createNode(t, c, "n1", "")
		c.Create(t, app.Services, "default", webService("web", nil))
		want := map[string]string{}
		for i := range 6 {
			if i == 2 {
				c.Server.DropNextEvents(apiserver.DropRule{Count: 3})
			}
			if i == 3 {
				c.Server.CloseAllWatches()
				c.Server.CompactAll()
			}
			if i == 4 {
				c.Manager.Stop()
				m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"endpointslice"}})
				require.NoError(t, err)
				t.Cleanup(m.Stop)
			}
			name, ip := fmt.Sprintf("web-%d", i), fmt.Sprintf("10.0.0.%d", i+1)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			setPodStatus(t, c, "default", name, ip, i%2 == 0)
			want[ip] = fmt.Sprintf("%v/%v/false", i%2 == 0, i%2 == 0)
		}
		// the dropped events are only noticed at the next relist
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		c.Eventually(t, 60*time.Second, func() bool { return fmt.Sprint(endpointsOf(t, c, "default", "web")) == fmt.Sprint(want) })
		require.Len(t, slicesOf(t, c, "default", "web"), 1)
	})
}
