package lab

import (
	"context"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Ordered returns the regions of l step by step, each step's First function first, then the
// others in file order: the order lab-start lists them and lab-timings writes them.
func (l *Lab) Ordered(regions []Region) []Region {
	var out []Region
	for _, s := range l.Steps {
		for _, r := range regions {
			if r.Step == s.N && r.Func == s.First {
				out = append(out, r)
			}
		}
		for _, r := range regions {
			if r.Step == s.N && r.Func != s.First {
				out = append(out, r)
			}
		}
	}
	return out
}

// PartialOverlay writes into dir the files of l with every region stripped except those
// written reports true for, and returns the overlay that puts them in place.
func PartialOverlay(root, dir string, l *Lab, written func(fn string) bool) (Overlay, error) {
	regions, err := Regions(root, l.ID, l.Dirs)
	if err != nil {
		return nil, err
	}
	ov := Overlay{}
	for _, f := range Files(regions) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		out, _, err := StripExcept(src, l.ID, written)
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return nil, err
		}
		ov[filepath.Join(root, filepath.FromSlash(f))] = dst
	}
	return ov, nil
}

// Graded lists the tests that grade l, "pkg name", from the test sources: every top-level
// test and example with output that its Runs select, minus the optional ones. It is the
// fixed denominator of the score, the same for an untouched skeleton and a finished lab,
// whatever compiles or crashes on the way.
func Graded(root string, l *Lab) []string {
	var out []string
	for _, r := range l.Runs {
		pattern := regexp.MustCompile(".")
		if r.Run != "" {
			pattern = regexp.MustCompile(r.Run)
		}
		for _, name := range testNames(root, r.Pkg) {
			id := r.Pkg + " " + name
			if pattern.MatchString(name) && !l.Optional.MatchString(name) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// testNames lists the top-level tests and the examples with an output comment that go test
// runs in pkg on this platform.
func testNames(root, pkg string) []string {
	dir := filepath.Join(root, filepath.FromSlash(pkg))
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	slices.Sort(files)
	var names []string
	for _, f := range files {
		if ok, err := build.Default.MatchFile(dir, filepath.Base(f)); err != nil || !ok {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			name := fd.Name.Name
			switch {
			case strings.HasPrefix(name, "Test") && name != "TestMain":
				names = append(names, name)
			case strings.HasPrefix(name, "Example") && hasOutput(file, fd):
				names = append(names, name)
			}
		}
	}
	return names
}

// hasOutput reports whether an example has an "Output:" comment, without which go test only
// compiles it.
func hasOutput(file *ast.File, fd *ast.FuncDecl) bool {
	for _, c := range file.Comments {
		if c.Pos() > fd.Body.Lbrace && c.End() < fd.Body.Rbrace {
			t := strings.TrimSpace(c.Text())
			if strings.HasPrefix(t, "Output:") || strings.HasPrefix(t, "Unordered output:") {
				return true
			}
		}
	}
	return false
}

// Progress is where a check stopped: Step is the first step whose tests fail (0 when every
// step passes and the lab's whole Runs ran).
type Progress struct {
	Step, Steps int
	Full        bool // the lab's Runs ran (every step passed, or all was asked for)
}

// Check grades ov step by step: each step's Tests in order, stopping at the first step with a
// graded failure; when every step passes, or all is set, it runs the lab's whole Runs.
func Check(ctx context.Context, root string, l *Lab, ov Overlay, all bool, opt Options) ([]Result, Progress, error) {
	g, err := NewGrader(root, ov, opt)
	if err != nil {
		return nil, Progress{}, err
	}
	defer g.Close()
	p := Progress{Steps: len(l.Steps)}
	if !all {
		// The passing steps' results stay on the board, so the score only grows as the
		// learner moves on.
		var done []Result
		for _, s := range l.Steps {
			runs := slices.Clone(s.Tests)
			for i := range runs {
				runs[i].Step = s.N
			}
			res, err := g.Grade(ctx, runs)
			if err != nil {
				return nil, p, err
			}
			done = append(done, res...)
			if l.Tally(res).Fail > 0 {
				p.Step = s.N
				return done, p, nil
			}
		}
	}
	res, err := g.Grade(ctx, l.Runs)
	p.Full = true
	if err == nil && l.Tally(res).Fail > 0 {
		p.Step = l.failingStep(res)
	}
	return res, p, err
}

// failingStep is the first step with a failing test among results, or the last step when
// only tests outside every step's Tests fail (the lab's whole suite, once the steps pass).
func (l *Lab) failingStep(results []Result) int {
	for _, s := range l.Steps {
		for _, t := range s.Tests {
			re := regexp.MustCompile(t.Run)
			for _, r := range results {
				if r.Run.Pkg == t.Pkg && (r.Status == Fail || r.Status == Crash) && re.MatchString(r.Name) && !l.Optional.MatchString(r.Name) {
					return s.N
				}
			}
		}
	}
	return len(l.Steps)
}
