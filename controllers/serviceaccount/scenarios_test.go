package serviceaccount_test

import (
	"context"
	"flag"
	"os"
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

// TestCh14_ServiceAccount_GoldenTrace: the controller's writes for a fixed scenario: the
// server's own namespaces at start, a new namespace, its account deleted.
func TestCh14_ServiceAccount_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		c := cluster.Start(t, cluster.Options{Controllers: []string{"serviceaccount"}, Logger: trace.NewPlainLogger(&buf)})
		c.Settle()
		c.Create(t, app.Namespaces, "", nsObj("team-a"))
		c.Settle()
		require.NoError(t, c.Client.Resource(app.ServiceAccounts).Namespace("team-a").Delete(context.Background(), "default", api.DeleteOptions{}))
		c.Settle()
		var lines []string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "component=service-account-controller ") && strings.Contains(l, " op=create ") {
				lines = append(lines, l[strings.Index(l, "component="):])
			}
		}
		// one worker takes the namespaces of the start in the order of the informer's list
		got := strings.Join(lines, "\n") + "\n"
		const path = "testdata/serviceaccount.golden"
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			return
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run with -update to write it")
		require.Equal(t, string(want), got)
	})
}

// TestCh14_ServiceAccount_Chaos: dropped events, closed watches, a compaction and a restart
// of the controller: every namespace still ends with its default account.
func TestCh14_ServiceAccount_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"serviceaccount"}})
		names := []string{"a", "b", "c", "d", "e"}
		for i, n := range names {
			switch i {
			case 1:
				c.Server.DropNextEvents(apiserver.DropRule{Count: 2})
			case 2:
				c.Server.CloseAllWatches()
				c.Server.CompactAll()
			case 3:
				c.Manager.Stop()
				m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"serviceaccount"}})
				require.NoError(t, err)
				t.Cleanup(m.Stop)
			}
			c.Create(t, app.Namespaces, "", nsObj(n))
		}
		c.Server.CloseAllWatches()
		c.Server.CompactAll()
		for _, n := range names {
			c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.ServiceAccounts, n, "default") != nil }, n)
		}
	})
}
