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

// A List is one data file: the behaviour list or the wire list.
type List struct {
	NS       string
	Data     string // the data file, relative to the repository root
	Out      string // the generated Markdown, relative to the repository root
	Title    string
	Sections []Section
	Zh       *Twin // the Chinese twin: its data file, output and lines
}

// A Section groups entries under a heading such as "§5.2 DeltaFIFO".
type Section struct {
	Num, Title string
	Line       int // the data file's line, for messages
	Entries    []Entry
}

// An Entry is one statement: its ID, where in the upstream sources it comes from, and what it says.
type Entry struct {
	ID     string
	Src    Source
	Text   string
	Line   int // the data file's line, for messages
	Anchor string
}

// A Source names an upstream function (or type) by module, file, line and name; Ours marks a
// decision of this repository, which has no upstream counterpart.
type Source struct {
	Ours         bool
	Module, File string
	Line         int
	Func         string
}

// modules maps the data files' module names to their import paths and pinned versions: the
// versions client-go v0.37.2 builds with (kubernetes itself at v1.36.3 for the core registries).
var modules = map[string]struct{ Path, Version, Repo, Ref string }{
	"client-go":    {"k8s.io/client-go", "v0.37.2", "kubernetes/client-go", "v0.37.2"},
	"apimachinery": {"k8s.io/apimachinery", "v0.37.2", "kubernetes/apimachinery", "v0.37.2"},
	"apiserver":    {"k8s.io/apiserver", "v0.37.2", "kubernetes/apiserver", "v0.37.2"},
	"kubernetes":   {"k8s.io/kubernetes", "v1.36.3", "kubernetes/kubernetes", "v1.36.3"},
	"utils":        {"k8s.io/utils", "v0.0.0-20260626114624-be93311217bd", "kubernetes/utils", "be93311217bd"},
	"kube-openapi": {"k8s.io/kube-openapi", "v0.0.0-20260721132016-d427ff9ee9ad", "kubernetes/kube-openapi", "d427ff9ee9ad"},
}

// Lists are the two data files and where they are rendered.
func Lists() []*List {
	return []*List{
		{NS: Behaviour, Data: "docs/behaviour/client-go.txt", Out: "docs/behaviour/client-go.md",
			Title: "client-go behaviour reference",
			Zh:    &Twin{Data: "docs/behaviour/client-go.zh-CN.txt", Out: "docs/behaviour/client-go.zh-CN.md", Title: "client-go 行为参考"}},
		{NS: Wire, Data: "docs/behaviour/wire.txt", Out: "docs/behaviour/wire.md",
			Title: "apiserver wire reference",
			Zh:    &Twin{Data: "docs/behaviour/wire.zh-CN.txt", Out: "docs/behaviour/wire.zh-CN.md", Title: "apiserver 线协议参考"}},
	}
}

var reSection = regexp.MustCompile(`^§([0-9]+(?:\.[0-9]+)?) (.+)$`)

// Load reads every list's data file under root.
func Load(root string) ([]*List, error) {
	lists := Lists()
	for _, l := range lists {
		if err := l.load(root); err != nil {
			return nil, err
		}
		if err := l.Zh.load(root); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

func (l *List) load(root string) error {
	data, err := os.ReadFile(filepath.Join(root, l.Data))
	if err != nil {
		return err
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := reSection.FindStringSubmatch(line); m != nil {
			l.Sections = append(l.Sections, Section{Num: m[1], Title: m[2], Line: n})
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 || len(l.Sections) == 0 {
			return fmt.Errorf("%s:%d: want \"ID | source | text\" after a § line", l.Data, n)
		}
		src, err := parseSource(parts[1])
		if err != nil {
			return fmt.Errorf("%s:%d: %v", l.Data, n, err)
		}
		id := parts[0]
		if prev, dup := seen[id]; dup {
			return fmt.Errorf("%s:%d: %s is already listed on line %d", l.Data, n, id, prev)
		}
		seen[id] = n
		s := &l.Sections[len(l.Sections)-1]
		s.Entries = append(s.Entries, Entry{ID: id, Src: src, Text: parts[2], Line: n, Anchor: id})
	}
	return sc.Err()
}

func parseSource(s string) (Source, error) {
	if s == "ours" {
		return Source{Ours: true}, nil
	}
	f := strings.Fields(s)
	if len(f) != 3 {
		return Source{}, fmt.Errorf("source %q: want \"module file[:line] function\" or \"ours\"", s)
	}
	if _, ok := modules[f[0]]; !ok {
		return Source{}, fmt.Errorf("source %q: unknown module %s", s, f[0])
	}
	src := Source{Module: f[0], File: f[1], Func: f[2]}
	if i := strings.LastIndex(f[1], ":"); i >= 0 {
		src.File, src.Line = f[1][:i], atoi(f[1][i+1:])
		if src.Line == 0 {
			return Source{}, fmt.Errorf("source %q: bad line", s)
		}
	}
	return src, nil
}

func (s Source) String() string {
	if s.Ours {
		return "ours"
	}
	file := s.File
	if s.Line > 0 {
		file += ":" + itoa(s.Line)
	}
	return s.Module + " " + file + " " + s.Func
}

// Entries returns every entry of the list, keyed by ID.
func (l *List) Entries() map[string]Entry {
	m := map[string]Entry{}
	for _, s := range l.Sections {
		for _, e := range s.Entries {
			m[e.ID] = e
		}
	}
	return m
}
