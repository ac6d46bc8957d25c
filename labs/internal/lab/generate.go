package lab

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// markerRE matches the lab-region marker: a directive line "//lab:NN" or "//lab:NN.S" as the
// last line of a function's doc comment. As a directive it is hidden from go doc.
var markerRE = regexp.MustCompile(`^//lab:(\d\d)(?:\.(\d+))?$`)

// Region is one marked function: the learner writes its body.
type Region struct {
	Lab  string // "04"
	Step int    // 1 when the marker names no step
	File string // slash path relative to the repository root, e.g. "deltafifo/delta_fifo.go"
	Func string // "DeltaFIFO.Pop" for a method, "dfDedupDeltas" for a function
	Line int    // line of the func keyword in the reference file
}

// NotImplemented is the body a skeleton gets; lab-status counts it to measure progress.
func NotImplemented(lab string) string { return fmt.Sprintf("panic(\"lab %s: not implemented\")", lab) }

// funcName names a declaration as Region.Func does.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// marker returns the lab and step of a declaration's marker, or ok=false.
func marker(fd *ast.FuncDecl) (lab string, step int, ok bool) {
	if fd.Doc == nil {
		return "", 0, false
	}
	for _, c := range fd.Doc.List {
		m := markerRE.FindStringSubmatch(c.Text)
		if m == nil {
			continue
		}
		step = 1
		if m[2] != "" {
			step, _ = strconv.Atoi(m[2])
		}
		return m[1], step, true
	}
	return "", 0, false
}

// Regions lists the marked functions of lab in the non-test Go files of dirs (slash paths
// relative to root), in file order.
func Regions(root, lab string, dirs []string) ([]Region, error) {
	var out []Region
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(root, f)
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				l, step, ok := marker(fd)
				if !ok || l != lab {
					continue
				}
				out = append(out, Region{Lab: l, Step: step, File: filepath.ToSlash(rel), Func: funcName(fd), Line: fset.Position(fd.Pos()).Line})
			}
		}
	}
	return out, nil
}

// Strip returns src with the body of every function marked for lab replaced by a pointer to
// the hints and NotImplemented. Everything else, doc comments included, stays as it is. The
// imports stay too: one that only the stripped bodies used is kept by a blank guard
// (guardImports), so that the skeleton compiles and the learner's code can use it at once.
func Strip(src []byte, lab string) ([]byte, int, error) { return StripExcept(src, lab, nil) }

// StripExcept is Strip that leaves the reference body of every function keep reports true
// for (nil: none): a lab partly solved, as lab-timings and the first-function test need.
func StripExcept(src []byte, lab string, keep func(fn string) bool) ([]byte, int, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	type cut struct {
		from, to int
		text     string
	}
	var cuts []cut
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		l, step, ok := marker(fd)
		if !ok || l != lab || (keep != nil && keep(funcName(fd))) {
			continue
		}
		body := fmt.Sprintf("\n\t// Lab %s, step %d: write this body. Hints: make lab-hint LAB=%s N=1 (then N=2, N=3).\n\t%s\n",
			lab, step, lab, NotImplemented(lab))
		cuts = append(cuts, cut{fset.Position(fd.Body.Lbrace).Offset + 1, fset.Position(fd.Body.Rbrace).Offset, body})
	}
	if len(cuts) == 0 {
		return src, 0, nil
	}
	var b bytes.Buffer
	last := 0
	for _, c := range cuts {
		b.Write(src[last:c.from])
		b.WriteString(c.text)
		last = c.to
	}
	b.Write(src[last:])
	out, err := guardImports(b.Bytes(), selectorsByPackage(file))
	return out, len(cuts), err
}

// pruneImports removes the imports a file no longer refers to and formats it.
func pruneImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	type span struct{ from, to int }
	var drop []span
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			imp := spec.(*ast.ImportSpec)
			name := importName(imp)
			if name == "_" || name == "." || used[name] {
				continue
			}
			var from, to int
			switch {
			case !gd.Lparen.IsValid(): // import "x": the whole declaration goes
				from, to = fset.Position(gd.Pos()).Offset, fset.Position(gd.End()).Offset
			default:
				from, to = fset.Position(imp.Pos()).Offset, fset.Position(imp.End()).Offset
				if imp.Doc != nil {
					from = fset.Position(imp.Doc.Pos()).Offset
				}
				if imp.Comment != nil {
					to = fset.Position(imp.Comment.End()).Offset
				}
			}
			drop = append(drop, span{from, to})
		}
	}
	if len(drop) > 0 {
		var b bytes.Buffer
		last := 0
		for _, d := range drop {
			b.Write(src[last:d.from])
			last = d.to
		}
		b.Write(src[last:])
		src = b.Bytes()
	}
	return format.Source(src)
}

// importName is the name an import is referred to by: its explicit name, else the last path
// element that is not a major version suffix.
func importName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p, _ := strconv.Unquote(imp.Path.Value)
	parts := strings.Split(p, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && regexp.MustCompile(`^v[0-9]+$`).MatchString(name) {
		name = parts[len(parts)-2]
	}
	return strings.ReplaceAll(name, "-", "_")
}
