//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/dashboard/cdp"
)

// TestDemo_RunDashboardInBrowser is the end-to-end check of `demo run --ui`: the real
// pipeline (simulated apiserver over HTTP, informer, two handlers, workqueue, workers) behind
// the dashboard, in headless Chromium driven over the DevTools protocol. The buttons are
// clicked as an instructor would: "Create pod" makes the counters and the log move live,
// "Compact" makes the real reflector get 410 Gone and relist once, and "Toggle slow handler"
// makes the audit listener's ring buffer fill while the scheduler's stays empty. The mutator
// is off (--rate 0), so every change on the page comes from a click. A screenshot is saved
// as an artifact (dashboard-demo-run.png under $E2E_ARTIFACTS).
//
// Like the dashboard's own browser test it skips only without Chromium, and fails then too
// when $E2E_REQUIRE_BROWSER is set.
func TestDemo_RunDashboardInBrowser(t *testing.T) {
	path := cdp.RequireChromium(t)

	runCtx, stopRun := context.WithCancel(context.Background())
	out := newLineBuffer()
	errCh := make(chan error, 1)
	go func() {
		errCh <- cmdRun(runCtx, []string{"--ui", "127.0.0.1:0", "--rate", "0", "--pods", "3", "--resync", "0",
			"--slow", "500ms", "--color", "never"}, out)
	}()
	t.Cleanup(func() { // registered first, so it runs after the browser has closed
		stopRun()
		assert.NoError(t, <-errCh)
	})
	line := out.waitFor(t, 15*time.Second, "dashboard: http://")
	url := line[strings.Index(line, "http://"):]

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	b, err := cdp.Launch(path)
	require.NoError(t, err, "starting %s", path)
	t.Cleanup(func() { assert.NoError(t, b.Close()) })
	defer func() {
		if t.Failed() {
			t.Logf("chromium output:\n%s\ndemo run output:\n%s", b.Output(), out.String())
		}
	}()
	p, err := b.NewPage(ctx, 1280, 1000)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, url))

	step := func(what, expr string) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		require.NoError(t, p.WaitFor(stepCtx, what, expr))
	}
	counter := func(id string) int {
		t.Helper()
		var s string
		require.NoError(t, p.Eval(ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, id), &s))
		n, err := strconv.Atoi(s)
		require.NoError(t, err, "counter %s shows %q", id, s)
		return n
	}
	is := func(id string, n int) string {
		return fmt.Sprintf(`document.getElementById(%q).textContent === '%d'`, id, n)
	}
	above := func(id string, n int) string {
		return fmt.Sprintf(`+document.getElementById(%q).textContent > %d`, id, n)
	}
	logHas := func(component, text string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#log li')].some(li =>
			li.querySelector('.c').textContent === %q && li.textContent.includes(%q))`, component, text)
	}
	rings := `[...document.querySelectorAll('#listeners .listener [data-counter=%s]')].map(e => e.textContent).join()`

	// The initial sync, as the stats stream reports it.
	step("the event stream to connect", `document.body.dataset.connected === 'true'`)
	step("three pods on the server", is("c-serverObjects", 3))
	step("three pods in the indexer", is("c-indexerSize", 3))
	step("the two listeners with their initial ring capacity",
		fmt.Sprintf(rings, "capacity")+` === '1024,1024'`)
	step("no relist yet", is("c-relists", 0))

	// "Create pod": the counters move without a reload, and the log shows the new pod's hops
	// down to the worker that schedules it.
	rv, reconciles := counter("c-serverRV"), counter("c-reconciles")
	require.NoError(t, p.Click(ctx, `button[data-action="create-pod"]`))
	step("the create answer", `document.getElementById('action-result').textContent.includes('created pod pod-4')`)
	step("the indexer to hold the new pod", is("c-indexerSize", 4))
	step("the server RV to move on", above("c-serverRV", rv))
	step("the scheduler to reconcile it", above("c-reconciles", reconciles))
	step("the reflector's event in the log", logHas("reflector", "demo/pod-4"))
	step("the worker's reconcile in the log", logHas("worker", "demo/pod-4"))

	// "Compact": the real reflector resumes from a compacted RV, gets 410 Gone and relists.
	require.NoError(t, p.Click(ctx, `button[data-action="compact"]`))
	step("the compact answer", `document.getElementById('action-result').textContent.includes('history compacted')`)
	step("the relist counter to rise to 1", is("c-relists", 1))
	step("the 410 in the log", logHas("reflector", "too old resource version"))
	step("the cache to be whole after the relist", is("c-indexerSize", 4))
	assert.Equal(t, 4, counter("c-serverObjects"), "the compaction's own write is not a pod")

	// "Toggle slow handler", then two more pods: audit's ring fills, the scheduler's does not.
	require.NoError(t, p.Click(ctx, `button[data-action="toggle-slow"]`))
	step("the slow state", `document.getElementById('slow-state').textContent === 'on'`)
	require.NoError(t, p.Click(ctx, `button[data-action="create-pod"]`))
	step("the second create answer", `document.getElementById('action-result').textContent.includes('created pod pod-5')`)
	require.NoError(t, p.Click(ctx, `button[data-action="create-pod"]`))
	step("audit's buffer to fill while the scheduler's stays empty",
		fmt.Sprintf(`(([s, a]) => +s === 0 && +a >= 2)((%s).split(','))`, fmt.Sprintf(rings, "pending")))
	require.NoError(t, p.Click(ctx, `button[data-action="toggle-slow"]`))
	step("the slow state off", `document.getElementById('slow-state').textContent === 'off'`)
	step("audit to catch up", fmt.Sprintf(rings, "pending")+` === '0,0'`)
	step("the six pods in the indexer", is("c-indexerSize", 6))
	assert.Equal(t, 6, counter("c-serverObjects"))
	assert.Equal(t, 1, counter("c-relists"), "no relist but the compaction's")
	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")

	shot, err := p.Screenshot(ctx)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "the screenshot is a PNG")
	assert.GreaterOrEqual(t, img.Bounds().Dx(), 1280)
	cdp.SaveArtifact(t, "dashboard-demo-run.png", shot)
}

// TestDemo_RunDashboardInBrowserChinese: `demo run --ui --lang zh` serves the dashboard in
// Chinese to a browser that asks for no language; a click on "创建 Pod" answers in Chinese
// and the real pipeline's counters move.
func TestDemo_RunDashboardInBrowserChinese(t *testing.T) {
	path := cdp.RequireChromium(t)

	runCtx, stopRun := context.WithCancel(context.Background())
	out := newLineBuffer()
	errCh := make(chan error, 1)
	go func() {
		errCh <- cmdRun(runCtx, []string{"--ui", "127.0.0.1:0", "--rate", "0", "--pods", "2", "--resync", "0",
			"--color", "never", "--lang", "zh"}, out)
	}()
	t.Cleanup(func() {
		stopRun()
		assert.NoError(t, <-errCh)
	})
	line := out.waitFor(t, 15*time.Second, "仪表盘：http://")
	url := line[strings.Index(line, "http://"):]

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	b, err := cdp.Launch(path)
	require.NoError(t, err, "starting %s", path)
	t.Cleanup(func() { assert.NoError(t, b.Close()) })
	p, err := b.NewPage(ctx, 1280, 1000)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, url))
	step := func(what, expr string) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		require.NoError(t, p.WaitFor(stepCtx, what, expr))
	}

	step("the event stream to connect", `document.body.dataset.connected === 'true'`)
	step("two pods in the indexer", `document.getElementById('c-indexerSize').textContent === '2'`)
	var h2 string
	require.NoError(t, p.Eval(ctx, `document.querySelector('#controls h2').textContent`, &h2))
	assert.Equal(t, "让服务器出点故障", h2)
	require.NoError(t, p.Click(ctx, `button[data-action="create-pod"]`))
	step("the create answer in Chinese", `document.getElementById('action-result').textContent === '已创建 Pod pod-3'`)
	step("the indexer to hold the new pod", `document.getElementById('c-indexerSize').textContent === '3'`)
	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")
}
