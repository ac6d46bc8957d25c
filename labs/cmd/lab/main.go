package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/labs/internal/lab"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	args := os.Args[2:]
	switch os.Args[1] {
	case "start":
		err = start(root, args)
	case "check":
		err = check(ctx, root, args)
	case "status":
		err = status(root, args)
	case "hint":
		err = hint(root, args)
	case "mutants":
		err = mutants(ctx, root, args)
	case "timings":
		err = timings(ctx, root, args)
	default:
		usage()
	}
	if err != nil {
		fail(err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: lab start|check|status|hint|mutants|timings … (see make help: lab-*)")
	os.Exit(2)
}

func fail(err error) {
	var exit exitError
	if errors.As(err, &exit) {
		os.Exit(int(exit))
	}
	fmt.Fprintln(os.Stderr, "lab:", err)
	os.Exit(1)
}

// exitError ends the program with a status and no message: the scoreboard already said it.
type exitError int

func (e exitError) Error() string { return "exit " + strconv.Itoa(int(e)) }

// repoRoot walks up from the working directory to the main module's go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/informer-lab/informer-lab\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run me inside the informer-lab repository")
		}
		dir = parent
	}
}

func labArg(fs *flag.FlagSet, args []string) (*lab.Lab, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() < 1 || fs.Arg(0) == "" {
		return nil, errors.New("which lab? e.g. make " + fs.Name() + " LAB=04 (make lab-status lists them)")
	}
	return lab.Find(fs.Arg(0))
}

func start(root string, args []string) error {
	fs := flag.NewFlagSet("lab-start", flag.ContinueOnError)
	force := fs.Bool("force", false, "overwrite files already in the workspace")
	lang := langFlag(fs)
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	wrote, kept, err := lab.Start(root, l, *force)
	if err != nil {
		return err
	}
	L := lab.Lang(*lang)
	fmt.Printf("Lab %s · %s\n\n", l.ID, l.TitleIn(L))
	for _, f := range wrote {
		fmt.Print(lab.T(L, "start.wrote", f))
	}
	for _, f := range kept {
		fmt.Print(lab.T(L, "start.kept", f))
	}
	regions, err := lab.Regions(root, l.ID, l.Dirs)
	if err != nil {
		return err
	}
	fmt.Print(lab.T(L, "start.order"))
	for _, s := range l.Steps {
		fmt.Print(lab.T(L, "board.step", s.N, l.StepTitle(L, s)))
		for _, r := range l.Ordered(regions) {
			if r.Step == s.N {
				fmt.Printf("          %-44s %s\n", r.Func, filepath.Join(lab.LabWorkDir(l), r.File))
				if r.Func == s.First && s.Test != "" {
					fmt.Print(lab.T(L, "start.first", r.Func, s.Test))
				}
			}
		}
	}
	readme := l.Chapter + "/README.md"
	if L == lab.ZH {
		readme = l.Chapter + "/README.zh-CN.md"
	}
	fmt.Print(lab.T(L, "start.read", readme))
	fmt.Print(lab.T(L, "start.check", l.ID))
	fmt.Print(lab.T(L, "start.hint", l.ID))
	fmt.Print(lab.T(L, "start.ref", l.ID))
	return nil
}

func check(ctx context.Context, root string, args []string) error {
	fs := flag.NewFlagSet("lab-check", flag.ContinueOnError)
	ref := fs.Bool("ref", false, "grade the reference implementation instead of the learner's files")
	all := fs.Bool("all", false, "detail every failing test")
	race := fs.Bool("race", false, "build with the race detector (slower)")
	timeout := fs.Duration("timeout", 90*time.Second, "per test binary run: a deadlocked test is reported after this long")
	lang := langFlag(fs)
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	var ov lab.Overlay
	if !*ref {
		if ov, err = lab.LearnerOverlay(root, l); err != nil {
			return err
		}
	}
	started := time.Now()
	results, progress, err := lab.Check(ctx, root, l, ov, *all || *ref, lab.Options{Timeout: *timeout, Race: *race,
		Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "lab-check: "+f+"\n", a...) }})
	if err != nil {
		return err
	}
	score := lab.Scoreboard(os.Stdout, root, l, results, progress, *ref, *all, lab.Lang(*lang))
	fmt.Printf("(%s)\n", time.Since(started).Round(100*time.Millisecond))
	if !*ref && !score.Passed() {
		// One failing test by hand, with its whole output, and prints of your own if you add them.
		for _, r := range results {
			if (r.Status == lab.Fail || r.Status == lab.Crash) && !strings.HasPrefix(r.Name, "(") && !l.Optional.MatchString(r.Name) {
				p, err := ov.Write(filepath.Join(root, lab.LabWorkDir(l)))
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				fmt.Print(lab.T(lab.Lang(*lang), "check.byhand", rel, r.Name, r.Run.Pkg))
				break
			}
		}
	}
	if err := lab.SaveScore(root, l, score); err != nil {
		return err
	}
	if !score.Passed() {
		return exitError(1)
	}
	return nil
}

