package scenario

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestScenario_Scripts runs the runner's own scripts.
func TestScenario_Scripts(t *testing.T) {
	RunDir(t, "testdata", *update)
}

// TestScenario_ParseRender: a script survives parse and render unchanged, comments and blank
// lines included, and an empty output is written "ok".
func TestScenario_ParseRender(t *testing.T) {
	text := "# what it teaches\nprofiles classic\n----\nok\n\n# a comment\n\ncreate pod a x=1\n----\nline 1\nline 2\n"
	s, err := parseScript(text)
	require.NoError(t, err)
	require.Len(t, s.blocks, 2)
	assert.Equal(t, "create pod a x=1", s.blocks[1].cmd)
	assert.Equal(t, 8, s.blocks[1].line)
	assert.Equal(t, []string{"line 1", "line 2"}, s.blocks[1].want)
	assert.Equal(t, text, s.render([][]string{nil, {"line 1", "line 2"}}))

	_, err = parseScript("# x\ncreate pod a\nnot a separator\n")
	assert.ErrorContains(t, err, "line 2")
}

// TestScenario_ParseCommand: positional arguments and key=value options.
func TestScenario_ParseCommand(t *testing.T) {
	c := parseCommand("create pod default/a phase=Pending app=web tier-")
	assert.Equal(t, "create", c.name)
	assert.Equal(t, []string{"pod", "default/a", "tier-"}, c.args)
	assert.Equal(t, map[string]string{"phase": "Pending", "app": "web"}, c.opts)
	assert.Equal(t, []string{"phase", "app"}, c.keys)
	assert.Equal(t, "", c.arg(5))
}

// TestScenario_Merge: equal outputs print once, different ones side by side.
func TestScenario_Merge(t *testing.T) {
	got := merge([]string{"classic", "current"}, [][][]string{
		{{"same"}, {"a"}, nil},
		{{"same"}, {"b"}, {"c"}},
	})
	want := [][]string{{"same"}, {"[classic]", "a", "[current]", "b"}, {"[classic]", "ok", "[current]", "c"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatal(d)
	}
}

// TestScenario_MismatchAndUpdate: a wrong expectation is detected, and update rewrites the
// script so that the next run passes.
func TestScenario_MismatchAndUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wrong.txt")
	script := "# a wrong expectation\ncreate pod default/a\n----\nok\n\nshow server\n----\ndefault/a@999\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o644))
	want, got := runAndRender(t, path)
	require.NotEqual(t, want, got)
	assert.Contains(t, got, "show server\n----\ndefault/a@4 Pending\n")

	RunFile(t, path, true)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, got, string(data))
	RunFile(t, path, false)
}

// TestScenario_Recorder: hops are normalised and ordered by lane, log lines always pass the
// filter.
func TestScenario_Recorder(t *testing.T) {
	w, err := newWorld(0)
	require.NoError(t, err)
	defer w.close()
	r := w.rec
	r.line("handler", "h2", "handler h2 OnAdd x")
	w.log.Debug("fifo pop", "component", "fifo", "op", "pop", "key", "ns/a", "rv", "5")
	w.log.Debug("reflector backoff", "component", "reflector", "op", "backoff", "key", "", "rv", "3", "delay", "1.2s")
	w.log.Warn("watch ended with error", "reflector", "informer.go:12", "err", "very short watch: informer.go:12: x")
	r.line("handler", "h1", "handler h1 OnAdd x")
	got := r.take(func(c string) bool { return c != "fifo" }, false)
	want := []string{
		"reflector backoff rv=3",
		`WARN watch ended with error err="very short watch: reflector: x"`,
		"handler h1 OnAdd x",
		"handler h2 OnAdd x",
	}
	assert.Equal(t, want, got)
	assert.Empty(t, r.take(func(string) bool { return true }, false))
	r.line("handler", "h1", "b")
	r.line("handler", "h1", "a")
	assert.Equal(t, []string{"a", "b"}, r.take(func(string) bool { return true }, true))
	assert.True(t, strings.HasPrefix(quote("a b"), `"`))
}
