package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// A Group is a heading of the glossary with the candidate terms under it.
type Group struct {
	Title string
	Terms []string
}

// defaultTerms are the candidates the glossary weighs: the English API names the articles keep
// in running text, and the Chinese words for the same things, ours and theirs.
var defaultTerms = []Group{
	{"API names kept in English", []string{"List", "Watch", "ListAndWatch", "Relist", "relist",
		"Resync", "resync", "Reflector", "Informer", "informer", "Indexer", "Lister", "DeltaFIFO",
		"Delta", "Deltas", "handler", "Handler", "EventHandler", "workqueue", "WorkQueue", "Store",
		"Bookmark", "bookmark", "controller", "Controller", "Operator"}},
	{"Chinese for list, watch and their kin", []string{"列举", "重新列举", "全量", "增量", "监听", "监视",
		"重新同步", "同步", "反射器", "书签", "分页", "分块"}},
	{"Chinese for the cache and queue", []string{"缓存", "本地缓存", "索引", "索引器", "存储", "队列",
		"工作队列", "列举器", "墓碑"}},
	{"Chinese for handlers", []string{"事件处理函数", "事件处理器", "事件回调函数", "回调函数", "处理器",
		"处理器注册", "监听者", "监听器"}},
	{"Chinese for the controller's side", []string{"控制器", "调谐", "限流", "限速", "限流器", "令牌桶",
		"指数退避", "重试", "配置档"}},
}

var (
	reTermsHeading = regexp.MustCompile(`^##\s+(.+)$`)
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("termcount", flag.ContinueOnError)
	fs.SetOutput(stderr)
	termsFile := fs.String("terms", "", "a file of terms, one a line, \"## heading\" lines grouping them")
	calqueRoot := fs.String("calques", "", "instead of the articles, count the glossary's rejected calques in this tree's *.zh-CN.md files")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *calqueRoot != "" {
		files, err := chineseFiles(*calqueRoot)
		if err != nil {
			fmt.Fprintln(stderr, "termcount:", err)
			return 1
		}
		if len(files) == 0 {
			fmt.Fprintln(stderr, "termcount: no *.zh-CN.md files under", *calqueRoot)
			return 1
		}
		if WriteCalques(stdout, files, calques) > 0 {
			return 1
		}
		return 0
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: termcount [-terms FILE] DIR  (DIR holds the five articles)")
		return 2
	}
	groups := defaultTerms
	if *termsFile != "" {
		var err error
		if groups, err = readTerms(*termsFile); err != nil {
			fmt.Fprintln(stderr, "termcount:", err)
			return 1
		}
	}
	arts, err := readArticles(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "termcount:", err)
		return 1
	}
	if len(arts) == 0 {
		fmt.Fprintln(stderr, "termcount: no articles (*.md) in", fs.Arg(0))
		return 1
	}
	Write(stdout, arts, groups)
	return 0
}

// An Article is one file's name and text.
type Article struct{ Name, Text string }

func readArticles(dir string) ([]Article, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var arts []Article
	for _, n := range names {
		if filepath.Base(n) == "README.md" {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		arts = append(arts, Article{Name: filepath.Base(n), Text: string(data)})
	}
	return arts, nil
}

func readTerms(path string) ([]Group, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var groups []Group
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch m := reTermsHeading.FindStringSubmatch(line); {
		case m != nil:
			groups = append(groups, Group{Title: m[1]})
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			if len(groups) == 0 {
				groups = append(groups, Group{Title: "terms"})
			}
			groups[len(groups)-1].Terms = append(groups[len(groups)-1].Terms, line)
		}
	}
	return groups, sc.Err()
}

// Count returns how often term occurs in text under the rules of the package comment.
func Count(text, term string) int {
	if !hasASCIILetter(term) {
		return strings.Count(text, term)
	}
	n := 0
	for i := 0; ; {
		j := strings.Index(text[i:], term)
		if j < 0 {
			return n
		}
		start, end := i+j, i+j+len(term)
		if !asciiWordByte(text, start-1) && !asciiWordByte(text, end) {
			n++
		}
		i = end
	}
}

func hasASCIILetter(s string) bool {
	for _, r := range s {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// asciiWordByte reports whether text[i] continues an identifier (an ASCII letter, digit or
// underscore); outside the text it does not.
func asciiWordByte(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Write prints one Markdown table per group: a row per term, a column per article, a total.
func Write(w io.Writer, arts []Article, groups []Group) {
	fmt.Fprintf(w, "Counts over %d articles (%s). CJK terms count substrings, so a shorter term\n", len(arts), names(arts))
	fmt.Fprintln(w, "includes the longer ones that contain it; ASCII terms count whole words, case-sensitively.")
	for _, g := range groups {
		fmt.Fprintf(w, "\n### %s\n\n| term |", g.Title)
		for i := range arts {
			fmt.Fprintf(w, " %d |", i+1)
		}
		fmt.Fprint(w, " total |\n|---|")
		for range arts {
			fmt.Fprint(w, "---:|")
		}
		fmt.Fprint(w, "---:|\n")
		for _, t := range g.Terms {
			fmt.Fprintf(w, "| %s |", t)
			total := 0
			for _, a := range arts {
				n := Count(a.Text, t)
				total += n
				fmt.Fprintf(w, " %d |", n)
			}
			fmt.Fprintf(w, " %d |\n", total)
		}
	}
}

func names(arts []Article) string {
	var out []string
	for i, a := range arts {
		out = append(out, fmt.Sprintf("%d = %s", i+1, strings.TrimSuffix(a.Name, ".md")))
	}
	return strings.Join(out, ", ")
}
