package readmecmd

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var runCommands = flag.Bool("readme.run", false, "run every README command for real (what make docs does)")

// skipRun lists the commands -readme.run does not run, by prefix, each with its reason. The
// default checks of contract item 2 still apply to them.
var skipRun = map[string]string{
	"make test": "it is the command that runs this test",
	"make docs": "it is the command that runs this test with -readme.run",
	"go test ./chapters/11-modern-client-go/ -update": "it rewrites the expected output; make scenarios checks it",
	"go test ./chapters/12-faults/ -update":           "it rewrites the expected output; make scenarios checks it",
	"go test ./chapters/13-custom-resources/ -update": "it rewrites the expected output; make scenarios checks it",
	"cd interop && go test ./":                        "make test runs the interop module; these are its replays and soaks",
	"cd interop && go test -race":                     "make test runs it",
	"make serve":                                      "it serves until Ctrl-C",
	"make ui":                                         "it serves the dashboard until Ctrl-C",
	"go run ./cmd/demo serve":                         "it serves until Ctrl-C",
	"make chapters":                                   "each chapter already runs through its own make chNN line",
	"make bench":                                      "it measures for many minutes; run it by hand (make bench-real too)",
	"make fuzz":                                       "it fuzzes for FUZZTIME per target; run it by hand",
	"make lint":                                       "CI runs it after make test",
	"make interop":                                    "make test runs it",
	"go test -run='^$' -bench=":                       "a benchmark measures for minutes; run it by hand",
	"cd interop && go test -run":                      "a benchmark measures for minutes; run it by hand",
	"go test -race -run Property_EndState ./informer/ -informer.seeds=500": "a 500-seed soak; run it by hand",
}

// command is one line a README tells the reader to type.
type command struct {
	file string // relative to the repository root
	line int
	text string
}

func (c command) String() string { return fmt.Sprintf("%s:%d: %s", c.file, c.line, c.text) }

var (
	commandPrefixes = []string{"make ", "go test ", "go run ", "cd interop && go "}
	trailingComment = regexp.MustCompile(`\s+#.*$`)
)

// extract returns the commands of one README, in order (contract item 1).
func extract(t *testing.T, root, rel string) []command {
	t.Helper()
	f, err := os.Open(filepath.Join(root, rel))
	require.NoError(t, err)
	defer f.Close()
	var out []command
	inFence := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if !inFence {
			continue
		}
		line = strings.TrimPrefix(line, "$ ")
		for _, p := range commandPrefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, command{file: rel, line: n, text: trailingComment.ReplaceAllString(line, "")})
				break
			}
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// splitWords splits a command line as a POSIX shell would for the quoting READMEs use:
// single quotes, double quotes and backslash escapes; no expansion.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == '\'':
			cur.WriteRune(c)
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case quote == '"':
			cur.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`make ch03`, []string{"make", "ch03"}},
		{`go test -run 'A/b c$' ./x/`, []string{"go", "test", "-run", "A/b c$", "./x/"}},
		{`go test -run='^$' -bench=B`, []string{"go", "test", "-run=^$", "-bench=B"}},
		{`make demo ARGS="--profile=classic x"`, []string{"make", "demo", "ARGS=--profile=classic x"}},
		{`a\ b  c`, []string{"a b", "c"}},
	}
	for _, tt := range tests {
		got, err := splitWords(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	_, err := splitWords(`go test -run 'open`)
	assert.Error(t, err)
}

func TestExtract(t *testing.T) {
	dir := t.TempDir()
	md := "# x\n\n    make notfenced\n```sh\nmake ch03   # one chapter\n$ go test -race ./store/\nkubectl get pods\n```\nmake prose\n```\ncd interop && go test ./...\n```\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte(md), 0o644))
	got := extract(t, dir, "README.md")
	want := []command{
		{file: "README.md", line: 5, text: "make ch03"},
		{file: "README.md", line: 6, text: "go test -race ./store/"},
		{file: "README.md", line: 11, text: "cd interop && go test ./..."},
	}
	assert.Empty(t, cmp.Diff(want, got, cmp.AllowUnexported(command{})))
}

// repoRoot is two levels up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the repository root holds go.mod")
	return root
}

