package layers

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// file is one .go file of the module: where it is and what of the module it imports.
type file struct {
	path    string   // slash path from the module root, e.g. "cmd/demo/run.go"
	test    bool     // a _test.go file
	imports []string // the module's packages it imports, as paths from the module root
}

// dir is the directory of f, the path of its package from the module root.
func (f file) dir() string { return path.Dir(f.path) }

// rule is one import rule of the README's "Packages" section (doc.go, items 2 to 5).
type rule struct {
	name string
	// applies reports whether the rule governs f.
	applies func(f file) bool
	// allowed reports whether a file the rule governs may import pkg.
	allowed func(pkg string) bool
}

// under reports whether p is dir or lies below it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

var rules = []rule{
	{
		name:    "only tests import harness/ (code the demo runs lives under internal/)",
		applies: func(f file) bool { return !f.test && !under(f.dir(), "harness") },
		allowed: func(pkg string) bool { return !under(pkg, "harness") },
	},
	{
		name:    "nothing outside chapters/ imports a chapter",
		applies: func(f file) bool { return !under(f.dir(), "chapters") },
		allowed: func(pkg string) bool { return !under(pkg, "chapters") },
	},
	{
		name: "internal/ is the ground floor: it imports only internal/ and api/ (internal/testbed excepted)",
		applies: func(f file) bool {
			return !f.test && under(f.dir(), "internal") && !under(f.dir(), "internal/testbed")
		},
		allowed: func(pkg string) bool { return under(pkg, "internal") || under(pkg, "api") },
	},
	{
		name:    "controller/ imports only workqueue/",
		applies: func(f file) bool { return !f.test && under(f.dir(), "controller") },
		allowed: func(pkg string) bool { return pkg == "workqueue" },
	},
}

// violations returns one line per import of files that a rule forbids, sorted.
func violations(files []file) []string {
	var out []string
	for _, f := range files {
		for _, r := range rules {
			if !r.applies(f) {
				continue
			}
			for _, pkg := range f.imports {
				if !r.allowed(pkg) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", f.path, pkg, r.name))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestLayers_RulesCatchViolations feeds the rules made-up files, one breaking each rule and
// some that keep them, so that a rule loosened until it can no longer fail is noticed
// (contract 6).
func TestLayers_RulesCatchViolations(t *testing.T) {
	tests := []struct {
		name string
		f    file
		want int // how many violations
	}{
		{"cmd/demo runs a harness package", file{"cmd/demo/run.go", false, []string{"harness/scenario"}}, 1},
		{"a component runs a harness package", file{"informer/informer.go", false, []string{"harness/chaos"}}, 1},
		{"a test outside harness/ uses the scenario runner", file{"chapters/05-reflector/scripts_test.go", true, []string{"harness/scenario"}}, 0},
		{"a harness uses another harness", file{"harness/scenario/x.go", false, []string{"harness/chaos"}}, 0},
		{"the testbed imports a chapter", file{"internal/testbed/controller.go", false, []string{"chapters/10-controller"}}, 1},
		{"a harness test imports a chapter", file{"harness/chaos/x_test.go", true, []string{"chapters/10-controller"}}, 1},
		{"the demo imports a chapter", file{"cmd/demo/controller.go", false, []string{"chapters/10-controller"}}, 1},
		{"a chapter imports another chapter", file{"chapters/13-custom-resources/x.go", false, []string{"chapters/10-controller"}}, 0},
		{"a chapter's test imports its chapter", file{"chapters/10-controller/x_test.go", true, []string{"chapters/10-controller", "harness/scenario"}}, 0},
		{"a ground-floor helper imports a component", file{"internal/dashboard/x.go", false, []string{"informer"}}, 1},
		{"a ground-floor helper imports helpers and wire types", file{"internal/dashboard/x.go", false, []string{"internal/trace", "api/watch"}}, 0},
		{"a ground-floor helper's test imports a component", file{"internal/trace/x_test.go", true, []string{"informer"}}, 0},
		{"the testbed imports the components", file{"internal/testbed/testbed.go", false, []string{"apiserver", "informer", "controller"}}, 0},
		{"the testbed imports a harness", file{"internal/testbed/testbed.go", false, []string{"harness/scenario"}}, 1},
		{"the controller loop imports the workqueue", file{"controller/loop.go", false, []string{"workqueue"}}, 0},
		{"the controller loop imports the informer", file{"controller/loop.go", false, []string{"workqueue", "informer"}}, 1},
		{"a package merely named like harness", file{"harnesses/x.go", false, []string{"harnesses/y"}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := violations([]file{tc.f})
			require.Len(t, got, tc.want, "%v", got)
		})
	}
}

// TestLayers_ImportRules checks every file of the module against the rules (contract 1 to 5).
func TestLayers_ImportRules(t *testing.T) {
	root, modPath := moduleRoot(t)
	files := moduleFiles(t, root, modPath)
	// The walk must have seen the packages the rules are about, or it walked the wrong tree.
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.dir()] = true
	}
	for _, d := range []string{"cmd/demo", "controller", "harness/scenario", "internal/testbed", "internal/dashboard", "chapters/10-controller"} {
		require.True(t, seen[d], "no .go file found in %s", d)
	}
	if diff := cmp.Diff([]string(nil), violations(files)); diff != "" {
		t.Errorf("imports that break the README's layering (-want +got):\n%s", diff)
	}
}

// moduleRoot returns the main module's root, two directories above this package, and its path.
func moduleRoot(t *testing.T) (root, modPath string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return root, strings.TrimSpace(rest)
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("%s/go.mod names no module", root)
	return "", ""
}

// moduleFiles parses the imports of every .go file of the module (contract 1).
func moduleFiles(t *testing.T, root, modPath string) []file {
	t.Helper()
	var files []file
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			name := d.Name()
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module: interop/, tools/, labs/work/
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		parsed, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		f := file{path: filepath.ToSlash(rel), test: strings.HasSuffix(p, "_test.go")}
		for _, imp := range parsed.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if pkg, ok := strings.CutPrefix(ip, modPath+"/"); ok {
				f.imports = append(f.imports, pkg)
			}
		}
		files = append(files, f)
		return nil
	})
	require.NoError(t, err)
	return files
}
