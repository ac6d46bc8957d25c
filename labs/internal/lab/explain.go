package lab

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Explainer finds, for a test, its teaching point (the first sentence of its doc comment) and
// the chapter section that explains it.
type Explainer struct {
	root   string
	points map[string]map[string]string // package dir → test → teaching point
	rules  *behaviourRules              // the Chinese behaviour reference, read once
}

// NewExplainer reads test doc comments lazily from the repository at root.
func NewExplainer(root string) *Explainer {
	return &Explainer{root: root, points: map[string]map[string]string{}}
}

// Point returns the teaching point of test in the package directory pkg ("./deltafifo/").
func (e *Explainer) Point(pkg, test string) string {
	pts, ok := e.points[pkg]
	if !ok {
		pts = map[string]string{}
		files, _ := filepath.Glob(filepath.Join(e.root, filepath.FromSlash(pkg), "*_test.go"))
		for _, f := range files {
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Doc != nil {
					pts[fd.Name.Name] = firstSentence(fd.Doc.Text())
				}
			}
		}
		e.points[pkg] = pts
	}
	if p := pts[test]; p != "" {
		return p
	}
	if strings.HasPrefix(test, "Example") {
		return T(EN, "example.point")
	}
	return humanize(test)
}

// firstSentence returns the first sentence of a doc comment, cut at 240 characters.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i+1]
	}
	if len(doc) > 240 {
		doc = doc[:237] + "…"
	}
	return doc
}

var camelRE = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// humanize turns TestCh04_DeleteDedupKeepsOlder into "delete dedup keeps older".
func humanize(test string) string {
	s := strings.TrimPrefix(test, "Test")
	if i := strings.Index(s, "_"); i >= 0 && strings.HasPrefix(s, "Ch") {
		s = s[i+1:]
	}
	s = camelRE.ReplaceAllString(s, "$1 $2")
	return strings.ToLower(strings.ReplaceAll(s, "_", " "))
}

var (
	chapterRE = regexp.MustCompile(`^(?:Test|Example)Ch(\d\d)_`)
	specIDRE  = regexp.MustCompile(`(?:^|_)([A-Z]{1,4})(\d{1,2})(?:_|$)`)
	headingRE = regexp.MustCompile(`^#{2,4} (.+)$`)
	docIDRE   = regexp.MustCompile(`\b[A-Z]{1,4}-\d{1,2}\b`)
)

// Section returns where a learner reads about test, a test of the package directory pkg:
// "chapters/04-deltafifo/README.md § Dedup". It looks in the test's chapter (from its
// TestChNN_ prefix, else fallback) for the test's name, then for the spec IDs in the name
// (TS5 → TS-5) and in its teaching point, and names the heading above the first hit; with no
// hit it names the README alone.
func (e *Explainer) Section(pkg, test, fallback string) string {
	chapter := fallback
	if m := chapterRE.FindStringSubmatch(test); m != nil {
		if dirs, _ := filepath.Glob(filepath.Join(e.root, "chapters", m[1]+"-*")); len(dirs) > 0 {
			rel, _ := filepath.Rel(e.root, dirs[0])
			chapter = filepath.ToSlash(rel)
		}
	}
	readme := chapter + "/README.md"
	needles := []string{test}
	for _, m := range specIDRE.FindAllStringSubmatch(strings.TrimPrefix(test, "Test"), -1) {
		if m[1] != "Ch" {
			needles = append(needles, m[1]+"-"+m[2])
		}
	}
	// The doc comment often starts with the IDs it tests ("DF-5: …").
	if pkg != "" {
		needles = append(needles, docIDRE.FindAllString(e.Point(pkg, test), -1)...)
	}
	for _, n := range needles {
		if h := headingAbove(filepath.Join(e.root, filepath.FromSlash(readme)), n); h != "" {
			return fmt.Sprintf("%s § %s", readme, h)
		}
	}
	return readme
}

var wordEnd = regexp.MustCompile(`^[^0-9A-Za-z_]`)

// headingAbove returns the last heading before the first line of file that contains needle as
// a whole word.
func headingAbove(file, needle string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	heading := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := headingRE.FindStringSubmatch(line); m != nil {
			heading = m[1]
			continue
		}
		for i := strings.Index(line, needle); i >= 0; {
			rest := line[i+len(needle):]
			if rest == "" || wordEnd.MatchString(rest) {
				return heading
			}
			j := strings.Index(rest, needle)
			if j < 0 {
				break
			}
			i += len(needle) + j
		}
	}
	return ""
}

// PointIn is Point in lang. In Chinese it is the behaviour reference's Chinese statement of
// the rules the test pins (docs/behaviour/*.zh-CN.md, found by the IDs in the test's name
// and doc comment, or by the test's name in a rule's list of tests), since the tests' doc
// comments are English; the English point when the reference has none.
func (e *Explainer) PointIn(lang Lang, pkg, test string) string {
	if lang != ZH {
		return e.Point(pkg, test)
	}
	if strings.HasPrefix(test, "Example") && e.Point(pkg, test) == T(EN, "example.point") {
		return T(ZH, "example.point")
	}
	rules := e.behaviour()
	var ids []string
	for _, m := range specIDRE.FindAllStringSubmatch(strings.TrimPrefix(test, "Test"), -1) {
		if m[1] != "Ch" {
			ids = append(ids, m[1]+"-"+m[2])
		}
	}
	ids = append(ids, docIDRE.FindAllString(e.Point(pkg, test), -1)...)
	ids = append(ids, rules.byTest[test]...)
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		if st, ok := rules.zh[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id+"："+st)
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return e.Point(pkg, test)
	}
	return strings.Join(out, " ")
}

// behaviourRules are the rows of the Chinese behaviour reference: ID → statement, and test →
// the IDs whose row lists it.
type behaviourRules struct {
	zh     map[string]string
	byTest map[string][]string
}

var (
	ruleRowRE  = regexp.MustCompile(`^\| <a id="([^"]+)"></a>\*\*[^*]+\*\* \| (.*?) \| `)
	ruleTestRE = regexp.MustCompile("\\[`((?:Test|Example)\\w+)`\\]")
)

func (e *Explainer) behaviour() *behaviourRules {
	if e.rules != nil {
		return e.rules
	}
	e.rules = &behaviourRules{zh: map[string]string{}, byTest: map[string][]string{}}
	files, _ := filepath.Glob(filepath.Join(e.root, "docs", "behaviour", "*.zh-CN.md"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			m := ruleRowRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			e.rules.zh[m[1]] = strings.ReplaceAll(m[2], "`", "")
			for _, t := range ruleTestRE.FindAllStringSubmatch(line, -1) {
				e.rules.byTest[t[1]] = append(e.rules.byTest[t[1]], m[1])
			}
		}
	}
	return e.rules
}
