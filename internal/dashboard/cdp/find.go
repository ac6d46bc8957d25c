//go:build unix

package cdp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Environment variables the browser tests read.
const (
	// EnvChromium names the browser binary to use instead of looking on PATH.
	EnvChromium = "E2E_CHROMIUM"
	// EnvRequire, when set to anything, turns "no Chromium installed" from a skip into a
	// failure, so that CI cannot pass without running the browser tests.
	EnvRequire = "E2E_REQUIRE_BROWSER"
	// EnvArtifacts is the directory where the tests save their screenshots.
	EnvArtifacts = "E2E_ARTIFACTS"
)

// FindChromium returns the browser to drive: $E2E_CHROMIUM if set, else the first of the
// usual names on PATH. Debian's package is "chromium" (/usr/bin/chromium).
func FindChromium() (string, bool) {
	if p := os.Getenv(EnvChromium); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome-stable", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// RequireChromium returns the browser for a test. Without one it skips the test with a
// message that says how to install it, or fails it when $E2E_REQUIRE_BROWSER is set.
func RequireChromium(t testing.TB) string {
	t.Helper()
	path, ok := FindChromium()
	if !ok {
		msg := "e2e-browser: no Chromium found ($" + EnvChromium + ", chromium, chromium-browser, google-chrome " +
			"on PATH); install it with `apt-get install -y chromium` to run this test"
		if os.Getenv(EnvRequire) != "" {
			t.Fatal(msg + " ($" + EnvRequire + " is set)")
		}
		t.Skip(msg)
	}
	return path
}

// SaveArtifact writes data to name under $E2E_ARTIFACTS (a temporary directory of the test
// when unset), logs where, and returns the path.
func SaveArtifact(t testing.TB, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv(EnvArtifacts)
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("saving %s: %v", name, err)
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatalf("saving %s: %v", name, err)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	t.Logf("artifact: %s", abs)
	return abs
}
