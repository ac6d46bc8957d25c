//go:build unix

package dashboard

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/dashboard/cdp"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// fakePipeline stands in for cmd/demo's pipeline: every Stats call moves the counters on, as
// a running informer would, and Compact causes one relist.
type fakePipeline struct {
	mu       sync.Mutex
	rv       int
	relists  int64
	compacts int
	slow     bool
	pods     int
	cluster  bool // report controllers, as demo serve does
}

func (f *fakePipeline) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rv++
	pending := 0
	if f.slow {
		pending = f.rv % 24
	}
	return Stats{
		ServerRV: strconv.Itoa(1000 + f.rv), ServerObjects: 5 + f.pods, QueueLen: f.rv % 3,
		IndexerSize: 5 + f.pods,
		Listeners: []ListenerStats{
			{Name: "prompt", Pending: f.rv % 2, Capacity: 16},
			{Name: "slow", Pending: pending, Capacity: 32},
		},
		WorkqueueDepth: f.rv % 4, Processing: f.rv % 2, Retries: int64(f.rv / 10),
		Reconciles: int64(f.rv * 3), Relists: f.relists, Lists: 1 + f.relists, Watches: 1 + f.relists,
		Events: int64(f.rv * 2), Tombstones: f.relists,
		Controllers: f.controllerStats(),
	}
}

// controllerStats is what demo serve adds: nothing until the test turns the cluster on.
func (f *fakePipeline) controllerStats() []ControllerStats {
	if !f.cluster {
		return nil
	}
	return []ControllerStats{
		{Name: "replicaset", Depth: f.rv % 5, Hops: int64(f.rv * 4), Writes: int64(f.rv)},
		{Name: "deployment", Depth: f.rv % 3, Hops: int64(f.rv * 2), Writes: int64(f.rv / 2)},
	}
}

func (f *fakePipeline) setCluster() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cluster = true
}

func (f *fakePipeline) DropNextEvents(int) error { return nil }
func (f *fakePipeline) Compact() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.compacts++
	f.relists++ // the reflector's resumed watch gets 410 Gone and lists again
	return nil
}
func (f *fakePipeline) CloseWatches() error { return nil }
func (f *fakePipeline) ToggleSlowHandler() (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slow = !f.slow
	return f.slow, nil
}
func (f *fakePipeline) CreatePod() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pods++
	return fmt.Sprintf("pod-%d", f.pods), nil
}
func (f *fakePipeline) DeletePod() (string, error) { return "pod-1", nil }

func (f *fakePipeline) compactCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.compacts
}