func readmes(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"README*.md", "chapters/*/README*.md", "interop/README*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		require.NoError(t, err)
		for _, p := range m {
			rel, err := filepath.Rel(root, p)
			require.NoError(t, err)
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	require.NotEmpty(t, out)
	return out
}

// TestREADMECommands is contract items 2 and 3.
func TestREADMECommands(t *testing.T) {
	root := repoRoot(t)
	var demo string // the cmd/demo binary, built on first use
	seen := map[string]bool{}
	for _, rel := range readmes(t, root) {
		for _, c := range extract(t, root, rel) {
			if seen[c.text] {
				continue
			}
			seen[c.text] = true
			t.Run(c.text, func(t *testing.T) {
				words, err := splitWords(c.text)
				require.NoError(t, err, "%s", c)
				dir := root
				if words[0] == "cd" {
					dir = filepath.Join(root, words[1])
					words = words[3:] // cd DIR && ...
				}
				switch {
				case words[0] == "make":
					checkMake(t, root, c, words[1:])
				case words[0] == "go" && words[1] == "test":
					checkGoTest(t, dir, c, words[2:])
				case words[0] == "go" && words[1] == "run":
					if demo == "" {
						demo = buildDemo(t, root)
					}
					checkDemo(t, root, demo, c, words[2:])
				default:
					t.Fatalf("%s: no check for this command", c)
				}
				if *runCommands {
					runForReal(t, root, c)
				}
			})
		}
	}
}

func checkMake(t *testing.T, root string, c command, args []string) {
	for _, a := range args {
		if strings.Contains(a, "=") {
			continue // a variable, e.g. ARGS=...
		}
		if ch, ok := strings.CutPrefix(a, "ch"); ok && len(ch) == 2 {
			m, _ := filepath.Glob(filepath.Join(root, "chapters", ch+"-*"))
			assert.NotEmpty(t, m, "%s: no chapters/%s-* for make %s", c, ch, a)
			continue
		}
		out, err := exec.Command("make", "-n", "-C", root, a).CombinedOutput()
		assert.NoError(t, err, "%s: make has no target %q:\n%s", c, a, out)
	}
}

// checkGoTest lists what the command would run: its packages must exist and its -run (or
// -bench, when -run matches nothing) pattern must name at least one test.
func checkGoTest(t *testing.T, dir string, c command, args []string) {
	var pkgs []string
	pattern := ""
	bench := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		// go test hands everything from the first flag it does not know to the test binary,
		// so a test's own flag (-informer.seed, -chaos.seeds: they all have a dot) before the
		// packages swallows them, and the command runs in the current directory instead.
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && strings.Contains(name, ".") && len(pkgs) == 0 {
			t.Errorf("%s: the test flag %s comes before the packages; go test would pass the packages to the test binary", c, a)
		}
		switch {
		case strings.HasPrefix(a, "./"):
			pkgs = append(pkgs, a)
		case a == "-run" && i+1 < len(args):
			i++
			pattern = args[i]
		case strings.HasPrefix(a, "-run="):
			pattern = strings.TrimPrefix(a, "-run=")
		case a == "-bench" && i+1 < len(args):
			i++
			bench = args[i]
		case strings.HasPrefix(a, "-bench="):
			bench = strings.TrimPrefix(a, "-bench=")
		}
	}
	require.NotEmpty(t, pkgs, "%s: no package", c)
	if pattern == "^$" {
		pattern = bench
	}
	if pattern == "" {
		out, err := goCmd(dir, append([]string{"list"}, pkgs...)...)
		assert.NoError(t, err, "%s:\n%s", c, out)
		return
	}
	// go test -list matches top-level names only; a subtest path keeps its first element.
	top, _, _ := strings.Cut(pattern, "/")
	if top == "." {
		top = "^(Test|Benchmark|Example|Fuzz)"
	}
	out, err := goCmd(dir, append([]string{"test", "-list", top}, pkgs...)...)
	require.NoError(t, err, "%s:\n%s", c, out)
	listed := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Benchmark") || strings.HasPrefix(l, "Example") || strings.HasPrefix(l, "Fuzz") {
			listed++
		}
	}
	assert.Positive(t, listed, "%s: the pattern %q names no test:\n%s", c, top, out)
}

