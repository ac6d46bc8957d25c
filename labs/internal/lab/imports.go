package lab

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
)

// guardImports keeps every import of the reference file in the skeleton. An import that only
// the stripped bodies used gets a guard, a blank declaration that refers to one of its
// symbols, so the skeleton compiles and a learner's first function may call the package
// (trace.Hop, say) without editing the imports. used maps an import's name to the symbols the
// reference used from it, in order. An import none of whose symbols can be guarded is dropped,
// as before.
func guardImports(src []byte, used map[string][]string) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	still := selectorsByPackage(file)
	var guards []string
	for _, imp := range file.Imports {
		name := importName(imp)
		if name == "_" || name == "." || len(still[name]) > 0 {
			continue
		}
		path, _ := strconv.Unquote(imp.Path.Value)
		for _, sym := range used[name] {
			switch symbolKind(path, sym) {
			case kindValue:
				guards = append(guards, fmt.Sprintf("_ = %s.%s", name, sym))
			case kindType:
				guards = append(guards, fmt.Sprintf("_ *%s.%s", name, sym))
			default:
				continue
			}
			break
		}
	}
	if len(guards) > 0 {
		var b bytes.Buffer
		b.Write(bytes.TrimRight(src, "\n"))
		b.WriteString("\n\n// The reference's bodies use these packages; the blank declarations keep their imports\n" +
			"// while your bodies are empty, so that the skeleton builds. They are harmless: leave them.\nvar (\n")
		for _, g := range guards {
			b.WriteString("\t" + g + "\n")
		}
		b.WriteString(")\n")
		src = b.Bytes()
	}
	out, err := pruneImports(src)
	if err != nil {
		return nil, err
	}
	return format.Source(out)
}

// selectorsByPackage lists, per identifier, the names selected from it (pkg.Name), in order.
func selectorsByPackage(n ast.Node) map[string][]string {
	out := map[string][]string{}
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && !slices.Contains(out[id.Name], s.Sel.Name) {
				out[id.Name] = append(out[id.Name], s.Sel.Name)
			}
		}
		return true
	})
	return out
}

type symKind int

const (
	kindUnknown symKind = iota
	kindValue           // a non-generic function, a variable or a constant
	kindType            // a non-generic type
)

var (
	pkgDeclsMu sync.Mutex
	pkgDecls   = map[string]map[string]symKind{}
)

// symbolKind finds sym among the top-level declarations of the package at import path, which
// go/build locates from the working directory (the repository, for lab and its tests).
func symbolKind(path, sym string) symKind {
	pkgDeclsMu.Lock()
	defer pkgDeclsMu.Unlock()
	decls, ok := pkgDecls[path]
	if !ok {
		decls = map[string]symKind{}
		pkgDecls[path] = decls
		p, err := build.Default.Import(path, ".", 0)
		if err != nil {
			return kindUnknown
		}
		for _, f := range p.GoFiles {
			file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range file.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Type.TypeParams == nil {
						decls[d.Name.Name] = kindValue
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.TypeParams == nil {
								decls[s.Name.Name] = kindType
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								decls[n.Name] = kindValue
							}
						}
					}
				}
			}
		}
	}
	return decls[sym]
}
