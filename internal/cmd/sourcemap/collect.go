package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Entry is one exported identifier of ours and what its doc comment says.
type Entry struct {
	Kind     string // "type", "func", "method", "const" or "var"
	Name     string // DeltaFIFO, NewDeltaFIFO, DeltaFIFO.Pop; a group: its names joined by ", "
	Names    []string
	File     string // slash path relative to the module root
	Line     int
	Doc      string
	Stmt     Statement
	recvTyp  string // for methods: the receiver type's name
	groupDoc string // for a name with its own comment in a const or var group: the group's doc
}

// Package is one package of ours.
type Package struct {
	ImportPath string
	Dir        string // slash path relative to the module root
	Doc        string // the package doc's sentence that says what it mirrors, if any
	Entries    []Entry
}

var skipDirs = map[string]bool{"internal": true, "harness": true, "cmd": true, "testdata": true, "chapters": true}

// Collect walks the module rooted at root and returns its covered packages (doc.go, item 1),
// sorted by import path.
func Collect(root string) ([]Package, error) {
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var pkgs []Package
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != root {
			name := d.Name()
			if skipDirs[name] || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		pkg, ok, err := collectDir(root, rel, modPath)
		if err != nil {
			return err
		}
		if ok {
			pkgs = append(pkgs, pkg)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	return pkgs, nil
}

func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

func collectDir(root, rel, modPath string) (Package, bool, error) {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	bp, err := build.Default.ImportDir(dir, 0)
	var noGo *build.NoGoError
	if errors.As(err, &noGo) {
		return Package{}, false, nil
	}
	if err != nil {
		return Package{}, false, err
	}
	if bp.Name == "main" || len(bp.GoFiles) == 0 {
		return Package{}, false, nil
	}
	importPath := modPath
	if rel != "." {
		importPath = modPath + "/" + rel
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles { // sorted by go/build
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return Package{}, false, err
		}
		files = append(files, f)
	}
	dp, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return Package{}, false, err
	}
	pkg := Package{ImportPath: importPath, Dir: rel, Doc: packageMirror(dp.Doc)}

	pos := func(p token.Pos) (string, int) {
		position := fset.Position(p)
		file := path.Join(rel, filepath.Base(position.Filename))
		return file, position.Line
	}
	addValues := func(kind string, vals []*doc.Value) {
		for _, v := range vals {
			if specs := splitGroup(v.Decl, v.Doc); len(specs) > 0 {
				// The names carry their own comments: one row each (doc.go, item 2).
				for _, sp := range specs {
					file, line := pos(sp.name.Pos())
					pkg.Entries = append(pkg.Entries, Entry{Kind: kind, Name: sp.name.Name,
						Names: []string{sp.name.Name}, File: file, Line: line, Doc: sp.doc, groupDoc: v.Doc})
				}
				continue
			}
			if strings.TrimSpace(v.Doc) == "" {
				continue
			}
			file, line := pos(v.Decl.Pos())
			pkg.Entries = append(pkg.Entries, Entry{Kind: kind, Name: strings.Join(v.Names, ", "),
				Names: v.Names, File: file, Line: line, Doc: v.Doc})
		}
	}
	addFuncs := func(fns []*doc.Func) {
		for _, f := range fns {
			if f.Level > 0 { // promoted from an embedded field
				continue
			}
			file, line := pos(f.Decl.Name.Pos())
			e := Entry{Kind: "func", Name: f.Name, Names: []string{f.Name}, File: file, Line: line, Doc: f.Doc}
			if f.Recv != "" {
				e.Kind = "method"
				e.recvTyp = strings.TrimPrefix(f.Recv, "*")
				if i := strings.Index(e.recvTyp, "["); i >= 0 {
					e.recvTyp = e.recvTyp[:i]
				}
				e.Name = e.recvTyp + "." + f.Name
			}
			pkg.Entries = append(pkg.Entries, e)
		}
	}
	addValues("const", dp.Consts)
	addValues("var", dp.Vars)
	addFuncs(dp.Funcs)
	for _, t := range dp.Types {
		file, line := pos(typePos(t))
		pkg.Entries = append(pkg.Entries, Entry{Kind: "type", Name: t.Name, Names: []string{t.Name},
			File: file, Line: line, Doc: t.Doc})
		addValues("const", t.Consts)
		addValues("var", t.Vars)
		addFuncs(t.Funcs)
		addFuncs(t.Methods)
	}

	for i := range pkg.Entries {
		e := &pkg.Entries[i]
		e.Stmt = Parse(e.Names, e.Doc)
		if e.Stmt.Kind == Missing && e.groupDoc != "" {
			// "They mirror X" on the group speaks for each name in it.
			e.Stmt = Parse(e.Names, e.groupDoc)
		}
	}
	inheritFromReceiver(pkg.Entries)
	sort.SliceStable(pkg.Entries, func(i, j int) bool {
		a, b := pkg.Entries[i], pkg.Entries[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return pkg, true, nil
}

func typePos(t *doc.Type) token.Pos {
	for _, s := range t.Decl.Specs {
		if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == t.Name {
			return ts.Name.Pos()
		}
	}
	return t.Decl.Pos()
}

// inheritFromReceiver fills the package and file of a method's counterpart Type.Method from
// its receiver type's counterpart when that is Type (doc.go, item 6).
func inheritFromReceiver(entries []Entry) {
	types := map[string]Statement{}
	for _, e := range entries {
		if e.Kind == "type" && e.Stmt.Kind == Mirrors {
			types[e.Name] = e.Stmt
		}
	}
	for i := range entries {
		e := &entries[i]
		if e.Kind != "method" || e.Stmt.Kind != Mirrors || e.Stmt.Package != "" {
			continue
		}
		t, ok := types[e.recvTyp]
		if !ok || t.Package == "" {
			continue
		}
		dot := strings.LastIndex(e.Stmt.Ident, ".")
		if dot < 0 {
			continue
		}
		typeName := t.Ident[strings.LastIndex(t.Ident, ".")+1:]
		if e.Stmt.Ident[:dot] == typeName {
			e.Stmt.Package, e.Stmt.File = t.Package, t.File
		}
	}
}

// packageMirror returns the sentences of a package doc that say what it mirrors.
func packageMirror(pkgDoc string) string {
	var out []string
	for _, s := range splitSentences(strings.Join(strings.Fields(pkgDoc), " ")) {
		if reMirror.MatchString(s) && !reNothingMirrors.MatchString(s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

type specDoc struct {
	name *ast.Ident
	doc  string
}

// splitGroup returns one specDoc per exported name of a const or var group when the group is
// to be listed name by name (doc.go, item 2): when the comment of some name states a
// counterpart, or when names carry comments but the group has none. Otherwise it returns nil
// and the group is one row (or none, without any comment).
func splitGroup(decl *ast.GenDecl, groupDoc string) []specDoc {
	var out []specDoc
	stated, commented := false, false
	for _, s := range decl.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		text := vs.Doc.Text()
		if text == "" {
			text = vs.Comment.Text()
		}
		for _, n := range vs.Names {
			if !n.IsExported() {
				continue
			}
			if text != "" {
				commented = true
				if Parse([]string{n.Name}, text).Kind != Missing {
					stated = true
				}
			}
			out = append(out, specDoc{name: n, doc: text})
		}
	}
	if stated || commented && strings.TrimSpace(groupDoc) == "" {
		var documented []specDoc
		for _, sd := range out {
			if sd.doc != "" || strings.TrimSpace(groupDoc) != "" {
				documented = append(documented, sd)
			}
		}
		return documented
	}
	return nil
}
