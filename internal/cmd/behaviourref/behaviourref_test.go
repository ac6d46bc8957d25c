package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the repository's root, seen from this package's directory.
const repoRoot = "../../.."

// TestReferenceResolves is the check `make test` runs: the generated reference is current and
// every ID, link, path and test name a reader meets resolves inside the repository.
func TestReferenceResolves(t *testing.T) {
	lists, err := Load(repoRoot)
	require.NoError(t, err)
	cites, err := Scan(repoRoot)
	require.NoError(t, err)
	for _, o := range Outputs(lists, cites) {
		have, err := os.ReadFile(filepath.Join(repoRoot, o.Path))
		require.NoError(t, err, "%s is missing: run `make docs` (%s)", o.Path, Command)
		if !bytes.Equal(have, o.Data) {
			t.Errorf("%s is out of date: run `make docs` (%s) and commit the result", o.Path, Command)
		}
	}
	problems, err := Check(repoRoot, lists, cites)
	require.NoError(t, err)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestUpstreamLines checks every file:line against the module cache when the upstream modules
// are there; elsewhere it skips, since the main module must not download k8s.io modules.
func TestUpstreamLines(t *testing.T) {
	cache := filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
	if env := os.Getenv("GOMODCACHE"); env != "" {
		cache = env
	}
	if _, err := os.Stat(filepath.Join(cache, "k8s.io", "client-go@v0.37.2")); err != nil {
		t.Skip("k8s.io/client-go@v0.37.2 is not in the module cache")
	}
	lists, err := Load(repoRoot)
	require.NoError(t, err)
	for _, p := range Verify(repoRoot, cache, lists, false) {
		t.Error(p)
	}
}

func TestLineIDs(t *testing.T) {
	tests := []struct {
		line string
		wire bool
		want []string
	}{
		{"DF-7 and R-12 (T5)", false, []string{"behaviour DF-7", "behaviour R-12", "behaviour T5"}},
		{"E1–E3, D-1 … D-3", false, []string{"behaviour E2", "behaviour D-2", "behaviour D-1", "behaviour D-3", "behaviour E1", "behaviour E3"}},
		{"checks W14 and T12", true, []string{"wire W14", "wire T12"}},
		{"the real server answers (wire E39)", false, []string{"wire E39"}},
		{"elliptic.P256 and E2E and HA1", false, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range lineIDs(tt.line, tt.wire) {
			got = append(got, c.NS+" "+c.ID)
		}
		assert.ElementsMatch(t, tt.want, got, tt.line)
	}
}

func TestNameIDs(t *testing.T) {
	tests := []struct {
		name string
		wire bool
		want []string
	}{
		{"TestCh04_T1_FIFOLosesTheDelete", false, []string{"behaviour T1"}},
		{"TestCh06_Controller_C1_Run", false, []string{"behaviour C-1"}},
		{"TestCh01_K2_Version", false, []string{"wire K2"}},
		{"TestInterop_T8_InformerSyncs", true, []string{"wire T8"}},
		{"TestCh05_WatchList_T24_R36_R40", false, []string{"behaviour T24", "behaviour R-36", "behaviour R-40"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range nameIDs(tt.name, tt.wire) {
			got = append(got, c.NS+" "+c.ID)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestHeadingSlug(t *testing.T) {
	assert.Equal(t, "errata-where-the-articles-are-wrong", headingSlug(" Errata: where the articles are wrong"))
	assert.Equal(t, "勘误文章说错的地方", headingSlug("勘误：文章说错的地方"))
	assert.Equal(t, "threadsafemapadd--update-step-by-step", headingSlug("threadSafeMap.Add / Update, step by step"))
}

func TestCheckLink(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# Errata: boxes\n<a id=\"x1\"></a>\n"), 0o644))
	tests := []struct {
		target string
		ok     bool
	}{
		{"a.md", true},
		{"a.md#x1", true},
		{"a.md#errata-boxes", true},
		{"a.md#nope", false},
		{"missing.md", false},
		{"../../outside.md", false},
		{"https://github.com/kubernetes/client-go/blob/v0.37.2/tools/cache/reflector.go#L1", true},
		{"https://example.com/blog", false},
	}
	for _, tt := range tests {
		msg := checkLink(root, "docs/b.md", tt.target, map[string]map[string]bool{})
		assert.Equal(t, tt.ok, msg == "", "%s: %s", tt.target, msg)
	}
}

func TestLabelIn(t *testing.T) {
	assert.NotEmpty(t, labelIn("is article example A3. Three pods"))
	assert.NotEmpty(t, labelIn("(A12)"))
	assert.Empty(t, labelIn("`Example_articleA16` and HA1 and P256"))
	assert.Empty(t, labelIn("no label here"))
	assert.True(t, mayCite("DF-7"))
	assert.True(t, mayCite("W14"))
	assert.False(t, mayCite("a plain sentence, with Words"))
}

// TestChapterTestNamesAreUnique scans every test file of the repository (the main module,
// interop/, tools/ and labs/, not the lab workspace) and fails on a TestChNN_ name that two
// packages declare: make chNN and the READMEs find a test by its name alone.
func TestChapterTestNamesAreUnique(t *testing.T) {
	problems, err := DuplicateChapterTests(repoRoot)
	require.NoError(t, err)
	for _, p := range problems {
		t.Error(p)
	}
}

func TestDuplicateChapterTests(t *testing.T) {
	write := func(t *testing.T, root, rel, src string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	const decl = "package p\n\nimport \"testing\"\n\nfunc TestCh13_Columns(t *testing.T) {}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"unique", map[string]string{"a/a_test.go": decl, "b/b_test.go": "package b\n\nfunc TestCh13_Other() {}\n"}, nil},
		{"two packages", map[string]string{"a/a_test.go": decl, "c/d/d_test.go": "package d\n\n\nfunc TestCh13_Columns() {}\n"},
			[]string{"a/a_test.go:5: TestCh13_Columns is also declared at c/d/d_test.go:4"}},
		{"three packages, interop and labs included", map[string]string{"a/a_test.go": decl, "interop/x/x_test.go": decl, "labs/internal/l/l_test.go": decl},
			[]string{"a/a_test.go:5: TestCh13_Columns is also declared at interop/x/x_test.go:5, labs/internal/l/l_test.go:5"}},
		{"build-constrained files of one package", map[string]string{"a/x_linux_test.go": "//go:build linux\n\n" + decl, "a/x_other_test.go": "//go:build !linux\n\n" + decl}, nil},
		{"a method, another prefix and a non-test file do not count", map[string]string{
			"a/a_test.go": decl,
			"b/b_test.go": "package b\n\ntype s struct{}\n\nfunc (s) TestCh13_Columns() {}\n\nfunc TestCh1_Columns() {}\n",
			"c/c.go":      decl}, nil},
		{"a name in a string or comment does not count", map[string]string{"a/a_test.go": decl,
			"b/b_test.go": "package b\n\n// func TestCh13_Columns() {}\nvar src = `\nfunc TestCh13_Columns() {}\n`\n"}, nil},
		{"testdata, the lab workspace and dot directories are skipped", map[string]string{"a/a_test.go": decl,
			"a/testdata/t_test.go": decl, "labs/work/04/a_test.go": decl, ".git/x_test.go": decl}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, src := range tt.files {
				write(t, root, rel, src)
			}
			got, err := DuplicateChapterTests(root)
			require.NoError(t, err)
			require.Len(t, got, len(tt.want), "%q", got)
			for i, w := range tt.want {
				assert.True(t, strings.HasPrefix(got[i], w), "got %q, want it to start with %q", got[i], w)
			}
		})
	}
}
