//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/dashboard/cdp"
)

// TestDemo_ServeDashboardInBrowser is the end-to-end check of `demo serve --ui`: the
// simulated apiserver with the cluster's ReplicaSet controller behind the dashboard, in
// headless Chromium. A ReplicaSet created through the kubeconfig makes the controller's row
// count its hops and writes, its last hop names a cause, its writes reach the log, and the
// Compact button reaches the server. A screenshot is saved as dashboard-demo-serve.png.
//
// It skips only without Chromium, and fails then too when $E2E_REQUIRE_BROWSER is set.
func TestDemo_ServeDashboardInBrowser(t *testing.T) {
	path := cdp.RequireChromium(t)
	ready, _ := startServe(t, "--controllers=replicaset", "--nodes=0", "--seed-pods=0", "--ui", "127.0.0.1:0")

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	b, err := cdp.Launch(path)
	require.NoError(t, err, "starting %s", path)
	t.Cleanup(func() { assert.NoError(t, b.Close()) }) // runs before serve stops
	defer func() {
		if t.Failed() {
			t.Logf("chromium output:\n%s", b.Output())
		}
	}()
	p, err := b.NewPage(ctx, 1280, 1000)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, ready.ui))
	step := func(what, expr string) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		require.NoError(t, p.WaitFor(stepCtx, what, expr))
	}
	row := `document.querySelector('#controller-rows tr[data-controller=replicaset]')`

	step("the event stream to connect", `document.body.dataset.connected === 'true'`)
	step("the controllers panel with the replicaset row", `!document.getElementById('controllers-panel').hidden && `+row+` !== null`)

	cfg, err := clientcmd.BuildConfigFromKubeconfig(ready.kubeconfig)
	require.NoError(t, err)
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	labels := map[string]any{"app": "web"}
	_, err = dc.Resource(app.ReplicaSets).Namespace("default").Create(ctx, &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": int64(3), "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}}}},
	}}, api.CreateOptions{})
	require.NoError(t, err)

	step("the row to count three writes at least", `+`+row+`.querySelector('td.writes').textContent >= 3`)
	step("the row's hops to outnumber its writes",
		`+`+row+`.querySelector('td.hops').textContent > +`+row+`.querySelector('td.writes').textContent`)
	step("the pod creations, with their cause, in the log", fmt.Sprintf(`[...document.querySelectorAll('#log li')].filter(li =>
		li.querySelector('.c').textContent === 'replicaset' && li.textContent.includes(%q)).length >= 3`, "cause="))
	step("the row's last hop", row+`.querySelector('td.last').textContent !== ''`)

	require.NoError(t, p.Click(ctx, `button[data-action="compact"]`))
	step("the compact answer", `document.getElementById('action-result').textContent.includes('history compacted')`)
	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")

	shot, err := p.Screenshot(ctx)
	require.NoError(t, err)
	_, err = png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "the screenshot is a PNG")
	cdp.SaveArtifact(t, "dashboard-demo-serve.png", shot)
}