// TestDashboard_Browser loads the dashboard in headless Chromium, driven over the DevTools
// protocol: the counters must change live, a real click on "Compact" must reach the fake and
// make the relist counter rise, trace records must reach the log, and the page must raise no
// JavaScript error. It saves a screenshot under $E2E_ARTIFACTS (else a temporary directory).
//
// It skips only when no Chromium is installed, and fails even then if $E2E_REQUIRE_BROWSER
// is set, so CI cannot pass without really running it.
func TestDashboard_Browser(t *testing.T) {
	path := cdp.RequireChromium(t)

	hub := NewHub()
	fake := &fakePipeline{}
	srv := httptest.NewServer(New(Options{
		Hub: hub, Actions: fake, Stats: fake.Stats, Title: "informer-lab e2e",
		StatsInterval: 100 * time.Millisecond,
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections() // the page's event stream would otherwise hold Close
		srv.Close()
	})

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	b, err := cdp.Launch(path)
	require.NoError(t, err, "starting %s", path)
	t.Cleanup(func() { assert.NoError(t, b.Close()) }) // runs before the server closes
	defer func() {
		if t.Failed() {
			t.Logf("chromium output:\n%s", b.Output())
		}
	}()

	p, err := b.NewPage(ctx, 1280, 1000)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, srv.URL+"/"))

	step := func(what, expr string) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		require.NoError(t, p.WaitFor(stepCtx, what, expr))
	}
	text := func(id string) string {
		t.Helper()
		var s string
		require.NoError(t, p.Eval(ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, id), &s))
		return s
	}

	step("the event stream to connect", `document.body.dataset.connected === 'true'`)
	step("the first stats", `/^\d+$/.test(document.getElementById('c-serverRV').textContent)`)
	assert.Equal(t, "live", text("conn"))
	var title string
	require.NoError(t, p.Eval(ctx, `document.querySelector('h1').textContent`, &title))
	assert.Equal(t, "informer-lab e2e", title)

	// Counters update live: the server RV moves on twice without any reload.
	rv1, err := strconv.Atoi(text("c-serverRV"))
	require.NoError(t, err)
	step("the server RV to move on", fmt.Sprintf(`+document.getElementById('c-serverRV').textContent > %d`, rv1))
	rv2, err := strconv.Atoi(text("c-serverRV"))
	require.NoError(t, err)
	step("the server RV to move on again", fmt.Sprintf(`+document.getElementById('c-serverRV').textContent > %d`, rv2))
	step("a listener row per listener, with its ring capacity",
		`[...document.querySelectorAll('#listeners .listener [data-counter=capacity]')].map(e => e.textContent).join() === '16,32'`)

	// Trace records reach the log and light up their box.
	require.NoError(t, waitSubscribed(ctx, hub))
	l := slog.New(hub)
	trace.Hop(l, "reflector", "watch-event", "default/e2e-pod", "1042", slog.String(trace.KeyType, "ADDED"))
	trace.Hop(l, "indexer", "add", "default/e2e-pod", "1042")
	trace.Hop(l, "handler", "OnAdd", "default/e2e-pod", "1042", slog.String(trace.KeyListener, "prompt"))
	step("the trace records in the log",
		`[...document.querySelectorAll('#log li')].filter(li => li.textContent.includes('default/e2e-pod')).length === 3`)
	step("the indexer box to show its last op",
		`document.getElementById('last-indexer').textContent === 'add default/e2e-pod'`)

	// The log stays bounded in the DOM however many records arrive.
	for i := range 400 {
		trace.Hop(l, "workqueue", "add", fmt.Sprintf("default/burst-%d", i), "1043")
	}
	step("the burst's last record in the log",
		`[...document.querySelectorAll('#log li')].some(li => li.textContent.includes('default/burst-399 '))`)
	var entries int
	require.NoError(t, p.Eval(ctx, `document.querySelectorAll('#log li').length`, &entries))
	assert.Equal(t, 300, entries, "the log keeps its last 300 entries")

	// A real click on "Compact" reaches the fake, and the relist counter rises.
	relists, err := strconv.Atoi(text("c-relists"))
	require.NoError(t, err)
	require.NoError(t, p.Click(ctx, `button[data-action="compact"]`))
	step("the compact answer", `document.getElementById('action-result').textContent.includes('history compacted')`)
	assert.Equal(t, 1, fake.compactCalls())
	step("the relist counter to rise", fmt.Sprintf(`+document.getElementById('c-relists').textContent === %d`, relists+1))

	// Toggle the slow handler so the screenshot shows a filling ring buffer.
	require.NoError(t, p.Click(ctx, `button[data-action="toggle-slow"]`))
	step("the slow state", `document.getElementById('slow-state').textContent === 'on'`)
	step("the slow listener's buffer to fill",
		`+document.querySelectorAll('#listeners .listener [data-counter=pending]')[1].textContent > 8`)

	step("lit boxes to cool down again", `document.querySelectorAll('.box.hot').length === 0`)
	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")

	shot, err := p.Screenshot(ctx)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "the screenshot is a PNG")
	assert.GreaterOrEqual(t, img.Bounds().Dx(), 1280)
	cdp.SaveArtifact(t, "dashboard.png", shot)

	// demo serve: the stats carry the cluster's controllers. A row each, sorted; the diagram
	// of one informer gives way; a controller's write shows its cause.
	fake.setCluster()
	step("a row per controller, sorted by name",
		`[...document.querySelectorAll('#controller-rows tr')].map(tr => tr.dataset.controller).join() === 'deployment,replicaset'`)
	step("the controllers panel to show, in place of the one-informer diagram",
		`!document.getElementById('controllers-panel').hidden && document.getElementById('diagram-panel').hidden`)
	step("the server's RV in the controllers panel", `/^\d+$/.test(document.getElementById('cl-rv').textContent)`)
	trace.Hop(l, "replicaset", "create", "default/web-7d9f-x2x", "1044", slog.String("cause", "1 of 3 replicas missing"))
	step("the replicaset row to show its write with the cause",
		`document.querySelector('#controller-rows tr[data-controller=replicaset] td.last').textContent === 'create default/web-7d9f-x2x cause=1 of 3 replicas missing'`)

	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")
	shot, err = p.Screenshot(ctx)
	require.NoError(t, err)
	cdp.SaveArtifact(t, "dashboard-cluster.png", shot)
}

