package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Score sums up a grading run.
type Score struct {
	Pass, Fail, Optional int // Optional counts failing optional tests, which do not fail the lab
	When                 time.Time
	Ref                  bool
}

// Passed reports whether every graded test passed.
func (s Score) Passed() bool { return s.Fail == 0 && s.Pass > 0 }

// Tally counts results, leaving optional failures out of Fail.
func (l *Lab) Tally(results []Result) Score {
	var s Score
	for _, r := range results {
		switch {
		case r.Status == Pass:
			s.Pass++
		case r.Status == Skip:
		case l.Optional.MatchString(r.Name):
			s.Optional++
		default:
			s.Fail++
		}
	}
	return s
}

// Scoreboard prints what lab-check prints: the learner's functions by step, the tests by run,
// and each failing test with its teaching point, its chapter section and why it failed. With
// all false it details at most 12 failures; with all true it also lists the passing tests.
func Scoreboard(w io.Writer, root string, l *Lab, results []Result, ref, all bool) Score {
	score := l.Tally(results)
	e := NewExplainer(root)
	graded := "your files in " + LabWorkDir(l)
	if ref {
		graded = "the reference implementation (REF=1)"
	}
	fmt.Fprintf(w, "\nLab %s · %s\ngraded: %s\n", l.ID, l.Title, graded)

	regions, _ := Regions(root, l.ID, l.Dirs)
	pending := map[string]bool{}
	if !ref {
		pending, _ = Pending(root, l)
	}
	stepOf := map[string]int{}
	fmt.Fprintf(w, "\nYour functions\n")
	for _, s := range l.Steps {
		fmt.Fprintf(w, "  step %d  %s\n", s.N, s.Title)
		for _, r := range regions {
			if r.Step != s.N {
				continue
			}
			stepOf[r.Func] = s.N
			mark, note := "✓", "written"
			if pending[r.Func] {
				mark, note = "·", "not written yet"
			}
			fmt.Fprintf(w, "          %s %-44s %s:%d  %s\n", mark, r.Func, r.File, r.Line, note)
		}
	}

	fmt.Fprintf(w, "\nBehaviours (tests)%41s  %5s  %5s  %s\n", "", "pass", "fail", "optional")
	type key struct{ kind, pkg, run string }
	var runs []key
	count := map[key][3]int{}
	for _, r := range results {
		k := key{r.Run.Kind, r.Run.Pkg, r.Run.Run}
		if !slices.Contains(runs, k) {
			runs = append(runs, k)
		}
		c := count[k]
		switch {
		case r.Status == Pass:
			c[0]++
		case r.Status == Skip:
		case l.Optional.MatchString(r.Name):
			c[2]++
		default:
			c[1]++
		}
		count[k] = c
	}
	for _, k := range runs {
		c := count[k]
		label := k.pkg
		if k.run != "" {
			label += " " + k.run
		}
		fmt.Fprintf(w, "  %-9s %-48s %5d  %5d  %5d\n", k.kind, label, c[0], c[1], c[2])
	}

	// Failures caused by a function the learner has not written are one line per function.
	unwritten := map[string][]string{}
	var fnOrder []string
	var detailed []Result
	var optionalFails []string
	for _, r := range results {
		if r.Status == Pass || r.Status == Skip {
			continue
		}
		if l.Optional.MatchString(r.Name) {
			optionalFails = append(optionalFails, r.Name)
			continue
		}
		if fn := notImplementedIn(r.Panic); fn != "" {
			if _, ok := unwritten[fn]; !ok {
				fnOrder = append(fnOrder, fn)
			}
			unwritten[fn] = append(unwritten[fn], r.Name)
			continue
		}
		detailed = append(detailed, r)
	}
	if len(fnOrder) > 0 {
		slices.SortStableFunc(fnOrder, func(a, b string) int { return stepOf[shortFunc(a)] - stepOf[shortFunc(b)] })
		fmt.Fprintf(w, "\nFailing because a function still panics with \"lab %s: not implemented\"\n", l.ID)
		for _, fn := range fnOrder {
			names := unwritten[fn]
			shown := names
			if len(shown) > 3 {
				shown = append(slices.Clone(shown[:3]), fmt.Sprintf("and %d more", len(names)-3))
			}
			step := ""
			if n := stepOf[shortFunc(fn)]; n > 0 {
				step = fmt.Sprintf(" (step %d)", n)
			}
			tests := "tests"
			if len(names) == 1 {
				tests = "test"
			}
			fmt.Fprintf(w, "  ✗ %s%s: %d %s, e.g. %s\n", fn, step, len(names), tests, strings.Join(shown, ", "))
		}
	}
	if len(detailed) > 0 {
		fmt.Fprintf(w, "\nFailing behaviours\n")
		for i, r := range detailed {
			if i == 12 && !all {
				fmt.Fprintf(w, "  … and %d more (ALL=1 shows every one)\n", len(detailed)-12)
				break
			}
			fmt.Fprintf(w, "  ✗ %s   [%s]\n", r.Name, r.Run.Pkg)
			switch {
			case strings.HasPrefix(r.Name, "(build "):
				fmt.Fprintf(w, "      the package does not compile with your files, so none of its tests ran\n")
			case strings.HasPrefix(r.Name, "(TestMain "):
				fmt.Fprintf(w, "      the package's TestMain failed, before the tests or after them (often: goroutines still running)\n")
			default:
				fmt.Fprintf(w, "      teaches: %s\n", e.Point(r.Run.Pkg, r.Name))
				fmt.Fprintf(w, "      read:    %s\n", e.Section(r.Run.Pkg, r.Name, l.Chapter))
			}
			for j, line := range why(r) {
				label := "why:    "
				if j > 0 {
					label = "        "
				}
				fmt.Fprintf(w, "      %s %s\n", label, line)
			}
		}
	}
	if all {
		var passing []string
		for _, r := range results {
			if r.Status == Pass {
				passing = append(passing, r.Name)
			}
		}
		if len(passing) > 0 {
			fmt.Fprintf(w, "\nPassing behaviours\n")
			for _, name := range passing {
				fmt.Fprintf(w, "  ✓ %s\n", name)
			}
		}
	}
	if len(optionalFails) > 0 {
		fmt.Fprintf(w, "\nNot graded: %d trace test(s) fail (%s).\nThey check the trace lines the reference logs inside these functions, which are not the lesson;\n"+
			"add the same trace hops (the chapter's \"Follow one event\" shows them) if you want them green.\n",
			len(optionalFails), strings.Join(firstN(optionalFails, 4), ", "))
	}
	total := score.Pass + score.Fail
	fmt.Fprintf(w, "\nScore: %d of %d graded behaviours pass.", score.Pass, total)
	switch {
	case score.Passed():
		fmt.Fprintf(w, " Lab %s is done.\n", l.ID)
	case len(fnOrder) > 0:
		fmt.Fprintf(w, " Write the functions marked · above, step by step; make lab-hint LAB=%s N=1 when stuck.\n", l.ID)
	default:
		fmt.Fprintf(w, " Read the failing behaviours above; make lab-hint LAB=%s N=3 names the tricky cases.\n", l.ID)
	}
	score.When = time.Now().UTC().Truncate(time.Second)
	score.Ref = ref
	return score
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), "…")
	}
	return s
}

