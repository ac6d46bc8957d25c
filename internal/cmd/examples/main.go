// Command examples prints the Example functions of a package directory with their
// "// Output:" blocks. `make chNN` runs it right after `go test`, which has just checked that
// every printed output is what the code produces: go test -v alone does not show the output of
// a passing example.
package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: examples <package dir>")
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "examples:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		parsed = append(parsed, af)
	}
	for _, ex := range doc.Examples(parsed...) {
		if !ex.EmptyOutput && ex.Output == "" {
			continue // no // Output: block, so go test did not check it
		}
		fmt.Fprintf(w, "\n--- Example%s\n", prefixed(ex.Name))
		if d := strings.TrimSpace(ex.Doc); d != "" {
			for _, line := range strings.Split(d, "\n") {
				fmt.Fprintf(w, "    # %s\n", line)
			}
		}
		for _, line := range strings.Split(strings.TrimRight(ex.Output, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	return nil
}

// prefixed turns go/doc's name ("_customIndex", "Scheme_Decode") back into the function name's
// suffix.
func prefixed(name string) string {
	if name == "" || strings.HasPrefix(name, "_") {
		return name
	}
	return "_" + name
}
