package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/msgcat"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a mistake on the command line: exit code 2 and a hint.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func errorf(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// run is main without the process: the tests call it with their own context and writers.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, rest := "tour", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "tour":
		err = cmdTour(ctx, rest, stdin, stdout)
	case "run":
		err = cmdRun(ctx, rest, stdout)
	case "watch":
		err = cmdWatch(ctx, rest, stdout)
	case "serve":
		err = cmdServe(ctx, rest, stdout, nil)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, messages.T(helpLang(args, os.Getenv), "demo.usage"))
		return 0
	default:
		err = errorf("unknown command %q", cmd)
	}
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "demo %s: %v\n", cmd, err)
		if cmd != "tour" && cmd != "run" && cmd != "watch" && cmd != "serve" {
			fmt.Fprint(stderr, messages.T(helpLang(args, os.Getenv), "demo.usage"))
		}
		return 2
	default:
		fmt.Fprintf(stderr, "demo %s: %v\n", cmd, err)
		return 1
	}
}

// flagSet is a command's flags. The flag package writes its messages to buf: `-h` copies
// them to the command's output, while a mistake is reported once, on stderr, by run.
type flagSet struct {
	*flag.FlagSet
	out io.Writer
	buf bytes.Buffer
}

// newFlags returns a flag set whose errors come back as usage errors.
func newFlags(name string, out io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet("demo "+name, flag.ContinueOnError), out: out}
	fs.SetOutput(&fs.buf)
	return fs
}

// parse parses args and refuses leftovers. Help goes to the command's output; an error
// becomes a usageError (exit 2) that names the flag and points at -h.
func parse(fs *flagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, _ = fs.out.Write(fs.buf.Bytes())
			return err
		}
		return errorf("%v (see %q)", err, fs.Name()+" -h")
	}
	if fs.NArg() > 0 {
		return errorf("unexpected argument %q (see %q)", fs.Arg(0), fs.Name()+" -h")
	}
	return nil
}

// langFlag registers --lang, the language of what the command prints for a human; its help
// is in the language args name.
func langFlag(fs *flagSet, args []string) *string {
	return fs.String("lang", "", messages.T(helpLang(args, os.Getenv), "flag.lang"))
}

// helpLang is the language of a command's -h: --lang's value when args hold a valid one,
// else the locale's. parse reads --lang again, and refuses a bad value.
func helpLang(args []string, getenv func(string) string) msgcat.Lang {
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		if l, ok := msgcat.Parse(value); ok {
			return l
		}
	}
	return msgcat.FromEnv(getenv)
}

// resolveLang reads --lang; without it the locale environment decides, as setlocale(3) does.
func resolveLang(flagValue string, getenv func(string) string) (msgcat.Lang, error) {
	if flagValue == "" {
		return msgcat.FromEnv(getenv), nil
	}
	l, ok := msgcat.Parse(flagValue)
	if !ok {
		return msgcat.En, errorf("--lang must be en or zh, not %q", flagValue)
	}
	return l, nil
}

// dashboardLang is the dashboard's language: --lang when given; otherwise none, so that the
// browser's Accept-Language decides rather than the terminal's locale.
func dashboardLang(flagValue string, lang msgcat.Lang) msgcat.Lang {
	if flagValue == "" {
		return ""
	}
	return lang
}

// parseProfiles reads --profile: one of classic, inorder, current, a comma-separated list, or
// all.
func parseProfiles(s string) ([]informer.Profile, error) {
	if s == "all" {
		return []informer.Profile{informer.ProfileClassic, informer.ProfileInOrder, informer.ProfileCurrent}, nil
	}
	var out []informer.Profile
	for _, name := range strings.Split(s, ",") {
		p, ok := informer.ParseProfile(strings.TrimSpace(name))
		if !ok {
			return nil, errorf("--profile must be classic, inorder, current or all, not %q", name)
		}
		out = append(out, p)
	}
	return out, nil
}

func cmdTour(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlags("tour", stdout)
	// The flags' help is in the tour's language, which is known before the flags are parsed.
	help := func(id string) string { return messages.T(helpLang(args, os.Getenv), id) }
	profile := fs.String("profile", "current", help("flag.profile"))
	fast := fs.Bool("fast", false, help("flag.fast"))
	short := fs.Bool("short", false, help("flag.short"))
	pause := fs.Duration("pause", 4*time.Second, help("flag.pause"))
	step := fs.Bool("step", false, help("flag.step"))
	burst := fs.Int("burst", 1100, help("flag.burst"))
	resync := fs.Duration("resync", 4*time.Second, help("flag.resync"))
	color := fs.String("color", "auto", help("flag.color"))
	langName := langFlag(fs, args)
	if err := parse(fs, args); err != nil {
		return err
	}
	profiles, err := parseProfiles(*profile)
	if err != nil {
		return err
	}
	lang, err := resolveLang(*langName, os.Getenv)
	if err != nil {
		return err
	}
	pal, err := usePalette(*color, stdout)
	if err != nil {
		return err
	}
	if *burst < 1 || *burst > 100000 {
		return errorf("--burst must be between 1 and 100000, got %d", *burst)
	}
	if *resync < time.Second {
		return errorf("--resync must be at least 1s (client-go's minimum), got %v", *resync)
	}
	if *pause < 0 {
		return errorf("--pause must not be negative")
	}
	cfg := tourConfig{pause: *pause, resync: *resync, burst: *burst, collapse: 10, out: stdout, pal: pal, lang: lang}
	if *fast || *short {
		cfg.pause, cfg.resync = 0, time.Second
	}
	if *step {
		cfg.stepper = bufio.NewReader(stdin)
	}
	for i, p := range profiles {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		cfg.profile = p
		if _, err := runTour(ctx, cfg); err != nil {
			return err
		}
	}
	return nil
}
