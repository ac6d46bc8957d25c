package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("behaviourref", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "root of the repository")
	check := fs.Bool("check", false, "do not write: exit 1 if the generated files are out of date or a reference does not resolve")
	verify := fs.String("verify", "", "check every upstream file:line against this module cache (e.g. $(go env GOMODCACHE))")
	fix := fs.Bool("fix", false, "with -verify: rewrite the data files with the lines found")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lists, err := Load(*root)
	if err != nil {
		fmt.Fprintln(stderr, "behaviourref:", err)
		return 1
	}
	if *verify != "" {
		problems := Verify(*root, *verify, lists, *fix)
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		if len(problems) > 0 {
			return 1
		}
		return 0
	}
	cites, err := Scan(*root)
	if err != nil {
		fmt.Fprintln(stderr, "behaviourref:", err)
		return 1
	}
	rc := 0
	for _, o := range Outputs(lists, cites) {
		target := filepath.Join(*root, o.Path)
		if *check {
			have, _ := os.ReadFile(target)
			if !bytes.Equal(have, o.Data) {
				fmt.Fprintf(stderr, "behaviourref: %s is out of date: run `make docs` (%s) and commit the result\n", o.Path, Command)
				rc = 1
			}
			continue
		}
		if err := os.WriteFile(target, o.Data, 0o644); err != nil {
			fmt.Fprintln(stderr, "behaviourref:", err)
			return 1
		}
	}
	problems, err := Check(*root, lists, cites)
	if err != nil {
		fmt.Fprintln(stderr, "behaviourref:", err)
		return 1
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "behaviourref: %d references do not resolve inside the repository\n", len(problems))
		return 1
	}
	return rc
}
