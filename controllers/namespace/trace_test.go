package namespace_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// lockedBuffer is a bytes.Buffer the controllers' goroutines write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var rvRE = regexp.MustCompile(` rv=\d+`)

// writes keeps the controller's writes from a trace, resourceVersions masked, each distinct
// write once (a sync queued again by the controller's own status write repeats nothing).
func writes(log string) string {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "component=namespace-controller") || strings.Contains(l, " op=sync ") || strings.Contains(l, " op=sync-done ") {
			continue
		}
		l = rvRE.ReplaceAllString(l, " rv=<rv>")
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// TestCh14_Namespace_GoldenTrace: the controller's writes for a namespace whose content a
// finalizer holds for a while, against testdata/namespace.golden (-update rewrites it).
func TestCh14_Namespace_GoldenTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		buf := &lockedBuffer{}
		c := cluster.Start(t, cluster.Options{Controllers: []string{"namespace"}, Logger: trace.NewPlainLogger(buf)})
		c.Create(t, app.Namespaces, "", named("v1", "Namespace", "team"))
		held := named("v1", "ConfigMap", "held")
		held["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
		c.Create(t, configMaps, "team", held)
		c.Create(t, secrets, "team", named("v1", "Secret", "s"))
		require.NoError(t, c.Client.Resource(app.Namespaces).Delete(context.Background(), "team", api.DeleteOptions{}))
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, secrets, "team", "s") == nil })
		time.Sleep(30 * time.Second)
		_, err := c.Client.Resource(configMaps).Namespace("team").Patch(context.Background(), "held", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), api.PatchOptions{})
		require.NoError(t, err)
		c.Eventually(t, time.Minute, func() bool { return c.Get(t, app.Namespaces, "", "team") == nil })
		got := writes(buf.String())
		const file = "testdata/namespace.golden"
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
		}
		want, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(want), got)
	})
}

// TestCh14_Namespace_Chaos: namespaces are deleted while the controller misses their
// Terminating marks, its watches are cut after a compaction (410 on resume) and the manager
// restarts; every namespace still goes, and one not deleted stays with its content.
func TestCh14_Namespace_Chaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := cluster.Start(t, cluster.Options{Controllers: []string{"namespace"}})
		const n = 4
		for i := range n + 1 {
			ns := fmt.Sprintf("ns-%d", i)
			c.Create(t, app.Namespaces, "", named("v1", "Namespace", ns))
			for j := range 10 {
				c.Create(t, configMaps, ns, named("v1", "ConfigMap", fmt.Sprintf("cm-%d", j)))
			}
		}
		c.Settle()
		c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "ns-0", Type: watch.Modified})
		c.Server.DropNextEvents(apiserver.DropRule{Count: 1, Key: "ns-1", Type: watch.Modified})
		for i := range 2 {
			require.NoError(t, c.Client.Resource(app.Namespaces).Delete(context.Background(), fmt.Sprintf("ns-%d", i), api.DeleteOptions{}))
		}
		c.Settle()
		c.Server.CompactAll()
		c.Server.CloseAllWatches()
		c.Manager.Stop()
		for i := 2; i < n; i++ {
			require.NoError(t, c.Client.Resource(app.Namespaces).Delete(context.Background(), fmt.Sprintf("ns-%d", i), api.DeleteOptions{}))
		}
		m, err := controllers.Start(context.Background(), controllers.Options{Config: c.Config, Controllers: []string{"namespace"}})
		require.NoError(t, err)
		t.Cleanup(m.Stop)
		c.Eventually(t, 5*time.Minute, func() bool {
			for i := range n {
				if c.Get(t, app.Namespaces, "", fmt.Sprintf("ns-%d", i)) != nil {
					return false
				}
			}
			return true
		})
		assert.Len(t, c.List(t, configMaps, fmt.Sprintf("ns-%d", n)), 10)
		for i := range n {
			assert.Empty(t, c.List(t, configMaps, fmt.Sprintf("ns-%d", i)))
		}
	})
}
