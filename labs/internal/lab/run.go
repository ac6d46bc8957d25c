package lab

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Status is the outcome of one top-level test.
type Status string

// The outcomes a test can have.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Skip  Status = "skip"
	Crash Status = "crash" // the test binary died (a panic in another goroutine, or a timeout) while it ran
)

// Result is one top-level test of one Run.
type Result struct {
	Run    Run
	Name   string
	Status Status
	Output []string // the lines the test printed, subtests included
	Panic  string   // "lab 04: not implemented in DeltaFIFO.Pop", when it panicked
}

// Options tune a grading run.
type Options struct {
	Timeout time.Duration // per test binary run; 0 means 3 minutes
	Race    bool          // build with -race
	Log     func(format string, args ...any)
}

// Grade builds the test binaries of runs with ov in place of the reference files (nil: the
// reference itself), once each, and runs them. A binary that dies is run again without the tests
// that already have a result, so that one panic does not hide every later test.
func Grade(ctx context.Context, root string, runs []Run, ov Overlay, opt Options) ([]Result, error) {
	g, err := NewGrader(root, ov, opt)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return g.Grade(ctx, runs)
}

// Grader grades one set of files: it builds each package's test binary once, however many
// runs (a step's tests, then the whole lab) use it.
type Grader struct {
	root string
	opt  Options
	tmp  string
	args []string
	bins map[string]string // package → test binary; "" for a package without tests
	errs map[string][]string
}

// NewGrader prepares a Grader of ov (nil: the reference). Close removes its binaries.
func NewGrader(root string, ov Overlay, opt Options) (*Grader, error) {
	if opt.Timeout == 0 {
		opt.Timeout = 3 * time.Minute
	}
	if opt.Log == nil {
		opt.Log = func(string, ...any) {}
	}
	tmp, err := os.MkdirTemp("", "lab-check-")
	if err != nil {
		return nil, err
	}
	args := []string{"test", "-c"}
	if opt.Race {
		args = append(args, "-race")
	}
	if len(ov) > 0 {
		p, err := ov.write(tmp)
		if err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
		args = append(args, "-overlay", p)
	}
	return &Grader{root: root, opt: opt, tmp: tmp, args: args, bins: map[string]string{}, errs: map[string][]string{}}, nil
}

// Close removes the test binaries.
func (g *Grader) Close() { os.RemoveAll(g.tmp) }

// binary builds pkg's test binary once; build holds the compiler's words when it fails.
func (g *Grader) binary(ctx context.Context, pkg string) (bin string, build []string) {
	if b, ok := g.bins[pkg]; ok {
		return b, g.errs[pkg]
	}
	bin = filepath.Join(g.tmp, fmt.Sprintf("run%d.test", len(g.bins)))
	g.opt.Log("building %s", pkg)
	cmd := exec.CommandContext(ctx, "go", append(slices.Clone(g.args), "-o", bin, pkg)...)
	cmd.Dir = g.root
	if out, err := cmd.CombinedOutput(); err != nil {
		g.bins[pkg], g.errs[pkg] = "", strings.Split(strings.TrimSpace(string(out)), "\n")
		return "", g.errs[pkg]
	}
	if _, err := os.Stat(bin); err != nil {
		bin = "" // a package without tests
	}
	g.bins[pkg] = bin
	return bin, nil
}

// Grade runs runs in order. A package that does not compile fails as one "(build …)" result
// and grading stops there: the compiler's words are what the learner needs next.
func (g *Grader) Grade(ctx context.Context, runs []Run) ([]Result, error) {
	var results []Result
	for _, r := range runs {
		bin, build := g.binary(ctx, r.Pkg)
		if build != nil {
			return append(results, Result{Run: r, Name: "(build " + r.Pkg + ")", Status: Fail, Output: build}), nil
		}
		if bin == "" {
			continue
		}
		g.opt.Log("running %s %s", r.Pkg, r.Run)
		res, err := runBinary(ctx, bin, filepath.Join(g.root, filepath.FromSlash(r.Pkg)), r, g.opt.Timeout)
		if err != nil {
			return nil, err
		}
		results = append(results, res...)
	}
	return results, nil
}

// list returns the top-level tests and examples of bin that r selects.
func list(ctx context.Context, bin, dir string, r Run) ([]string, error) {
	pattern := r.Run
	if pattern == "" {
		pattern = "."
	}
	cmd := exec.CommandContext(ctx, bin, "-test.list", pattern)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -test.list: %w", r.Pkg, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Example") {
			names = append(names, l)
		}
	}
	return names, nil
}

