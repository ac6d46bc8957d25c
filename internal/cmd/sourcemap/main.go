package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sourcemap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "root of the main module")
	out := fs.String("out", "SOURCE_MAP.md", "output file, relative to -root")
	check := fs.Bool("check", false, "do not write: exit 1 if the output file is out of date")
	lint := fs.Bool("lint", false, "do not write: list exported identifiers with no mirrors/ours statement (exits 0)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	pkgs, err := Collect(*root)
	if err != nil {
		fmt.Fprintln(stderr, "sourcemap:", err)
		return 1
	}
	target := *out
	if !filepath.IsAbs(target) {
		target = filepath.Join(*root, target)
	}
	switch {
	case *lint:
		writeLint(stdout, pkgs)
		return 0
	case *check:
		have, err := os.ReadFile(target)
		if err != nil {
			fmt.Fprintf(stderr, "sourcemap: %v\nrun `make docs` (%s) to generate it\n", err, Command)
			return 1
		}
		if msg := Diff(have, Render(pkgs)); msg != "" {
			fmt.Fprintf(stderr, "sourcemap: %s is out of date: %s\nrun `make docs` (%s) and commit the result\n", target, msg, Command)
			return 1
		}
		return 0
	default:
		if err := os.WriteFile(target, Render(pkgs), 0o644); err != nil {
			fmt.Fprintln(stderr, "sourcemap:", err)
			return 1
		}
		return 0
	}
}

// Unstated returns the identifiers whose comments say neither mirrors nor ours, by package.
func Unstated(pkgs []Package) (byPkg []Package, n int) {
	for _, p := range pkgs {
		q := Package{ImportPath: p.ImportPath, Dir: p.Dir}
		for _, e := range p.Entries {
			if e.Stmt.Kind == Missing {
				q.Entries = append(q.Entries, e)
			}
		}
		if len(q.Entries) > 0 {
			byPkg = append(byPkg, q)
			n += len(q.Entries)
		}
	}
	return byPkg, n
}

func writeLint(w io.Writer, pkgs []Package) {
	byPkg, n := Unstated(pkgs)
	fmt.Fprintf(w, "%d exported identifiers have no mirrors/ours statement (report only)\n", n)
	for _, p := range byPkg {
		fmt.Fprintf(w, "\n%s (%d)\n", p.Dir, len(p.Entries))
		for _, e := range p.Entries {
			fmt.Fprintf(w, "\t%s:%d\t%s %s\n", e.File, e.Line, e.Kind, shortName(e))
		}
	}
}

// Diff describes the first line where have and want differ, or returns "" when they are equal.
func Diff(have, want []byte) string {
	if bytes.Equal(have, want) {
		return ""
	}
	h := strings.Split(string(have), "\n")
	w := strings.Split(string(want), "\n")
	for i := 0; i < len(h) || i < len(w); i++ {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if i >= len(h) || i >= len(w) || hl != wl {
			return fmt.Sprintf("first difference at line %d:\n  committed: %q\n  generated: %q", i+1, hl, wl)
		}
	}
	return "they differ" // unreachable: equal lines mean equal bytes
}
