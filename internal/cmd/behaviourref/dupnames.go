package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// reChapterTest matches a chapter test's name: make chNN and the READMEs find tests by it.
var reChapterTest = regexp.MustCompile(`^TestCh[0-9]{2}_`)

// DuplicateChapterTests returns one message per TestChNN_ name that test files in two or more
// directories declare, with every place that declares it. It reads every *_test.go file of
// the tree (the main module, interop/, tools/ and labs/) except dot directories, testdata
// (Go builds none of it) and the untracked directories (the learner's lab workspace holds
// copies of the chapter tests). Two files of one directory count once: they are one package,
// where the compiler already refuses a name declared twice in one build, so two files there
// are build-constrained alternatives (hostile_conn_linux_test.go and _other_test.go).
func DuplicateChapterTests(root string) ([]string, error) {
	where := map[string]map[string]string{} // test name → directory → file:line
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || untracked(rel, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !reChapterTest.MatchString(fn.Name.Name) {
				continue
			}
			name := fn.Name
			dirs := where[name.Name]
			if dirs == nil {
				dirs = map[string]string{}
				where[name.Name] = dirs
			}
			if _, seen := dirs[path.Dir(rel)]; !seen {
				dirs[path.Dir(rel)] = fmt.Sprintf("%s:%d", rel, fset.Position(name.Pos()).Line)
			}
		}
		return nil
	})
	var problems []string
	for name, dirs := range where {
		if len(dirs) < 2 {
			continue
		}
		var at []string
		for _, pos := range dirs {
			at = append(at, pos)
		}
		sort.Strings(at)
		problems = append(problems, fmt.Sprintf("%s: %s is also declared at %s; every TestChNN_ name must be unique across the repository (make chNN and the READMEs find tests by name)",
			at[0], name, strings.Join(at[1:], ", ")))
	}
	sort.Strings(problems)
	return problems, err
}
