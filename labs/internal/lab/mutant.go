package lab

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Mutant is a plausible wrong solution kept in labs/NN-topic/testdata/mutants/*.go: a Go file
// whose package comment says what is wrong, which reference file it patches ("File:") and
// which tests catch it ("Caught by:"), and whose functions replace the reference functions of
// the same name in that file.
type Mutant struct {
	Name     string   // the file name without .go
	Path     string   // its path
	Summary  string   // the first line of its comment
	File     string   // the reference file it patches, slash path from the repository root
	CaughtBy []string // the tests that must fail with it
	src      []byte
}

// Mutants loads the mutants of l, sorted by name.
func Mutants(root string, l *Lab) ([]Mutant, error) {
	paths, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(l.Dir), "testdata", "mutants", "*.go"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var out []Mutant
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(token.NewFileSet(), p, src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return nil, err
		}
		m := Mutant{Name: strings.TrimSuffix(filepath.Base(p), ".go"), Path: p, src: src}
		if file.Doc != nil {
			paragraph := true
			for line := range strings.SplitSeq(file.Doc.Text(), "\n") {
				line = strings.TrimSpace(line)
				if line == "" {
					paragraph = false
				}
				switch {
				case paragraph:
					m.Summary = strings.TrimSpace(m.Summary + " " + line)
				case strings.HasPrefix(line, "File:"):
					m.File = strings.TrimSpace(strings.TrimPrefix(line, "File:"))
				case strings.HasPrefix(line, "Caught by:"):
					for t := range strings.SplitSeq(strings.TrimPrefix(line, "Caught by:"), ",") {
						if t = strings.TrimSpace(t); t != "" {
							m.CaughtBy = append(m.CaughtBy, t)
						}
					}
				}
			}
		}
		if m.File == "" || len(m.CaughtBy) == 0 {
			return nil, fmt.Errorf("%s: the package comment needs a \"File:\" and a \"Caught by:\" line", p)
		}
		out = append(out, m)
	}
	return out, nil
}

// Apply returns the reference file with the mutant's functions in place of the ones of the same
// name. The mutant's imports are added and unused ones dropped.
func (m Mutant) Apply(root string) ([]byte, error) {
	ref, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return nil, err
	}
	mset := token.NewFileSet()
	mfile, err := parser.ParseFile(mset, m.Path, m.src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	bodies := map[string]string{}
	for _, d := range mfile.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			bodies[funcName(fd)] = string(m.src[mset.Position(fd.Body.Lbrace).Offset : mset.Position(fd.Body.Rbrace).Offset+1])
		}
	}
	rset := token.NewFileSet()
	rfile, err := parser.ParseFile(rset, m.File, ref, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	last := 0
	// New imports go right after the package clause, as a declaration of their own.
	have := map[string]bool{}
	for _, imp := range rfile.Imports {
		have[imp.Path.Value] = true
	}
	pkgEnd := rset.Position(rfile.Name.End()).Offset
	b.Write(ref[:pkgEnd])
	last = pkgEnd
	for _, imp := range mfile.Imports {
		if !have[imp.Path.Value] {
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name + " "
			}
			fmt.Fprintf(&b, "\n\nimport %s%s", name, imp.Path.Value)
		}
	}
	replaced := 0
	for _, d := range rfile.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		body, ok := bodies[funcName(fd)]
		if !ok {
			continue
		}
		from, to := rset.Position(fd.Body.Lbrace).Offset, rset.Position(fd.Body.Rbrace).Offset+1
		b.Write(ref[last:from])
		b.WriteString(body)
		last = to
		replaced++
	}
	b.Write(ref[last:])
	if replaced != len(bodies) {
		return nil, fmt.Errorf("%s: %d of its %d functions are not in %s", m.Path, len(bodies)-replaced, len(bodies), m.File)
	}
	return pruneImports(b.Bytes())
}

// CheckMutant grades l with m applied, running only the tests m names in the lab's runs that
// contain them. caught is true when every one of those tests fails; failing lists the tests
// that failed. With discover it runs every package and chapter test instead, to find the
// tests that catch a new mutant; race builds with the race detector.
func CheckMutant(ctx context.Context, root string, l *Lab, m Mutant, discover, race bool) (caught bool, failing []string, err error) {
	src, err := m.Apply(root)
	if err != nil {
		return false, nil, err
	}
	dir, err := os.MkdirTemp("", "lab-mutant-")
	if err != nil {
		return false, nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, filepath.Base(m.File))
	if err := os.WriteFile(file, src, 0o644); err != nil {
		return false, nil, err
	}
	ov := Overlay{filepath.Join(root, filepath.FromSlash(m.File)): file}
	runs, err := mutantRuns(root, l, m)
	if err != nil {
		return false, nil, err
	}
	if discover {
		runs = nil
		for _, r := range l.Runs {
			if r.Kind == "package" || r.Kind == "chapter" {
				runs = append(runs, r)
			}
		}
	}
	results, err := Grade(ctx, root, runs, ov, Options{Timeout: time.Minute, Race: race})
	if err != nil {
		return false, nil, err
	}
	failed := map[string]bool{}
	for _, r := range results {
		if strings.HasPrefix(r.Name, "(build ") {
			// The reference changed under the mutant: it must be updated, not counted as caught.
			return false, nil, fmt.Errorf("%s no longer compiles against %s:\n%s", m.Path, m.File, strings.Join(r.Output, "\n"))
		}
		if r.Status == Fail || r.Status == Crash {
			failed[r.Name] = true
			failing = append(failing, r.Name)
		}
	}
	caught = true
	for _, t := range m.CaughtBy {
		if !failed[t] {
			caught = false
		}
	}
	return caught, failing, nil
}

// mutantRuns narrows l's runs to the ones holding m's tests, each running only those tests.
func mutantRuns(root string, l *Lab, m Mutant) ([]Run, error) {
	var runs []Run
	found := map[string]bool{}
	for _, r := range l.Runs {
		var names []string
		for _, t := range m.CaughtBy {
			if !found[t] && declares(root, r.Pkg, t) {
				names = append(names, regexp.QuoteMeta(t))
				found[t] = true
			}
		}
		if len(names) > 0 {
			runs = append(runs, Run{Pkg: r.Pkg, Run: "^(" + strings.Join(names, "|") + ")$", Args: r.Args, Kind: r.Kind})
		}
	}
	for _, t := range m.CaughtBy {
		if !found[t] {
			return nil, fmt.Errorf("%s: %s is not a test of lab %s's runs", m.Path, t, l.ID)
		}
	}
	return runs, nil
}

// declares reports whether a test file of pkg declares func test.
func declares(root, pkg, test string) bool {
	files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pkg), "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && regexp.MustCompile(`(?m)^func `+regexp.QuoteMeta(test)+`\(`).Match(b) {
			return true
		}
	}
	return false
}
