package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Check returns one message per reference that does not resolve inside the repository:
// a cited ID without an entry, an entry cited nowhere, a relative Markdown link or a
// repository path in backquotes that leads nowhere, a link to a missing anchor of a
// generated document, a pointer outside the repository, an article-example label, a
// TestChNN_ name that two packages declare, and a statement without a current Chinese twin.
func Check(root string, lists []*List, cites []Cite) ([]string, error) {
	var problems []string
	entries := map[string]map[string]Entry{}
	for _, l := range lists {
		entries[l.NS] = l.Entries()
	}
	cited := map[string]bool{}
	reported := map[string]bool{}
	for _, c := range cites {
		cited[c.NS+" "+c.ID] = true
		if _, ok := entries[c.NS][c.ID]; !ok && !reported[c.NS+c.ID+c.File] {
			reported[c.NS+c.ID+c.File] = true
			problems = append(problems, fmt.Sprintf("%s:%d: %s is not in the %s reference", c.File, c.Line, c.ID, c.NS))
		}
	}
	for _, l := range lists {
		for _, s := range l.Sections {
			for _, e := range s.Entries {
				if !cited[l.NS+" "+e.ID] {
					problems = append(problems, fmt.Sprintf("%s:%d: %s is cited nowhere in the repository", l.Data, e.Line, e.ID))
				}
			}
		}
	}
	anchors := map[string]map[string]bool{}
	for _, l := range lists {
		a := map[string]bool{}
		for _, s := range l.Sections {
			a["s"+strings.ReplaceAll(s.Num, ".", "-")] = true
			for _, e := range s.Entries {
				a[e.Anchor] = true
			}
		}
		anchors[l.Out] = a
		anchors[l.Zh.Out] = a // the Chinese twin has the same anchors
		problems = append(problems, TwinProblems(l)...)
	}
	tops, err := topDirs(root)
	if err != nil {
		return nil, err
	}
	names, err := testNames(root)
	if err != nil {
		return nil, err
	}
	dups, err := DuplicateChapterTests(root)
	if err != nil {
		return nil, err
	}
	problems = append(problems, dups...)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "fuzz" || rel == "internal/cmd/behaviourref/testdata" || untracked(rel, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		ext := path.Ext(rel)
		if !scanExts[ext] {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		src := string(data)
		self := strings.HasPrefix(rel, "internal/cmd/behaviourref/")
		for i, line := range strings.Split(src, "\n") {
			at := fmt.Sprintf("%s:%d", rel, i+1)
			if !self {
				for _, bad := range outside {
					if strings.Contains(line, bad) {
						problems = append(problems, fmt.Sprintf("%s: %q points outside the repository", at, bad))
					}
				}
				if m := labelIn(line); m != "" {
					problems = append(problems, fmt.Sprintf("%s: %q is an article-example label the repository does not define; name the article and section (docs/articles.md)", at, strings.TrimSpace(m)))
				}
			}
			if ext != ".md" {
				continue
			}
			if !strings.ContainsAny(line, "]`") {
				continue
			}
			for _, m := range reLink.FindAllStringSubmatch(line, -1) {
				if msg := checkLink(root, rel, m[1], anchors); msg != "" {
					problems = append(problems, at+": "+msg)
				}
			}
			for _, m := range reTestName.FindAllStringSubmatch(line, -1) {
				if !names[m[1]] {
					problems = append(problems, fmt.Sprintf("%s: test %s does not exist", at, m[1]))
				}
			}
			for _, m := range reCodePath.FindAllStringSubmatch(oursPart(line), -1) {
				if msg := checkPath(root, rel, m[1], tops); msg != "" {
					problems = append(problems, at+": "+msg)
				}
			}
		}
		return nil
	})
	sort.Strings(problems)
	return problems, err
}

var (
	// outside lists pointers a reader cannot follow inside the repository.
	outside = []string{"../shared", "spec/client-go-behaviour.md", "spec/apiserver-wire.md"}
	// reLabel matches the old catalogue labels of the articles' examples (A1 … A16).
	reLabel = regexp.MustCompile(`(^|[^\w./-])A[0-9]{1,2}\b`)
	// reLink matches a Markdown link target.
	reLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// reTestName matches a whole name of one of our tests or examples in backquotes (client-go's
	// own test names, also quoted in READMEs, follow other patterns).
	reTestName = regexp.MustCompile("`((?:TestCh[0-9]{2}_|TestInterop_|Example_)[A-Za-z0-9_]+)`")
	// reTestDecl matches the declaration of one in a Go test file.
	reTestDecl = regexp.MustCompile(`(?m)^func ((?:Test|Example|Benchmark|Fuzz)[A-Za-z0-9_]*)\(`)
	// reCodePath matches a path in backquotes: dir/…/name.
	reCodePath = regexp.MustCompile("`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*)`")
)

