package main

import (
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

// Namespaces of statement IDs: the client-go behaviour list and the wire list.
const (
	Behaviour = "behaviour"
	Wire      = "wire"
)

// A Cite is one place that names a statement ID.
type Cite struct {
	NS, ID string
	File   string // slash path relative to the repository root
	Line   int
	Test   string // the enclosing Test/Example/Fuzz/Benchmark function, or a scenario script
}

var (
	// reDash matches the behaviour IDs, which always carry a dash: DF-7, R-12, INV-3.
	reDash = regexp.MustCompile(`\b(C|D|DF|FA|FF|H|INV|K|L|LW|N|PG|PL|R|RB|RF|SI|SP|ST|TS|WQ)-([0-9]+)\b`)
	// reBare matches the wire IDs (W14, NS3) and the behaviour tables' E1–E11 and T1–T24.
	reBare = regexp.MustCompile(`(^|[^.\w-])(CG|NS|C|D|E|K|L|N|P|R|S|T|U|W|X)([0-9]+)\b`)
	// reName splits a test name into the IDs it carries: TestCh04_T1_…, TestCh06_Controller_C1_….
	reName = regexp.MustCompile(`^(CG|NS|DF|FA|FF|INV|LW|PG|PL|RB|RF|SI|SP|ST|TS|WQ|C|D|E|H|K|L|N|P|R|S|T|U|W|X)([0-9]+)$`)
	// reRange matches a range written with an en dash or "…": E1–E11, W1…W4, DF-1 … DF-4.
	reRange = regexp.MustCompile(`\b(CG|NS|DF|FA|FF|INV|LW|PG|PL|RB|RF|SI|SP|ST|TS|WQ|C|D|E|H|K|L|N|P|R|S|T|U|W|X)(-?)([0-9]+) ?(?:–|…|\.\.\.) ?([A-Z]{1,3})?-?([0-9]+)\b`)
)

// wireDirs hold the server and the client's wire layer: bare E and T IDs there are the wire
// list's (the error table, the end-to-end checklist), elsewhere the behaviour list's.
var wireDirs = []string{"api/", "apiserver/", "rest/", "clientcmd/", "client/", "chapters/00-", "chapters/01-", "harness/e2e/", "interop/"}

func isWireFile(rel string) bool {
	for _, d := range wireDirs {
		if strings.HasPrefix(rel, d) {
			return true
		}
	}
	return false
}

// skipped lists files and directories the scan does not read: generated output, this
// command's own data and test fixtures, and fuzz corpora.
func skipped(rel string, d fs.DirEntry) bool {
	name := d.Name()
	if d.IsDir() {
		return strings.HasPrefix(name, ".") && rel != "." || name == "fuzz" || rel == "internal/cmd/behaviourref" || untracked(rel, name)
	}
	// SOURCE_MAP.md is generated from doc comments, which are scanned where they are written.
	return strings.HasPrefix(rel, "docs/behaviour/") || rel == "SOURCE_MAP.md"
}

// untracked reports the directories that hold files nobody in the repository wrote and git
// ignores: npm's node_modules (make interop installs them) and the learner's lab workspace.
func untracked(rel, name string) bool {
	return name == "node_modules" || rel == "labs/work"
}

// scanExts are the files a reader meets IDs in: Go code, Markdown and scenario scripts.
var scanExts = map[string]bool{".go": true, ".md": true, ".txt": true}

// Scan walks the repository and returns every citation of a statement ID.
func Scan(root string) ([]Cite, error) {
	var cites []Cite
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if skipped(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !scanExts[path.Ext(rel)] {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		cites = append(cites, scanFile(rel, string(src))...)
		return nil
	})
	sort.SliceStable(cites, func(i, j int) bool {
		a, b := cites[i], cites[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return cites, err
}

func scanFile(rel, src string) []Cite {
	wire := isWireFile(rel)
	tests := testSpans(rel, src)
	script := ""
	if strings.HasSuffix(rel, ".txt") && strings.Contains(rel, "/testdata/") {
		script = rel
	}
	lines := strings.Split(src, "\n")
	testOf := make([]string, len(lines)+2) // the test each line belongs to, by line number
	for _, t := range tests {
		for n := t.from; n <= t.to && n < len(testOf); n++ {
			testOf[n] = t.name
		}
	}
	var out []Cite
	for i, line := range lines {
		n := i + 1
		test := script
		if testOf[n] != "" {
			test = testOf[n]
		}
		if !mayCite(line) {
			continue
		}
		for _, c := range lineIDs(line, wire) {
			c.File, c.Line, c.Test = rel, n, test
			out = append(out, c)
		}
	}
	for _, t := range tests {
		for _, c := range nameIDs(t.name, wire) {
			c.File, c.Line, c.Test = rel, t.from, t.name
			out = append(out, c)
		}
	}
	return out
}

// mayCite is a cheap filter before the regular expressions: an ID needs an upper-case letter
// followed by a digit or by a dash and a digit.
func mayCite(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		if c := line[i]; c < 'A' || c > 'Z' {
			continue
		}
		if d := line[i+1]; d >= '0' && d <= '9' || d == '-' && i+2 < len(line) && line[i+2] >= '0' && line[i+2] <= '9' {
			return true
		}
	}
	return false
}

// lineIDs returns the IDs one line of text names, ranges expanded.
func lineIDs(line string, wire bool) []Cite {
	var out []Cite
	for _, m := range reRange.FindAllStringSubmatch(line, -1) {
		if m[4] != "" && m[4] != m[1] {
			continue
		}
		from, to := atoi(m[3]), atoi(m[5])
		if to <= from || to-from > 60 {
			continue
		}
		for k := from + 1; k < to; k++ { // the ends are matched below
			id := m[1] + m[2] + itoa(k)
			if m[2] == "-" {
				out = append(out, Cite{NS: Behaviour, ID: id})
			} else {
				out = append(out, Cite{NS: bareNS(m[1], wire), ID: id})
			}
		}
	}
	for _, m := range reDash.FindAllStringSubmatch(line, -1) {
		out = append(out, Cite{NS: Behaviour, ID: m[1] + "-" + m[2]})
	}
	for _, m := range reBare.FindAllStringSubmatchIndex(line, -1) {
		prefix := line[m[4]:m[5]]
		// "docs/behaviour/wire.md E39" or "wire E39" names the wire list wherever it is written.
		w := wire || strings.Contains(strings.ToLower(line[:m[4]]), "wire")
		out = append(out, Cite{NS: bareNS(prefix, w), ID: prefix + line[m[6]:m[7]]})
	}
	return out
}

// bareNS says which list a dash-less ID belongs to.
func bareNS(prefix string, wire bool) string {
	if (prefix == "E" || prefix == "T") && !wire {
		return Behaviour
	}
	return Wire
}

// nameIDs returns the IDs a test's name carries: in chapter 01 (the apiserver) they are the
// wire list's, elsewhere the behaviour list's, written without their dash.
func nameIDs(name string, wire bool) []Cite {
	parts := strings.Split(name, "_")
	if len(parts) < 3 {
		return nil
	}
	wireTest := parts[0] == "TestCh01" || parts[0] == "TestCh00" || wire && !strings.HasPrefix(parts[0], "TestCh")
	var out []Cite
	for _, p := range parts[1:] {
		m := reName.FindStringSubmatch(p)
		if m == nil {
			continue
		}
		if wireTest {
			out = append(out, Cite{NS: Wire, ID: m[1] + m[2]})
		} else if m[1] == "E" || m[1] == "T" {
			out = append(out, Cite{NS: Behaviour, ID: m[1] + m[2]})
		} else {
			out = append(out, Cite{NS: Behaviour, ID: m[1] + "-" + m[2]})
		}
	}
	return out
}

type span struct {
	name     string
	from, to int
}

// testSpans returns the lines of each test, example, fuzz target and benchmark of a Go test
// file, doc comment included.
func testSpans(rel, src string) []span {
	if !strings.HasSuffix(rel, "_test.go") {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments)
	if err != nil {
		return nil
	}
	var out []span
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !isTestName(fn.Name.Name) {
			continue
		}
		from := fset.Position(fn.Pos()).Line
		if fn.Doc != nil {
			from = fset.Position(fn.Doc.Pos()).Line
		}
		out = append(out, span{fn.Name.Name, from, fset.Position(fn.End()).Line})
	}
	return out
}

func isTestName(n string) bool {
	for _, p := range []string{"Test", "Example", "Fuzz", "Benchmark"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