func status(root string, args []string) error {
	fs := flag.NewFlagSet("lab-status", flag.ContinueOnError)
	lang := langFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	L := lab.Lang(*lang)
	width := 0
	for _, l := range lab.Catalogue {
		width = max(width, lab.Width(l.TitleIn(L)))
	}
	fmt.Printf("%s %s  %s %s\n", lab.Pad(lab.T(L, "status.head"), 4), lab.Pad(lab.T(L, "status.title"), width), lab.Pad(lab.T(L, "status.fns"), 14), lab.T(L, "status.last"))
	for i := range lab.Catalogue {
		l := &lab.Catalogue[i]
		regions, err := lab.Regions(root, l.ID, l.Dirs)
		if err != nil {
			return err
		}
		pending, started := lab.Pending(root, l)
		fns := lab.T(L, "status.notyet")
		if started {
			fns = lab.T(L, "status.nofm", len(regions)-len(pending), len(regions))
		}
		last := "-"
		if s, ok := lab.LoadScore(root, l); ok && started {
			verdict := lab.T(L, "status.failing")
			if s.Passed() {
				verdict = lab.T(L, "status.done")
			}
			total := s.Total
			if total == 0 {
				total = s.Pass + s.Fail
			}
			last = lab.T(L, "status.score", s.Pass, total, verdict, s.When.Format("Jan 2 15:04 UTC"))
		}
		fmt.Printf("%-4s %s  %s %s\n", l.ID, lab.Pad(l.TitleIn(L), width), lab.Pad(fns, 14), last)
	}
	fmt.Print(lab.T(L, "status.foot"))
	return nil
}

func hint(root string, args []string) error {
	fs := flag.NewFlagSet("lab-hint", flag.ContinueOnError)
	lang := langFlag(fs)
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	n := 1
	if fs.NArg() > 1 && fs.Arg(1) != "" {
		if n, err = strconv.Atoi(fs.Arg(1)); err != nil || n < 1 || n > 3 {
			return errors.New(lab.T(lab.Lang(*lang), "hint.levels"))
		}
	}
	hints, err := lab.Hints(root, l, lab.Lang(*lang))
	if err != nil {
		return err
	}
	fmt.Printf("Lab %s · %s\n\n%s\n", l.ID, l.TitleIn(lab.Lang(*lang)), hints[n-1])
	if n < 3 {
		fmt.Print(lab.T(lab.Lang(*lang), "hint.next", l.ID, n+1))
	}
	return nil
}

// langFlag is the -lang flag, whose default is ZH=1 or a Chinese locale (lab.LangFromEnv).
func langFlag(fs *flag.FlagSet) *string {
	return fs.String("lang", string(lab.LangFromEnv(os.Getenv)), "en or zh (default: zh with ZH=1 or a zh_* locale)")
}

func mutants(ctx context.Context, root string, args []string) error {
	fs := flag.NewFlagSet("lab-mutants", flag.ContinueOnError)
	discover := fs.Bool("discover", false, "run every package and chapter test, to find the tests that catch each mutant")
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	ms, err := lab.Mutants(root, l)
	if err != nil {
		return err
	}
	missed := 0
	for _, m := range ms {
		caught, failing, err := lab.CheckMutant(ctx, root, l, m, *discover, false)
		if err != nil {
			return err
		}
		verdict := "caught"
		if !caught {
			verdict = "MISSED"
			missed++
		}
		fmt.Printf("%-7s %-36s %s\n        failing: %s\n", verdict, m.Name, m.Summary, strings.Join(failing, ", "))
	}
	if missed > 0 {
		return fmt.Errorf("%d mutant(s) of lab %s pass the grader", missed, l.ID)
	}
	return nil
}

// timings solves each lab function by function from the reference, in the order lab-start
// lists them, and times the lab-check after each function, as a learner would run it.
func timings(ctx context.Context, root string, args []string) error {
	fs := flag.NewFlagSet("lab-timings", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	labs := fs.Args()
	if len(labs) == 0 {
		for _, l := range lab.Catalogue {
			labs = append(labs, l.ID)
		}
	}
	fmt.Println("| lab | after writing | step | graded pass | check |")
	fmt.Println("|---|---|---|---|---|")
	for _, id := range labs {
		l, err := lab.Find(id)
		if err != nil {
			return err
		}
		regions, err := lab.Regions(root, l.ID, l.Dirs)
		if err != nil {
			return err
		}
		ordered := l.Ordered(regions)
		var total time.Duration
		for n := 0; n <= len(ordered); n++ {
			written := map[string]bool{}
			for _, r := range ordered[:n] {
				written[r.Func] = true
			}
			dir, err := os.MkdirTemp("", "lab-timings-")
			if err != nil {
				return err
			}
			ov, err := lab.PartialOverlay(root, dir, l, func(fn string) bool { return written[fn] })
			if err != nil {
				return err
			}
			started := time.Now()
			results, p, err := lab.Check(ctx, root, l, ov, false, lab.Options{Timeout: 90 * time.Second})
			took := time.Since(started)
			os.RemoveAll(dir)
			if err != nil {
				return err
			}
			total += took
			score := lab.Scoreboard(io.Discard, root, l, results, p, false, false, lab.EN)
			what := "(skeleton)"
			if n > 0 {
				what = fmt.Sprintf("%d. `%s`", n, ordered[n-1].Func)
			}
			step := fmt.Sprintf("%d of %d", max(p.Step, 1), p.Steps)
			if score.Passed() {
				step = "done"
			}
			fmt.Printf("| %s | %s | %s | %d of %d | %.1f s |\n", l.ID, what, step, score.Pass, score.Total, took.Seconds())
		}
		fmt.Fprintf(os.Stderr, "lab %s: %d checks, %.1f s in all\n", l.ID, len(ordered)+1, total.Seconds())
	}
	return nil
}
