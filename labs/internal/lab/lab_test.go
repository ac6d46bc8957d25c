package lab

import (
	"context"
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
			for _, lang := range []string{"en", "zh"} {
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
