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
	std     []string // the other packages it imports (the standard library's and others)
}

// dir is the directory of f, the path of its package from the module root.
func (f file) dir() string { return path.Dir(f.path) }

// rule is one import rule of the README's "Packages" section (doc.go, items 2 to 5).
type rule struct {
	name string
	// applies reports whether the rule governs f.
	applies func(f file) bool
	// allowed reports whether a file the rule governs may import pkg, a package of the module.
	allowed func(pkg string) bool
	// allowedStd, when set, reports whether such a file may import pkg from outside the module.
	allowedStd func(pkg string) bool
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
	{
		name:    "controllers/ are clients: they never import apiserver/",
		applies: func(f file) bool { return !f.test && under(f.dir(), "controllers") },
		allowed: func(pkg string) bool { return !under(pkg, "apiserver") },
	},
	{
		name: "rest/ and plugin/ sit below clientcmd/: they never import it",
		applies: func(f file) bool {
			return !f.test && (under(f.dir(), "rest") || under(f.dir(), "plugin"))
		},
		allowed: func(pkg string) bool { return !under(pkg, "clientcmd") },
	},
	{
		name: "apiserver/storage knows nothing of HTTP, protobuf or kinds: it imports api/ (not api/protobuf), " +
			"internal/clock, internal/trace and apiserver/internal/continuetoken, and not net/http",
		applies: func(f file) bool { return !f.test && under(f.dir(), "apiserver/storage") },
		allowed: func(pkg string) bool {
			return (under(pkg, "api") && !under(pkg, "api/protobuf")) ||
				slices.Contains([]string{"internal/clock", "internal/trace", "apiserver/internal/continuetoken"}, pkg)
		},
		allowedStd: func(pkg string) bool { return !under(pkg, "net/http") },
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
			for _, pkg := range f.std {
				if r.allowedStd != nil && !r.allowedStd(pkg) {
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
		{"cmd/demo runs a harness package", file{"cmd/demo/run.go", false, []string{"harness/scenario"}, nil}, 1},
		{"a component runs a harness package", file{"informer/informer.go", false, []string{"harness/chaos"}, nil}, 1},
		{"a test outside harness/ uses the scenario runner", file{"chapters/05-reflector/scripts_test.go", true, []string{"harness/scenario"}, nil}, 0},
		{"a harness uses another harness", file{"harness/scenario/x.go", false, []string{"harness/chaos"}, nil}, 0},
		{"the testbed imports a chapter", file{"internal/testbed/controller.go", false, []string{"chapters/10-controller"}, nil}, 1},
		{"a harness test imports a chapter", file{"harness/chaos/x_test.go", true, []string{"chapters/10-controller"}, nil}, 1},
		{"the demo imports a chapter", file{"cmd/demo/controller.go", false, []string{"chapters/10-controller"}, nil}, 1},
		{"a chapter imports another chapter", file{"chapters/13-custom-resources/x.go", false, []string{"chapters/10-controller"}, nil}, 0},
		{"a chapter's test imports its chapter", file{"chapters/10-controller/x_test.go", true, []string{"chapters/10-controller", "harness/scenario"}, nil}, 0},
		{"a ground-floor helper imports a component", file{"internal/dashboard/x.go", false, []string{"informer"}, nil}, 1},
		{"a ground-floor helper imports helpers and wire types", file{"internal/dashboard/x.go", false, []string{"internal/trace", "api/watch"}, nil}, 0},
		{"a ground-floor helper's test imports a component", file{"internal/trace/x_test.go", true, []string{"informer"}, nil}, 0},
		{"the testbed imports the components", file{"internal/testbed/testbed.go", false, []string{"apiserver", "informer", "controller"}, nil}, 0},
		{"the testbed imports a harness", file{"internal/testbed/testbed.go", false, []string{"harness/scenario"}, nil}, 1},
		{"the controller loop imports the workqueue", file{"controller/loop.go", false, []string{"workqueue"}, nil}, 0},
		{"the controller loop imports the informer", file{"controller/loop.go", false, []string{"workqueue", "informer"}, nil}, 1},
		{"a package merely named like harness", file{"harnesses/x.go", false, []string{"harnesses/y"}, nil}, 0},
		{"a cluster controller imports the apiserver", file{"controllers/deployment/sync.go", false, []string{"apiserver", "informer"}, nil}, 1},
		{"a cluster controller's test starts the apiserver", file{"controllers/deployment/sync_test.go", true, []string{"apiserver", "harness/cluster"}, nil}, 0},
		{"the REST client imports clientcmd", file{"rest/config.go", false, []string{"clientcmd"}, nil}, 1},
		{"the exec plugin imports clientcmd's API", file{"plugin/pkg/client/auth/exec/exec.go", false, []string{"clientcmd/api"}, nil}, 1},
		{"the REST client imports the exec plugin", file{"rest/config.go", false, []string{"plugin/pkg/client/auth/exec", "rest/watch"}, nil}, 0},
		{"a REST client test builds a kubeconfig", file{"rest/config_test.go", true, []string{"clientcmd"}, nil}, 0},
		{"the storage imports its floor", file{"apiserver/storage/store.go", false,
			[]string{"api", "api/watch", "internal/clock", "internal/trace", "apiserver/internal/continuetoken"}, []string{"sync", "context"}}, 0},
		{"the storage imports the registry", file{"apiserver/storage/store.go", false, []string{"apiserver/internal/registry"}, nil}, 1},
		{"the storage imports the protobuf codec", file{"apiserver/storage/record.go", false, []string{"api/protobuf", "internal/builtinproto"}, nil}, 2},
		{"the storage imports the apiserver", file{"apiserver/storage/store.go", false, []string{"apiserver"}, nil}, 1},
		{"the storage imports net/http", file{"apiserver/storage/store.go", false, nil, []string{"net/http", "net/http/httptest"}}, 2},
		{"a storage test uses net/http", file{"apiserver/storage/x_test.go", true, []string{"apiserver"}, []string{"net/http"}}, 0},
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
	for _, d := range []string{"cmd/demo", "controller", "harness/scenario", "internal/testbed", "internal/dashboard", "chapters/10-controller",
		"rest", "plugin/pkg/client/auth/exec", "apiserver/storage"} {
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
			switch pkg, ok := strings.CutPrefix(ip, modPath+"/"); {
			case ok:
				f.imports = append(f.imports, pkg)
			case ip == modPath:
				f.imports = append(f.imports, ".")
			default:
				f.std = append(f.std, ip)
			}
		}
		files = append(files, f)
		return nil
	})
	require.NoError(t, err)
	return files
}
