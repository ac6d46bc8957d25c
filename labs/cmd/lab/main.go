package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
		err = status(root)
	case "hint":
		err = hint(root, args)
	case "mutants":
		err = mutants(ctx, root, args)
	default:
		usage()
	}
	if err != nil {
		fail(err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: lab start|check|status|hint|mutants … (see make help: lab-*)")
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
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	wrote, kept, err := lab.Start(root, l, *force)
	if err != nil {
		return err
	}
	fmt.Printf("Lab %s · %s\n\n", l.ID, l.Title)
	for _, f := range wrote {
		fmt.Printf("  wrote %s\n", f)
	}
	for _, f := range kept {
		fmt.Printf("  kept  %s (yours already; FORCE=1 starts it again)\n", f)
	}
	regions, err := lab.Regions(root, l.ID, l.Dirs)
	if err != nil {
		return err
	}
	fmt.Printf("\nThe functions you write, in this order (everything around them is the reference):\n")
	for _, s := range l.Steps {
		fmt.Printf("  step %d  %s\n", s.N, s.Title)
		for _, r := range regions {
			if r.Step == s.N {
				fmt.Printf("          %-44s %s\n", r.Func, filepath.Join(lab.LabWorkDir(l), r.File))
			}
		}
	}
	fmt.Printf("\nRead %s/README.md first. Then:\n", l.Chapter)
	fmt.Printf("  make lab-check LAB=%s        grade your files with the chapter's tests\n", l.ID)
	fmt.Printf("  make lab-hint LAB=%s N=1     the idea (N=2 the data structure, N=3 the tricky case; ZH=1 中文)\n", l.ID)
	fmt.Printf("  make lab-check LAB=%s REF=1  the same tests against the reference\n", l.ID)
	return nil
}

func check(ctx context.Context, root string, args []string) error {
	fs := flag.NewFlagSet("lab-check", flag.ContinueOnError)
	ref := fs.Bool("ref", false, "grade the reference implementation instead of the learner's files")
	all := fs.Bool("all", false, "detail every failing test")
	race := fs.Bool("race", false, "build with the race detector (slower)")
	timeout := fs.Duration("timeout", 90*time.Second, "per test binary run: a deadlocked test is reported after this long")
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
	results, err := lab.Grade(ctx, root, l.Runs, ov, lab.Options{Timeout: *timeout, Race: *race,
		Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "lab-check: "+f+"\n", a...) }})
	if err != nil {
		return err
	}
	score := lab.Scoreboard(os.Stdout, root, l, results, *ref, *all)
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
				fmt.Printf("\nOne test by hand, with its full output:\n  go test -overlay=%s -run '^%s$' %s\n", rel, r.Name, r.Run.Pkg)
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

func status(root string) error {
	width := 0
	for _, l := range lab.Catalogue {
		width = max(width, len(l.Title))
	}
	fmt.Printf("%-4s %-*s  %-14s %s\n", "lab", width, "title", "functions", "last lab-check")
	for i := range lab.Catalogue {
		l := &lab.Catalogue[i]
		regions, err := lab.Regions(root, l.ID, l.Dirs)
		if err != nil {
			return err
		}
		pending, started := lab.Pending(root, l)
		fns := "not started"
		if started {
			fns = fmt.Sprintf("%d of %d", len(regions)-len(pending), len(regions))
		}
		last := "-"
		if s, ok := lab.LoadScore(root, l); ok && started {
			verdict := "failing"
			if s.Passed() {
				verdict = "DONE"
			}
			last = fmt.Sprintf("%d/%d pass, %s (%s)", s.Pass, s.Pass+s.Fail, verdict, s.When.Format("Jan 2 15:04 UTC"))
		}
		fmt.Printf("%-4s %-*s  %-14s %s\n", l.ID, width, l.Title, fns, last)
	}
	fmt.Println("\nmake lab-start LAB=NN begins one; make lab-check LAB=NN grades it.")
	return nil
}

func hint(root string, args []string) error {
	fs := flag.NewFlagSet("lab-hint", flag.ContinueOnError)
	lang := fs.String("lang", defaultLang(), "en or zh")
	l, err := labArg(fs, args)
	if err != nil {
		return err
	}
	n := 1
	if fs.NArg() > 1 && fs.Arg(1) != "" {
		if n, err = strconv.Atoi(fs.Arg(1)); err != nil || n < 1 || n > 3 {
			return fmt.Errorf("the hint level N is 1 (%s), 2 (%s) or 3 (%s)", lab.HintLevels[0], lab.HintLevels[1], lab.HintLevels[2])
		}
	}
	hints, err := lab.Hints(root, l, *lang)
	if err != nil {
		return err
	}
	fmt.Printf("Lab %s · %s\n\n%s\n", l.ID, l.Title, hints[n-1])
	if n < 3 {
		fmt.Printf("\n(make lab-hint LAB=%s N=%d for the next level)\n", l.ID, n+1)
	}
	return nil
}

// defaultLang is zh when the locale is Chinese.
func defaultLang() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := os.Getenv(v); s != "" {
			if strings.HasPrefix(s, "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
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
