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
			switch d := symbolKind(path, sym); d.kind {
			case kindValue:
				guards = append(guards, fmt.Sprintf("_ = %s.%s", name, sym))
			case kindType:
				guards = append(guards, fmt.Sprintf("_ *%s.%s", name, sym))
			case kindGeneric:
				guards = append(guards, fmt.Sprintf("_ = %s.%s[%s]", name, sym, d.inst))
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
	kindGeneric         // a generic function whose first type argument determines the others
)

// symDecl is what a guard needs of a symbol: its kind, and for a generic function the type
// argument that instantiates it (slices.Grow[[]int]).
type symDecl struct {
	kind symKind
	inst string
}

var (
	pkgDeclsMu sync.Mutex
	pkgDecls   = map[string]map[string]symDecl{}
)

// instantiation returns a type argument for the first type parameter of a generic function
// from which Go infers the others (S ~[]E gives []int, M ~map[K]V gives map[int]int), or ""
// when the others cannot be inferred from it.
func instantiation(tp *ast.FieldList) string {
	first := tp.List[0]
	var names []string
	for _, f := range tp.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	c := first.Type
	if u, ok := c.(*ast.UnaryExpr); ok && u.Op == token.TILDE {
		c = u.X
	}
	inst := "int"
	switch c.(type) {
	case *ast.ArrayType:
		inst = "[]int"
	case *ast.MapType:
		inst = "map[int]int"
	}
	// Every other parameter must appear in the first one's constraint, else it is not inferred.
	mentioned := selectorsAndIdents(first.Type)
	for _, n := range names[len(first.Names):] {
		if !mentioned[n] {
			return ""
		}
	}
	if len(first.Names) > 1 {
		return ""
	}
	return inst
}

func selectorsAndIdents(n ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// symbolKind finds sym among the top-level declarations of the package at import path, which
// go/build locates from the working directory (the repository, for lab and its tests).
func symbolKind(path, sym string) symDecl {
	pkgDeclsMu.Lock()
	defer pkgDeclsMu.Unlock()
	decls, ok := pkgDecls[path]
	if !ok {
		decls = map[string]symDecl{}
		pkgDecls[path] = decls
		p, err := build.Default.Import(path, ".", 0)
		if err != nil {
			return symDecl{}
		}
		for _, f := range p.GoFiles {
			file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range file.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					switch {
					case d.Recv != nil:
					case d.Type.TypeParams == nil:
						decls[d.Name.Name] = symDecl{kind: kindValue}
					default:
						if inst := instantiation(d.Type.TypeParams); inst != "" {
							decls[d.Name.Name] = symDecl{kind: kindGeneric, inst: inst}
						}
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.TypeParams == nil {
								decls[s.Name.Name] = symDecl{kind: kindType}
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								decls[n.Name] = symDecl{kind: kindValue}
							}
						}
					}
				}
			}
		}
	}
	return decls[sym]
}
