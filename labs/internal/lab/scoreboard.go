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
	// Total is the fixed denominator: every graded test of the lab (Graded), whether it ran
	// or not. Step is the step the check stopped at (0: none) and Steps the lab's count.
	Total, Step, Steps int
	When               time.Time
	Ref                bool
}

// Passed reports whether every graded test passed.
func (s Score) Passed() bool {
	if s.Total > 0 {
		return s.Pass == s.Total && s.Fail == 0
	}
	return s.Fail == 0 && s.Pass > 0
}

// Tally counts results, leaving optional failures out of Fail. Pass counts graded tests only,
// each once, so a trace test that starts passing does not move the score.
func (l *Lab) Tally(results []Result) Score {
	var s Score
	passed := map[string]bool{}
	for _, r := range results {
		switch {
		case l.Optional.MatchString(r.Name):
			if r.Status == Fail || r.Status == Crash {
				s.Optional++
			}
		case r.Status == Pass:
			if id := r.Run.Pkg + " " + r.Name; !passed[id] {
				passed[id] = true
				s.Pass++
			}
		case r.Status == Skip:
		default:
			s.Fail++
		}
	}
	return s
}

// Scoreboard prints what lab-check prints: the learner's functions by step, the tests by run,
// and each failing test with its teaching point, its chapter section and why it failed. With
// all false it details at most 12 failures; with all true it also lists the passing tests. p
// says where the check stopped; the score's denominator is always the lab's Graded count.
func Scoreboard(w io.Writer, root string, l *Lab, results []Result, p Progress, ref, all bool, lang Lang) Score {
	score := l.Tally(results)
	graded := Graded(root, l)
	score.Total, score.Step, score.Steps = len(graded), p.Step, len(l.Steps)
	if !p.Full {
		score.Fail = max(score.Fail, 1) // a stopped check has failing step tests
	}
	e := NewExplainer(root)
	who := T(lang, "board.graded.yours", LabWorkDir(l))
	if ref {
		who = T(lang, "board.graded.ref")
	}
	fmt.Fprint(w, T(lang, "board.header", l.ID, l.TitleIn(lang), who))

	regions, _ := Regions(root, l.ID, l.Dirs)
	pending := map[string]bool{}
	if !ref {
		pending, _ = Pending(root, l)
	}
	stepOf := map[string]int{}
	fmt.Fprint(w, T(lang, "board.functions"))
	for _, s := range l.Steps {
		fmt.Fprint(w, T(lang, "board.step", s.N, l.StepTitle(lang, s)))
		for _, r := range l.Ordered(regions) {
			if r.Step != s.N {
				continue
			}
			stepOf[r.Func] = s.N
			mark, note := "✓", T(lang, "board.written")
			if pending[r.Func] {
				mark, note = "·", T(lang, "board.notwritten")
				if r.Func == s.First && s.Test != "" {
					note += T(lang, "board.first", s.Test)
				}
			}
			fmt.Fprintf(w, "          %s %-44s %s:%d  %s\n", mark, r.Func, r.File, r.Line, note)
		}
	}

	// Padded by terminal columns, so that the Chinese header lines up with the numbers too.
	right := func(s string) string { return strings.Repeat(" ", max(0, 5-Width(s))) + s }
	fmt.Fprintf(w, "%s  %s  %s  %s\n", Pad(T(lang, "board.behaviours"), 59),
		right(T(lang, "board.col.pass")), right(T(lang, "board.col.fail")), T(lang, "board.col.optional"))
	type key struct{ kind, pkg, run string }
	var runs []key
	count := map[key][3]int{}
	for _, r := range results {
		kind := r.Run.Kind
		if kind == "step" {
			kind = T(lang, "board.kind.step", r.Run.Step)
		}
		k := key{kind, r.Run.Pkg, r.Run.Run}
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
		if len(label) > 48 {
			label = label[:47] + "…"
		}
		fmt.Fprintf(w, "  %s %-48s %5d  %5d  %5d\n", Pad(k.kind, 9), label, c[0], c[1], c[2])
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
		fmt.Fprint(w, T(lang, "board.unwritten", l.ID))
		for _, fn := range fnOrder {
			names := unwritten[fn]
			shown := names
			if len(shown) > 3 {
				shown = append(slices.Clone(shown[:3]), T(lang, "board.andmore", len(names)-3))
			}
			step := ""
			if n := stepOf[shortFunc(fn)]; n > 0 {
				step = T(lang, "board.ofstep", n)
			}
			id := "board.unwritten.n"
			if len(names) == 1 {
				id = "board.unwritten.one"
			}
			fmt.Fprint(w, T(lang, id, fn, step, len(names), strings.Join(shown, ", ")))
		}
	}
	if len(detailed) > 0 {
		fmt.Fprint(w, T(lang, "board.failing"))
		for i, r := range detailed {
			if i == 12 && !all {
				fmt.Fprint(w, T(lang, "board.failing.more", len(detailed)-12))
				break
			}
			fmt.Fprintf(w, "  ✗ %s   [%s]\n", r.Name, r.Run.Pkg)
			switch {
			case strings.HasPrefix(r.Name, "(build "):
				fmt.Fprint(w, T(lang, "board.build"))
			case strings.HasPrefix(r.Name, "(TestMain "):
				fmt.Fprint(w, T(lang, "board.testmain"))
			default:
				fmt.Fprintf(w, "      %s %s\n", T(lang, "board.teaches"), e.PointIn(lang, r.Run.Pkg, r.Name))
				fmt.Fprintf(w, "      %s %s\n", T(lang, "board.read"), e.Section(r.Run.Pkg, r.Name, l.Chapter))
			}
			for j, line := range why(r) {
				label := T(lang, "board.why")
				if j > 0 {
					label = strings.Repeat(" ", Width(label))
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
			fmt.Fprint(w, T(lang, "board.passing"))
			for _, name := range passing {
				fmt.Fprintf(w, "  ✓ %s\n", name)
			}
		}
	}
	if len(optionalFails) > 0 {
		fmt.Fprint(w, T(lang, "board.optional", len(optionalFails), strings.Join(firstN(optionalFails, 4), ", ")))
	}
	if !p.Full && p.Step > 0 {
		fmt.Fprint(w, T(lang, "board.stopped", p.Step, len(l.Steps)))
	}
	switch {
	case score.Passed():
		fmt.Fprint(w, T(lang, "board.done", len(l.Steps), score.Pass, score.Total, l.ID))
	default:
		fmt.Fprint(w, T(lang, "board.score", max(p.Step, 1), len(l.Steps), score.Pass, score.Total))
		if len(fnOrder) > 0 {
			fmt.Fprint(w, T(lang, "board.next.fn", l.ID))
		} else {
			fmt.Fprint(w, T(lang, "board.next.fix", l.ID))
		}
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