// upstream lists where an external link may go: the upstream projects' sources and docs.
var upstream = []string{"https://github.com/kubernetes/", "https://github.com/kubernetes-sigs/",
	"https://kubernetes.io/", "https://pkg.go.dev/k8s.io/"}

func checkLink(root, from, target string, anchors map[string]map[string]bool) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		for _, u := range upstream {
			if strings.HasPrefix(target, u) {
				return ""
			}
		}
		return fmt.Sprintf("link %q leaves the repository for somewhere other than the upstream sources", target)
	}
	file, frag, _ := strings.Cut(target, "#")
	resolved := from
	if file != "" {
		resolved = path.Join(path.Dir(from), file)
		if resolved == ".." || strings.HasPrefix(resolved, "../") {
			return fmt.Sprintf("link %q leaves the repository", target)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(resolved))); err != nil {
			return fmt.Sprintf("link %q: %s does not exist", target, resolved)
		}
	}
	if frag == "" || !strings.HasSuffix(resolved, ".md") {
		return ""
	}
	a, ok := anchors[resolved]
	if !ok {
		a = fileAnchors(filepath.Join(root, filepath.FromSlash(resolved)))
		anchors[resolved] = a
	}
	if !a[frag] {
		return fmt.Sprintf("link %q: %s has no anchor %q", target, resolved, frag)
	}
	return ""
}

// labelIn returns the first old article-example label on the line, or "".
func labelIn(line string) string {
	if !strings.Contains(line, "A") || !mayCite(line) {
		return ""
	}
	return reLabel.FindString(line)
}

var reExplicitAnchor = regexp.MustCompile(`<a id="([^"]+)"`)

// fileAnchors returns the anchors of a Markdown file: explicit <a id="…"> ones and those a
// heading gets on GitHub (lower case, punctuation dropped, spaces as dashes, -1, -2 … for
// repeats).
func fileAnchors(path string) map[string]bool {
	a := map[string]bool{}
	data, err := os.ReadFile(path)
	if err != nil {
		return a
	}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		for _, m := range reExplicitAnchor.FindAllStringSubmatch(line, -1) {
			a[m[1]] = true
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		slug := headingSlug(strings.TrimLeft(line, "#"))
		if n := seen[slug]; n > 0 {
			a[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			a[slug] = true
		}
		seen[slug]++
	}
	return a
}

func headingSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkPath checks a backquoted path whose first element is a directory at the root of the
// repository (chapters/…, deltafifo/doc.go): it must exist, from the root or from the file's
// own directory. Other paths (client-go's tools/cache/…, URL paths) are not ours to check.
func checkPath(root, from, p string, tops map[string]bool) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/"), ".")
	if i := strings.Index(p, ":"); i >= 0 {
		p = p[:i]
	}
	p = reIdentSuffix.ReplaceAllString(p, "") // internal/clock.Clock names a package's identifier
	first, rest, _ := strings.Cut(p, "/")
	if !tops[first] || strings.ContainsAny(p, "*…<>{}") {
		return ""
	}
	switch {
	case first == "tools" && rest != "" && !strings.HasPrefix(rest, "cmd") && rest != "README.md" && rest != "go.mod":
		return "" // client-go's tools/cache/…, tools/pager/…: upstream paths, not our tools module
	case first == "labs" && (strings.HasPrefix(rest, "work") || strings.Contains(rest, "NN")):
		return "" // the learner's git-ignored workspace, and lab-number placeholders
	case first == "artifacts":
		return "" // git-ignored test output (make e2e-browser); upstream artifacts/… paths
	}
	cands := []string{p, path.Join(path.Dir(from), p)}
	for top := range tops { // a path given relative to a top-level package, as a chapter's table does
		cands = append(cands, path.Join(top, p))
	}
	for _, cand := range cands {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(cand))); err == nil {
			return ""
		}
	}
	return fmt.Sprintf("path `%s` does not exist in the repository", p)
}

// testNames returns the names of every test, example, benchmark and fuzz target in the tree.
func testNames(root string) (map[string]bool, error) {
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range reTestDecl.FindAllStringSubmatch(string(data), -1) {
			names[m[1]] = true
		}
		return nil
	})
	return names, err
}

var reIdentSuffix = regexp.MustCompile(`\.[A-Z][A-Za-z0-9_]*$`)

// oursPart returns the part of a Markdown line whose paths are ours: the whole line, or for a
// table row its first cell (source-map tables put the upstream file in a later cell).
func oursPart(line string) string {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return line
	}
	cells := strings.Split(t, "|")
	if len(cells) > 2 {
		return cells[1]
	}
	return line
}

func topDirs(root string) (map[string]bool, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	tops := map[string]bool{}
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			tops[e.Name()] = true
		}
	}
	return tops, nil
}
