//go:build unix

package cdp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeExecutable writes an executable shell script named name into dir.
func fakeExecutable(t *testing.T, dir, name, script string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	return p
}

// TestFindChromium: $E2E_CHROMIUM wins, then the usual names on PATH in order; nothing
// found is reported, not guessed.
func TestFindChromium(t *testing.T) {
	tests := []struct {
		name    string
		env     string
		onPath  []string
		want    string // a name under the PATH directory, or the env value
		wantOK  bool
		fromEnv bool
	}{
		{name: "env wins", env: "/opt/my-chrome", onPath: []string{"chromium"}, want: "/opt/my-chrome", wantOK: true, fromEnv: true},
		{name: "debian package", onPath: []string{"chromium"}, want: "chromium", wantOK: true},
		{name: "ubuntu name", onPath: []string{"chromium-browser"}, want: "chromium-browser", wantOK: true},
		{name: "chromium before chrome", onPath: []string{"google-chrome", "chromium"}, want: "chromium", wantOK: true},
		{name: "chrome", onPath: []string{"google-chrome"}, want: "google-chrome", wantOK: true},
		{name: "none", wantOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range tc.onPath {
				fakeExecutable(t, dir, n, "exit 0")
			}
			t.Setenv("PATH", dir)
			t.Setenv(EnvChromium, tc.env)
			got, ok := FindChromium()
			assert.Equal(t, tc.wantOK, ok)
			switch {
			case !tc.wantOK:
				assert.Empty(t, got)
			case tc.fromEnv:
				assert.Equal(t, tc.want, got)
			default:
				assert.Equal(t, filepath.Join(dir, tc.want), got)
			}
		})
	}
}

// TestSaveArtifact: the file lands under $E2E_ARTIFACTS, whose directories are created.
func TestSaveArtifact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "artifacts", "e2e")
	t.Setenv(EnvArtifacts, dir)
	got := SaveArtifact(t, "shot.png", []byte("png bytes"))
	assert.Equal(t, filepath.Join(dir, "shot.png"), got)
	data, err := os.ReadFile(got)
	require.NoError(t, err)
	assert.Equal(t, "png bytes", string(data))
}

// TestLaunch_BrowserThatExits: a "browser" that quits at once makes the next call fail
// promptly instead of hanging (contract 3), and Close still reaps it and removes the profile
// (contract 2).
func TestLaunch_BrowserThatExits(t *testing.T) {
	path := fakeExecutable(t, t.TempDir(), "chromium", "exit 0")
	b, err := Launch(path)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	_, err = b.NewPage(ctx, 800, 600)
	require.Error(t, err)
	assert.NoError(t, ctx.Err(), "the call failed because the browser went away, not by timing out")
	assert.NoError(t, b.Close())
	_, statErr := os.Stat(b.profile)
	assert.True(t, os.IsNotExist(statErr), "the throwaway profile is removed")
}

// TestLimitedBuffer keeps the first bytes only, and says every write succeeded in full, so
// a chatty browser never blocks on its output.
func TestLimitedBuffer(t *testing.T) {
	l := &limitedBuffer{max: 8}
	for _, s := range []string{"hello ", "world", "!"} {
		n, err := l.Write([]byte(s))
		require.NoError(t, err)
		assert.Equal(t, len(s), n)
	}
	assert.Equal(t, "hello wo", l.String())
}

// clickPage has three buttons that a naive click misses: one disabled for a while, one
// covered by an overlay for a while, and one that jumps down the first time the mouse moves,
// which is the layout shift between measuring and pressing that a live dashboard can cause.
const clickPage = `<!doctype html><html><body style="margin:0">
<div id="spacer"></div>
<button id="late" disabled>late</button>
<div style="position:relative"><button id="covered">covered</button>
  <div id="overlay" style="position:absolute;inset:0;background:#fff"></div></div>
<button id="jumpy">jumpy</button>
<script>
  window.clicks = {late: 0, covered: 0, jumpy: 0};
  for (const id of Object.keys(window.clicks)) {
    document.getElementById(id).addEventListener('click', () => window.clicks[id]++);
  }
  setTimeout(() => { document.getElementById('late').disabled = false; }, 300);
  setTimeout(() => { document.getElementById('overlay').remove(); }, 300);
  let moved = false;
  document.addEventListener('mousemove', () => {
    if (moved) return;
    moved = true;
    document.getElementById('spacer').style.height = '200px';
  });
  window.ready = true;
</script></body></html>`

// TestClickBrowser: Click keeps trying until the element itself receives the click, and a
// click that landed is never repeated: every button counts exactly one click.
func TestClickBrowser(t *testing.T) {
	path := RequireChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, clickPage)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	b, err := Launch(path)
	require.NoError(t, err)
	defer func() { assert.NoError(t, b.Close()) }()
	p, err := b.NewPage(ctx, 800, 600)
	require.NoError(t, err)
	require.NoError(t, p.Navigate(ctx, srv.URL))
	require.NoError(t, p.WaitFor(ctx, "the page", `window.ready === true`))

	for _, id := range []string{"jumpy", "late", "covered"} {
		require.NoError(t, p.Click(ctx, "#"+id), id)
	}
	var clicks map[string]int
	require.NoError(t, p.Eval(ctx, `window.clicks`, &clicks))
	assert.Equal(t, map[string]int{"late": 1, "covered": 1, "jumpy": 1}, clicks)

	// A selector that matches nothing fails when ctx ends, and the error names it.
	short, cancelShort := context.WithTimeout(ctx, time.Second)
	defer cancelShort()
	assert.ErrorContains(t, p.Click(short, "#missing"), "no element matches #missing")
}
