package lab

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository root, two levels above this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("../../..")
	require.NoError(t, err)
	return r
}

// TestLabs_Catalogue checks that every lab is complete: each step has marked functions, each
// marker belongs to a step, the hints exist in both languages at all three levels, and there are
// at least three mutants, each naming tests of the lab's runs and listed on both instructor's
// pages with those tests.
func TestLabs_Catalogue(t *testing.T) {
	r := root(t)
	var instructor []string
	for _, p := range []string{"INSTRUCTOR.md", "INSTRUCTOR.zh-CN.md"} {
		b, err := os.ReadFile(filepath.Join(r, "labs", p))
		require.NoError(t, err)
		instructor = append(instructor, string(b))
	}
	for i := range Catalogue {
		l := &Catalogue[i]
		t.Run(l.ID, func(t *testing.T) {
			regions, err := Regions(r, l.ID, l.Dirs)
			require.NoError(t, err)
			for _, s := range l.Steps {
				n := 0
				for _, reg := range regions {
					if reg.Step == s.N {
						n++
					}
				}
				assert.Positive(t, n, "step %d has no function marked //lab:%s.%d", s.N, l.ID, s.N)
			}
			for _, reg := range regions {
				assert.True(t, slices.ContainsFunc(l.Steps, func(s Step) bool { return s.N == reg.Step }),
					"%s:%d %s names step %d, which lab %s does not have", reg.File, reg.Line, reg.Func, reg.Step, l.ID)
			}
			for _, lang := range []Lang{EN, ZH} {
				_, err := Hints(r, l, lang)
				assert.NoError(t, err, "hints in %s", lang)
			}
			ms, err := Mutants(r, l)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(ms), 3, "lab %s needs at least three mutants", l.ID)
			for _, m := range ms {
				_, err := mutantRuns(r, l, m)
				assert.NoError(t, err)
				assert.NotEmpty(t, m.Summary, m.Path)
				// The instructor's page lists every mutant with the tests that catch it.
				for _, page := range instructor {
					row := "| " + l.ID + " | `" + m.Name + "` |"
					assert.Contains(t, page, row, "INSTRUCTOR pages: no row for %s", m.Name)
					for line := range strings.SplitSeq(page, "\n") {
						if strings.HasPrefix(line, row) {
							assert.True(t, strings.HasSuffix(line, "`"+strings.Join(m.CaughtBy, "`, `")+"` |"),
								"INSTRUCTOR pages: %s must name %v", m.Name, m.CaughtBy)
						}
					}
				}
			}
			_, err = os.Stat(filepath.Join(r, l.Chapter, "README.md"))
			assert.NoError(t, err, "the lab's chapter")
		})
	}
}

// TestLabs_SkeletonsCompile strips every lab's functions and builds the packages with the
// skeletons in place: what make lab-start writes must compile before the learner writes a line,
// and keeps every import, so that a first function calling trace.Hop builds too.
func TestLabs_SkeletonsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lab packages")
	}
	r := root(t)
	tmp := t.TempDir()
	ov := Overlay{}
	var pkgs []string
	for i := range Catalogue {
		l := &Catalogue[i]
		regions, err := Regions(r, l.ID, l.Dirs)
		require.NoError(t, err)
		for _, f := range Files(regions) {
			src, err := os.ReadFile(filepath.Join(r, f))
			require.NoError(t, err)
			out, n, err := Strip(src, l.ID)
			require.NoError(t, err, f)
			require.Positive(t, n, f)
			assert.Equal(t, importPaths(t, src), importPaths(t, out), "%s: the skeleton keeps every import of the reference", f)
			dst := filepath.Join(tmp, l.ID, f)
			require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
			require.NoError(t, os.WriteFile(dst, out, 0o644))
			ov[filepath.Join(r, f)] = dst
		}
		for _, d := range l.Dirs {
			pkgs = append(pkgs, "./"+d+"/")
		}
	}
	p, err := ov.write(tmp)
	require.NoError(t, err)
	cmd := exec.Command("go", append([]string{"vet", "-overlay", p}, pkgs...)...)
	cmd.Dir = r
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the skeletons do not build:\n%s", out)
}

// importPaths lists the import paths of a Go source file.
func importPaths(t *testing.T, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	require.NoError(t, err)
	var out []string
	for _, imp := range f.Imports {
		out = append(out, imp.Path.Value)
	}
	return out
}

// TestLabs_GraderIsHonest is the CI check of the labs: with the reference every lab's package
// and chapter tests pass through the grader (so no lab is unsolvable), and every kept mutant
// fails the tests it names (so the grader cannot be fooled by these wrong solutions). Each
// lab's reference binaries are built once; a mutant rebuilds only the package holding the
// tests it names.
func TestLabs_GraderIsHonest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every lab's tests")
	}
	r := root(t)
	// Two labs at a time: much of a lab's time is its tests waiting, not the CPU.
	slots := make(chan struct{}, 2)
	for i := range Catalogue {
		l := &Catalogue[i]
		t.Run(l.ID, func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			var runs []Run
			for _, run := range l.Runs {
				if run.Kind == "package" || run.Kind == "chapter" {
					runs = append(runs, run)
				}
			}
			results, err := Grade(ctx, r, runs, nil, Options{Timeout: 2 * time.Minute})
			require.NoError(t, err)
			score := l.Tally(results)
			for _, res := range results {
				assert.Contains(t, []Status{Pass, Skip}, res.Status, "REF=1: %s %s failed:\n%s", res.Run.Pkg, res.Name, strings.Join(res.Output, "\n"))
			}
			assert.True(t, score.Passed(), "REF=1 must pass lab %s", l.ID)

			ms, err := Mutants(r, l)
			require.NoError(t, err)
			for _, m := range ms {
				caught, failing, err := CheckMutant(ctx, r, l, m, false, false)
				require.NoError(t, err, m.Name)
				assert.True(t, caught, "mutant %s passes the grader: it must fail %v, failing were %v", m.Name, m.CaughtBy, failing)
			}
		})
	}
}

