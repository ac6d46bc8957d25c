package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// declPattern matches the line that declares fn in a Go file: "Type.Method" a method (any
// receiver name, pointer or not, generic or not), "Name" a function or a type.
func declPattern(fn string) *regexp.Regexp {
	if i := strings.Index(fn, "."); i >= 0 {
		typ, m := regexp.QuoteMeta(fn[:i]), regexp.QuoteMeta(fn[i+1:])
		return regexp.MustCompile(`^func \((\w+ )?\*?` + typ + `(\[[^\]]*\])?\) ` + m + `[\[(]`)
	}
	n := regexp.QuoteMeta(fn)
	return regexp.MustCompile(`^(func ` + n + `[\[(]|type ` + n + `\b)`)
}

// findDecl returns the 1-based line declaring fn in the module file, or 0.
func findDecl(modCache string, src Source) (int, error) {
	mod := modules[src.Module]
	path := filepath.Join(modCache, filepath.FromSlash(escapePath(mod.Path)+"@"+mod.Version), filepath.FromSlash(src.File))
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	re := declPattern(src.Func)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if re.MatchString(sc.Text()) {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%s: no declaration of %s", path, src.Func)
}

// escapePath applies the module cache's case encoding (upper-case letters become "!" + lower).
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Verify checks every source of the lists against the module cache: the file exists and the
// named line declares the named function. fix rewrites the data files with the lines found.
func Verify(root, modCache string, lists []*List, fix bool) []string {
	var problems []string
	for _, l := range lists {
		lines := map[int]Source{}
		for _, s := range l.Sections {
			for _, e := range s.Entries {
				if e.Src.Ours {
					continue
				}
				got, err := findDecl(modCache, e.Src)
				switch {
				case err != nil:
					problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", l.Data, e.Line, e.ID, err))
				case got != e.Src.Line:
					if !fix {
						problems = append(problems, fmt.Sprintf("%s:%d: %s: %s is declared on line %d, not %d",
							l.Data, e.Line, e.ID, e.Src.Func, got, e.Src.Line))
					}
					src := e.Src
					src.Line = got
					lines[e.Line] = src
				}
			}
		}
		if fix && len(lines) > 0 {
			if err := rewriteSources(filepath.Join(root, l.Data), lines); err != nil {
				problems = append(problems, err.Error())
			}
		}
	}
	return problems
}

func rewriteSources(path string, lines map[int]Source) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out := strings.Split(string(data), "\n")
	for n, src := range lines {
		parts := strings.SplitN(out[n-1], " | ", 3)
		parts[1] = src.String()
		out[n-1] = strings.Join(parts, " | ")
	}
	return os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644)
}
