package endpoints_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestCh14_Endpoints_GoldenTrace: the controller's writes for a fixed scenario, one step at a
// time: a Service, two pods becoming ready, one deleted, the Service deleted.
func TestCh14_Endpoints_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"endpoints"}, Logger: trace.NewPlainLogger(&buf)})
		c.Create(t, app.Services, "default", webService("web", nil))
		c.Settle()
		for i := range 2 {
			name := fmt.Sprintf("web-%d", i)
			createPod(t, c, "default", name, "n1", map[string]any{"app": "web"})
			c.Settle()
			setPodStatus(t, c, "default", name, fmt.Sprintf("10.0.0.%d", i+1), true)
			c.Settle()
		}
		ctx := context.Background()
		require.NoError(t, c.Client.Resource(app.Pods).Namespace("default").Delete(ctx, "web-0", api.DeleteOptions{GracePeriodSeconds: new(int64)}))
		c.Settle()
		require.NoError(t, c.Client.Resource(app.Services).Namespace("default").Delete(ctx, "web", api.DeleteOptions{}))
		c.Settle()
		var b strings.Builder
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "component=endpoint-controller") && !strings.Contains(l, " op=sync ") {
				b.WriteString(l[strings.Index(l, "component="):] + "\n")
			}
		}
		const path = "testdata/endpoints.golden"
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			return
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run with -update to write it")
		require.Equal(t, string(want), b.String())
	})
}