// waitSubscribed polls until the page's event stream has subscribed to the hub.
func waitSubscribed(ctx context.Context, hub *Hub) error {
	ticker := time.NewTicker(20 * time.Millisecond)
	defer ticker.Stop()
	for hub.Subscribers() == 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("no subscriber: %w", ctx.Err())
		case <-ticker.C:
		}
	}
	return nil
}

// TestDashboard_BrowserChinese opens the page with ?lang=zh in headless Chromium: the static
// labels, the ones the script writes (the connection pill, the listener rows, the answer of
// a button, the slow state, the pause button) are Chinese, and the page raises no error.
func TestDashboard_BrowserChinese(t *testing.T) {
	path := cdp.RequireChromium(t)
	fake := &fakePipeline{}
	srv := httptest.NewServer(New(Options{Hub: NewHub(), Actions: fake, Stats: fake.Stats,
		Title: "informer-lab e2e", StatsInterval: 100 * time.Millisecond}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	b, err := cdp.Launch(path)
	require.NoError(t, err, "starting %s", path)
	t.Cleanup(func() { assert.NoError(t, b.Close()) })
	p, err := b.NewPage(ctx, 1280, 1000)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, srv.URL+"/?lang=zh"))
	step := func(what, expr string) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		require.NoError(t, p.WaitFor(stepCtx, what, expr))
	}
	eval := func(expr string) string {
		t.Helper()
		var s string
		require.NoError(t, p.Eval(ctx, expr, &s))
		return s
	}

	step("the event stream to connect", `document.body.dataset.connected === 'true'`)
	assert.Equal(t, "zh-CN", eval(`document.documentElement.lang`))
	assert.Equal(t, "已连接", eval(`document.getElementById('conn').textContent`))
	assert.Equal(t, "让服务器出点故障", eval(`document.querySelector('#controls h2').textContent`))
	assert.Equal(t, "事件日志", eval(`document.querySelector('#log-panel h2').textContent`))
	assert.Equal(t, "English", eval(`document.getElementById('lang-switch').textContent`))
	step("a listener row per listener, titled in Chinese",
		`[...document.querySelectorAll('#listeners .listener text.title')].map(e => e.textContent).join() === 'listener prompt,listener slow'`)
	assert.Contains(t, eval(`document.querySelector('#listeners .listener text:not(.title)').textContent`), "积压")

	require.NoError(t, p.Click(ctx, `button[data-action="compact"]`))
	step("the compact answer in Chinese", `document.getElementById('action-result').textContent.startsWith('历史已压缩')`)
	require.NoError(t, p.Click(ctx, `button[data-action="toggle-slow"]`))
	step("the slow state in Chinese", `document.getElementById('slow-state').textContent === '开'`)
	require.NoError(t, p.Click(ctx, `#pause`))
	step("the pause button in Chinese", `document.getElementById('pause').textContent === '继续'`)

	assert.Empty(t, b.Errors(), "the page raised JavaScript errors")
	shot, err := p.Screenshot(ctx)
	require.NoError(t, err)
	cdp.SaveArtifact(t, "dashboard-zh.png", shot)
}
