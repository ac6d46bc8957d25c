package storage

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Storage_ImportsNothingOfHTTPOrKinds checks point 10 of the contract from the
// source: no non-test file of the storage imports net/http, and neither the storage nor
// any package of this module it reaches, directly or not, imports protobuf, the registry,
// the schemas, the printers, the defaulting or the apiserver package itself. (Only the
// module's own packages are walked: net/http is allowed below them, since api's errors
// name HTTP codes.)
func TestCh01_Storage_ImportsNothingOfHTTPOrKinds(t *testing.T) {
	root, module := moduleRoot(t)
	apiserver := module + "/apiserver"
	forbiddenEverywhere := func(path string) string {
		switch {
		case strings.Contains(path, "protobuf"):
			return "protobuf"
		case path == apiserver:
			return "the apiserver package"
		}
		for _, p := range []string{"internal/registry", "internal/structural", "internal/schema", "internal/printers", "internal/defaulting"} {
			if path == apiserver+"/"+p || strings.HasPrefix(path, apiserver+"/"+p+"/") {
				return "kinds (" + p + ")"
			}
		}
		return ""
	}

	direct := importsOf(t, ".")
	require.NotEmpty(t, direct, "the storage's files were read")
	for path, file := range direct {
		if path == "net/http" || strings.HasPrefix(path, "net/http/") {
			t.Errorf("%s imports %s: the storage knows nothing of HTTP", file, path)
		}
	}

	// Walk the module's packages reachable from the storage.
	seen := map[string]bool{}
	queue := []string{module + "/apiserver/storage"}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		if seen[pkg] {
			continue
		}
		seen[pkg] = true
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")))
		for path, file := range importsOf(t, dir) {
			if why := forbiddenEverywhere(path); why != "" {
				t.Errorf("%s (reached from the storage) imports %s: %s", file, path, why)
			}
			if path == module || strings.HasPrefix(path, module+"/") {
				queue = append(queue, path)
			}
		}
	}
	assert.True(t, seen[module+"/api"], "the walk reached the api package")

	// The check itself catches what it must.
	for _, bad := range []string{apiserver, apiserver + "/internal/registry/rest", apiserver + "/internal/schema", module + "/api/protobuf", "google.golang.org/protobuf/proto"} {
		assert.NotEmpty(t, forbiddenEverywhere(bad), bad)
	}
	// A name that merely starts like a forbidden one is not it.
	for _, ok := range []string{apiserver + "/internal/continuetoken", apiserver + "/storage", module + "/api", apiserver + "/internal/schemata"} {
		assert.Empty(t, forbiddenEverywhere(ok), ok)
	}
}

// importsOf returns the imports of the non-test Go files of dir, each with a file that
// makes it.
func importsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			out[path] = filepath.Join(dir, name)
		}
	}
	return out
}

// moduleRoot finds the go.mod above the package directory and returns its directory and
// module path.
func moduleRoot(t *testing.T) (string, string) {
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
			t.Fatalf("no module line in %s/go.mod", dir)
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the package")
		dir = parent
	}
}