func runBinary(ctx context.Context, bin, dir string, r Run, timeout time.Duration) ([]Result, error) {
	names, err := list(ctx, bin, dir, r)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	var results []Result
	for attempt := 0; len(done) < len(names) && attempt <= len(names); attempt++ {
		var left []string
		for _, n := range names {
			if !done[n] {
				left = append(left, regexp.QuoteMeta(n))
			}
		}
		args := append([]string{"-test.v", "-test.count=1", "-test.parallel=1",
			"-test.timeout=" + timeout.String(), "-test.run", "^(" + strings.Join(left, "|") + ")$"}, r.Args...)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		runErr := cmd.Run()
		got, crashed := parseVerbose(out.String(), r)
		for _, res := range got {
			done[res.Name] = true
			results = append(results, res)
		}
		if crashed != nil && !done[crashed.Name] {
			done[crashed.Name] = true
			results = append(results, *crashed)
		}
		if runErr != nil && crashed == nil && !slices.ContainsFunc(got, func(res Result) bool { return res.Status == Fail }) {
			// The binary failed with no failing test: TestMain or init did, before the tests
			// (nothing ran) or after them (a leak check finding goroutines still running).
			return append(results, Result{Run: r, Name: "(TestMain " + r.Pkg + ")", Status: Fail,
				Output: lastLines(out.String(), 30)}), nil
		}
		if runErr == nil {
			break
		}
	}
	return results, nil
}

var (
	resultRE = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+)`)
	runRE    = regexp.MustCompile(`^=== (RUN|CONT)\s+(\S+)`)
)

// parseVerbose reads the -test.v output of one run. It returns the finished top-level tests
// and, when the binary died, the test that was running (or that panicked) as a crash.
func parseVerbose(out string, r Run) (finished []Result, crashed *Result) {
	var current string
	outputs := map[string][]string{}
	status := map[string]Status{}
	var order []string
	var panicLines []string
	inPanic := false
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if inPanic {
			panicLines = append(panicLines, line)
			continue
		}
		if m := runRE.FindStringSubmatch(line); m != nil {
			current = strings.SplitN(m[2], "/", 2)[0]
			if _, seen := outputs[current]; !seen {
				order = append(order, current)
				outputs[current] = nil
			}
			continue
		}
		if m := resultRE.FindStringSubmatch(line); m != nil {
			if !strings.Contains(m[2], "/") {
				status[m[2]] = map[string]Status{"PASS": Pass, "FAIL": Fail, "SKIP": Skip}[m[1]]
			}
			if current != "" {
				outputs[current] = append(outputs[current], strings.TrimSpace(line))
			}
			continue
		}
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			inPanic = true
			panicLines = append(panicLines, line)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "--- FAIL: ") && current != "" {
			continue
		}
		if current != "" && line != "PASS" && line != "FAIL" && !strings.HasPrefix(line, "=== ") {
			outputs[current] = append(outputs[current], line)
		}
	}
	for _, n := range order {
		st, ok := status[n]
		if !ok {
			continue
		}
		res := Result{Run: r, Name: n, Status: st, Output: outputs[n]}
		if inPanic && n == current {
			res.Panic = describePanic(panicLines)
			res.Output = append(res.Output, lastLines(strings.Join(panicLines, "\n"), 40)...)
		}
		finished = append(finished, res)
	}
	if inPanic && current != "" {
		if _, ok := status[current]; !ok {
			crashed = &Result{Run: r, Name: current, Status: Crash, Panic: describePanic(panicLines),
				Output: append(outputs[current], lastLines(strings.Join(panicLines, "\n"), 40)...)}
		}
	}
	return finished, crashed
}

// runningRE matches the header of the panicking goroutine's trace, "goroutine 7 [running]:" or
// "goroutine 7 [running, synctest bubble 1]:".
var runningRE = regexp.MustCompile(`^goroutine \d+ \[running[^\]]*\]:$`)

var frameRE = regexp.MustCompile(`^([\w./-]+)\.((?:\(\*?\w+(?:\[[^\]]*\])?\)\.)?\w+)(?:\[[^\]]*\])?\(`)

// describePanic turns a panic's output into one line: its message, and for a skeleton's panic
// the function that is not written yet.
func describePanic(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	msg := strings.TrimPrefix(lines[0], "panic: ")
	msg = strings.TrimSuffix(strings.TrimSuffix(msg, " [recovered]"), " [recovered, repanicked]")
	if strings.HasPrefix(msg, "test timed out") {
		return msg + " (a deadlock, or a goroutine that never returns?)"
	}
	// The first frame after runtime's last panic() is where the panic was raised; a panic
	// that no one recovered has no panic() frame and starts its goroutine's trace there.
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") || (start < 0 && runningRE.MatchString(l)) {
			start = i
		}
	}
	if start >= 0 {
		for _, f := range lines[start+1:] {
			if m := frameRE.FindStringSubmatch(f); m != nil && !strings.HasPrefix(m[1], "runtime") {
				fn := strings.NewReplacer("(*", "", ")", "", "(", "", "[...]", "").Replace(m[2])
				return fmt.Sprintf("%s, in %s.%s", msg, m[1][strings.LastIndex(m[1], "/")+1:], fn)
			}
		}
	}
	return msg
}

func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return lines
}