func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func buildDemo(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(os.TempDir(), fmt.Sprintf("readmecmd-demo-%d", os.Getpid()))
	out, err := goCmd(root, "build", "-o", bin, "./cmd/demo")
	require.NoError(t, err, "go build ./cmd/demo:\n%s", out)
	return bin
}

// checkDemo runs the demo with the README's arguments plus -h: the subcommand and every flag
// must be known, and the help must exit 0.
func checkDemo(t *testing.T, root, demo string, c command, args []string) {
	require.NotEmpty(t, args)
	require.Equal(t, "./cmd/demo", args[0], "%s: only cmd/demo is checked", c)
	cmd := exec.Command(demo, append(slices.Clone(args[1:]), "-h")...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "%s: with -h:\n%s", c, out)
}

func runForReal(t *testing.T, root string, c command) {
	for prefix, why := range skipRun {
		if strings.HasPrefix(c.text, prefix) {
			t.Logf("%s: not run: %s", c, why)
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", c.text)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", c, err, failureDigest(string(out), 8000))
	}
}

// TestTranslationsKeepCommands is contract item 4.
func TestTranslationsKeepCommands(t *testing.T) {
	root := repoRoot(t)
	pairs := 0
	for _, rel := range readmes(t, root) {
		zh, ok := strings.CutSuffix(rel, "README.md")
		if !ok {
			continue
		}
		zh += "README.zh-CN.md"
		if _, err := os.Stat(filepath.Join(root, zh)); err != nil {
			continue
		}
		pairs++
		texts := func(cs []command) []string {
			var out []string
			for _, c := range cs {
				out = append(out, c.text)
			}
			return out
		}
		assert.Empty(t, cmp.Diff(texts(extract(t, root, rel)), texts(extract(t, root, zh))),
			"%s and %s must hold the same commands", rel, zh)
	}
	t.Logf("%d README pairs compared", pairs)
}

// scriptMarker precedes a fenced block that holds a whole scenario script, so that the block
// and the file cannot drift apart when make update rewrites the file.
var scriptMarker = regexp.MustCompile(`^<!-- script: (\S+) -->$`)

// TestEmbeddedScriptsAreCurrent is contract item 5.
func TestEmbeddedScriptsAreCurrent(t *testing.T) {
	root := repoRoot(t)
	embeds := 0
	for _, rel := range readmes(t, root) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			m := scriptMarker.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			embeds++
			require.Less(t, i+1, len(lines), "%s:%d: a marker must precede a fenced block", rel, i+1)
			require.True(t, strings.HasPrefix(lines[i+1], "```"), "%s:%d: a marker must precede a fenced block", rel, i+1)
			end := slices.IndexFunc(lines[i+2:], func(s string) bool { return strings.HasPrefix(s, "```") })
			require.GreaterOrEqual(t, end, 0, "%s:%d: the fenced block never ends", rel, i+1)
			got := strings.Join(lines[i+2:i+2+end], "\n")
			want, err := os.ReadFile(filepath.Join(root, filepath.Dir(rel), m[1]))
			require.NoError(t, err, "%s:%d", rel, i+1)
			assert.Equal(t, strings.TrimRight(string(want), "\n"), got,
				"%s:%d: the embedded %s differs from the file; copy the file into the README", rel, i+1, m[1])
		}
	}
	assert.Positive(t, embeds, "no README embeds a script")
	t.Logf("%d embedded scripts checked", embeds)
}