// TestLabs_FirstFunctionGreen: in every lab, the first function of step 1 alone, with every
// other function still panicking, turns its named test green, and the untouched skeleton does
// not: the learner's first success comes after one function.
func TestLabs_FirstFunctionGreen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every lab's package twice")
	}
	r := root(t)
	for i := range Catalogue {
		l := &Catalogue[i]
		t.Run(l.ID, func(t *testing.T) {
			first := l.Steps[0]
			require.NotEmpty(t, first.First, "lab %s: step 1 names no first function", l.ID)
			require.NotEmpty(t, first.Test, "lab %s: step 1 names no first test", l.ID)
			require.NotEmpty(t, first.Tests, "lab %s: step 1 has no tests", l.ID)
			regions, err := Regions(r, l.ID, l.Dirs)
			require.NoError(t, err)
			require.Equal(t, first.First, l.Ordered(regions)[0].Func, "lab-start lists the first function first")
			pkg := first.Tests[0].Pkg
			require.True(t, declares(r, pkg, first.Test), "%s declares no %s", pkg, first.Test)
			run := func(written func(string) bool) (bool, string) {
				dir := t.TempDir()
				ov, err := PartialOverlay(r, dir, l, written)
				require.NoError(t, err)
				p, err := ov.write(dir)
				require.NoError(t, err)
				cmd := exec.Command("go", "test", "-count=1", "-overlay", p, "-run", "^"+first.Test+"$", pkg)
				cmd.Dir = r
				out, err := cmd.CombinedOutput()
				return err == nil && !strings.Contains(string(out), "no tests to run"), string(out)
			}
			ok, out := run(func(fn string) bool { return fn == first.First })
			assert.True(t, ok, "with only %s written, %s must pass:\n%s", first.First, first.Test, out)
			ok, _ = run(nil)
			assert.False(t, ok, "%s passes on the untouched skeleton: it proves nothing about %s", first.Test, first.First)
		})
	}
}

// TestLabs_FixedDenominator: the score's denominator is the lab's graded tests counted from
// the sources, whatever ran: the same for a build failure, a check stopped at step 1 and a
// finished lab, and trace tests never count.
func TestLabs_FixedDenominator(t *testing.T) {
	r := root(t)
	l, err := Find("04")
	require.NoError(t, err)
	n := len(Graded(r, l))
	require.Positive(t, n)
	for _, id := range Graded(r, l) {
		assert.False(t, l.Optional.MatchString(strings.SplitN(id, " ", 2)[1]), "%s is optional and must not be graded", id)
	}
	pkg := Run{Pkg: "./deltafifo/", Kind: "package"}
	cases := map[string][]Result{
		"build failure":   {{Run: pkg, Name: "(build ./deltafifo/)", Status: Fail}},
		"stopped, step 1": {{Run: Run{Pkg: "./deltafifo/", Kind: "step"}, Name: "TestCh04_DF5_DedupDeltas", Status: Pass}},
		"trace passes":    {{Run: pkg, Name: "TestCh04_Tracing", Status: Pass}, {Run: pkg, Name: "TestCh04_DF5_DedupDeltas", Status: Pass}},
	}
	for name, results := range cases {
		var b strings.Builder
		s := Scoreboard(&b, r, l, results, Progress{Step: 1, Steps: 2}, false, false, EN)
		assert.Equal(t, n, s.Total, name)
		assert.LessOrEqual(t, s.Pass, 1, name)
		assert.Contains(t, b.String(), fmt.Sprintf("of %d graded behaviours pass", n), name)
	}
}

// TestLabs_StepByStep: with the functions of steps 1..k written (from the reference) and the
// rest still panicking, a check passes the tests of steps 1..k and stops at step k+1, and its
// denominator is the lab's fixed count: the steps' tests never need a later step's function.
func TestLabs_StepByStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every lab's packages once per step")
	}
	r := root(t)
	for i := range Catalogue {
		l := &Catalogue[i]
		t.Run(l.ID, func(t *testing.T) {
			regions, err := Regions(r, l.ID, l.Dirs)
			require.NoError(t, err)
			total := len(Graded(r, l))
			for k := 0; k < len(l.Steps); k++ {
				written := map[string]bool{}
				for _, reg := range regions {
					if reg.Step <= k {
						written[reg.Func] = true
					}
				}
				ov, err := PartialOverlay(r, t.TempDir(), l, func(fn string) bool { return written[fn] })
				require.NoError(t, err)
				results, p, err := Check(context.Background(), r, l, ov, false, Options{Timeout: 2 * time.Minute})
				require.NoError(t, err)
				assert.Equal(t, k+1, p.Step, "steps 1..%d written: the check stops at step %d", k, k+1)
				assert.False(t, p.Full)
				for _, res := range results {
					if res.Run.Step <= k && !l.Optional.MatchString(res.Name) {
						assert.Contains(t, []Status{Pass, Skip}, res.Status, "step %d's %s fails with steps 1..%d written:\n%s",
							res.Run.Step, res.Name, k, strings.Join(res.Output, "\n"))
					}
				}
				var b strings.Builder
				assert.Equal(t, total, Scoreboard(&b, r, l, results, p, false, false, EN).Total)
			}
		})
	}
}