// notImplementedIn returns the function of a skeleton panic ("deltafifo.DeltaFIFO.Pop").
func notImplementedIn(panic string) string {
	if !strings.Contains(panic, ": not implemented, in ") {
		return ""
	}
	return panic[strings.Index(panic, ", in ")+len(", in "):]
}

// shortFunc drops the package qualifier: "deltafifo.DeltaFIFO.Pop" → "DeltaFIFO.Pop".
func shortFunc(fn string) string {
	if i := strings.Index(fn, "."); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// why picks the few lines of a failure that say what went wrong.
func why(r Result) []string {
	if r.Panic != "" {
		return []string{"panic: " + r.Panic}
	}
	if strings.HasPrefix(r.Name, "(") {
		return clip(firstN(r.Output, 25)) // the compiler's or the binary's own words
	}
	var lines []string
	for _, l := range r.Output {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--- ") {
			lines = append(lines, t)
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "Error:") {
			end := min(i+4, len(lines))
			for j := i + 1; j < end; j++ {
				if strings.HasPrefix(lines[j], "Test:") || strings.HasPrefix(lines[j], "Messages:") {
					end = j
					break
				}
			}
			return clip(lines[i:end])
		}
	}
	return clip(firstN(lines, 5))
}

func clip(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > 150 {
			l = l[:147] + "…"
		}
		out[i] = l
	}
	return out
}

// statusFile is where lab-check records its last score for lab-status.
func statusFile(root string, l *Lab) string {
	return filepath.Join(root, LabWorkDir(l), ".last-check.json")
}

// SaveScore records s for lab-status; only learner runs are recorded.
func SaveScore(root string, l *Lab, s Score) error {
	if s.Ref {
		return nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(statusFile(root, l), b, 0o644)
}

// LoadScore returns the last recorded score of l, if any.
func LoadScore(root string, l *Lab) (Score, bool) {
	b, err := os.ReadFile(statusFile(root, l))
	if err != nil {
		return Score{}, false
	}
	var s Score
	return s, json.Unmarshal(b, &s) == nil
}
