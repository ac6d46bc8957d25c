package rest_test

import (
	"bufio"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh02_RestDoesNotImportClientcmd keeps the client's layers apart: kubeconfig loading
// (clientcmd) builds rest Configs, so rest, its watch decoder and the exec credential plugin
// it wires in (plugin/pkg/client/auth/exec, client-go's path) must never depend on a
// clientcmd package, directly or through another package of the module. It reads the
// packages' imports with go/build (the files this platform builds, test files left out), so
// it needs neither the network nor the go command.
func TestCh02_RestDoesNotImportClientcmd(t *testing.T) {
	root, module := moduleRoot(t)
	tests := []struct {
		pkg     string
		mustSee string // a dependency the walk must reach, so that it cannot pass vacuously
	}{
		{pkg: "rest", mustSee: "plugin/pkg/client/auth/exec"},
		{pkg: "rest/watch", mustSee: "api"},
		{pkg: "plugin/pkg/client/auth/exec", mustSee: "api"},
	}
	for _, tc := range tests {
		t.Run(tc.pkg, func(t *testing.T) {
			deps := moduleDeps(t, root, module, tc.pkg)
			assert.Contains(t, deps, tc.mustSee)
			for dep, via := range deps {
				if dep == "clientcmd" || strings.HasPrefix(dep, "clientcmd/") {
					t.Errorf("%s depends on %s (imported by %s): clientcmd sits above the REST client", tc.pkg, dep, via)
				}
			}
		})
	}
}

// moduleRoot finds the directory of the module's go.mod above the test's directory and the
// module path it declares.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	require.NoError(t, err)
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(rest), `"`)
				}
			}
			require.NoError(t, sc.Err())
			t.Fatalf("%s/go.mod declares no module", dir)
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test")
		dir = parent
	}
}

// moduleDeps returns every package of the module that pkg (a path relative to the module)
// imports, directly or not, mapped to a package that imports it. Imports outside the module
// are not followed.
func moduleDeps(t *testing.T, root, module, pkg string) map[string]string {
	t.Helper()
	deps := map[string]string{}
	queue := []string{pkg}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		p, err := build.Default.ImportDir(filepath.Join(root, filepath.FromSlash(cur)), 0)
		require.NoError(t, err, "package %s", cur)
		for _, imp := range p.Imports {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if _, seen := deps[rel]; seen || rel == pkg {
				continue
			}
			deps[rel] = cur
			queue = append(queue, rel)
		}
	}
	return deps
}
