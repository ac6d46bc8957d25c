package apiserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_ServerIsAThinComposition: the Server keeps at most 40 methods (its public API and
// its start), everything else living in the layers below it: endpoints, admission, registry
// and storage (doc.go).
func TestCh01_ServerIsAThinComposition(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var methods []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		file, err := parser.ParseFile(fset, f, src, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Server" {
				methods = append(methods, fd.Name.Name)
			}
		}
	}
	assert.LessOrEqual(t, len(methods), 40, "Server's methods: %v", methods)
}
